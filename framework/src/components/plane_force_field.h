// SOFA's PlaneForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/PlaneForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Penalty contact of the node's points with the half-space x·normal ≥ d
/// (mechanics/contact_force_fields.h for the force, its stiffness and where Fluxion differs:
/// it reports the elastic energy SOFA leaves at 0). `normal` is used as given, as SOFA does.
/// Deviations: a zero normal, a negative stiffness, damping or maxForce are errors (SOFA warns
/// and uses its defaults).
class PlaneForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
