// SOFA's SurfacePressureForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         SurfacePressureForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A pressure on the triangles and quads of the node's topology (Vec3), optionally restricted to
/// listed elements or to a box, along a main direction, or scaled to conserve the enclosed
/// volume, or ramped up and down in pulse mode; formulas and SOFA's tangent in
/// mechanics/pressure_force_fields.h. Differences from SOFA: the pulse advances once per step
/// (SOFA: once per force evaluation, the same for Euler solvers); the rest volume of
/// `volumeConservationMode` is taken from the initial positions at build time (SOFA: at the first
/// force evaluation, the same state); a `topology` link is refused (the node's own topology is
/// used).
class SurfacePressureForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
