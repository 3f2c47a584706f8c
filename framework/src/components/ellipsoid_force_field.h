// SOFA's EllipsoidForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         EllipsoidForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Penalty contact of the node's points with a fixed ellipsoid (`center`, semi-axes `vradius`):
/// a positive `stiffness` pushes points out of it, a negative one keeps them inside. Force,
/// SOFA's tangent stiffness and where it differs from the exact one (Fluxion's
/// `exactStiffness`) are in mechanics/contact_force_fields.h. Differences from SOFA: a
/// `vradius` with a zero (SOFA's default) is refused instead of dividing by zero, a point at the
/// center gets no force, and no warning is logged for the energy (0, as SOFA reports).
class EllipsoidForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
