// SOFA's SphereForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/SphereForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Penalty contact of the node's points with a fixed ball (mechanics/contact_force_fields.h for
/// the force, its exact tangent stiffness, and the energy Fluxion reports where SOFA reports 0).
class SphereForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
