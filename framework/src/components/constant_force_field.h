// SOFA's ConstantForceField.
// Source:
// Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/ConstantForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A constant force on chosen points (all by default): `forces` (one vector per index, or one
/// broadcast to all, as SOFA), `force` (one vector on every index) or `totalForce` (one vector
/// spread evenly); `indexFromEnd` counts indices from the last point. Potential energy −F·x.
class ConstantForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
