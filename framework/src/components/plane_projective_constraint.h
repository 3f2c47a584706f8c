// SOFA's PlaneProjectiveConstraint (Vec types).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         PlaneProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Keeps points in the plane through `origin` with normal `normal` (normalised; default points
/// "0"): their increments, forces and velocities are projected with P = I − nnᵀ (SOFA's
/// projectResponse and projectVelocity), their positions onto the plane, x ← x − n((x − o)·n)
/// (projectPosition, at the start and after every step), and system matrices become
/// P·A·P + (I − P) on their rows and columns (SOFA's projectMatrix computes P·A·P; its
/// applyConstraint for assembled solvers is not implemented, so SOFA's matrix-free CG, which
/// projects inside its product, is what Fluxion reproduces). A zero normal projects nothing, as
/// in SOFA (with a warning).
class PlaneProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
