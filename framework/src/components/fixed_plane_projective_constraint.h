// SOFA's FixedPlaneProjectiveConstraint (Vec types).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         FixedPlaneProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Stops points moving along `direction` (they slide in the plane normal to it): the points
/// `indices` (default none) and, when dmin ≠ dmax, every point whose initial position x has
/// dmin < x·direction < dmax (strict, with the direction as written, as SOFA's init selects them).
/// Increments and forces of those points are projected with P = I − ddᵀ (SOFA's projectResponse);
/// positions and velocities are left alone (SOFA's projectPosition and projectVelocity do
/// nothing); system matrices become P·A·P + (I − P) on their rows and columns — for a direction
/// along an axis this is SOFA's applyConstraint (that axis's rows and columns cleared, 1 on the
/// diagonal), and for any direction what SOFA's matrix-free CG computes.
/// Deviation: SOFA uses the direction unnormalised in its projection (a direction of length ≠ 1
/// then scales rather than projects); Fluxion normalises it, with a warning.
class FixedPlaneProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
