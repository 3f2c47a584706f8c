// SOFA's LinearForceField: a key-framed load.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/LinearForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A force on chosen `points` (default none, as in SOFA; alias `indices`) linearly interpolated
/// between key `forces` at key `times`, scaled by `force` — except the last key's force, held
/// unscaled from the last key time on (SOFA's quirk, kept; warned). Formulas and the time at
/// which it is evaluated: mechanics/time_dependent_forces.h.
class LinearForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
