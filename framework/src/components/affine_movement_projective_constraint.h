// SOFA's AffineMovementProjectiveConstraint (Vec types).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         AffineMovementProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Moves points from their initial positions x₀ to x_f = R·x₀ + T (`rotation` R, a 3×3 matrix
/// written row by row, e.g. "[0.7 -0.7 0,0.7 0.7 0,0 0 1]"; `translation` T) over
/// [beginConstraintTime, endConstraintTime] (default [0, 20]): for b < t ≤ e,
/// x = ((x_f − x₀)·t + x₀·e − x_f·b)/(e − b); for t > e, x = x_f; before, positions are left as
/// they are. The points (`indices`) are always held: increments, forces and velocities are
/// projected to zero (SOFA's projectResponse and projectVelocity). As SOFA, positions follow the
/// time the step started at (see LinearMovementProjectiveConstraint). `meshIndices` (used by SOFA
/// for other components' queries) and `quaternion` (rigid templates) are accepted and unused.
/// SOFA's default rotation is the zero matrix (x_f = T); Fluxion keeps it.
/// Points removed by a topological change (in place or by the rebuild) leave `indices` as
/// SOFA's TopologySubsetIndices does (the removed point dropped, the moved last point renamed),
/// each remaining point keeping its own x₀ and x_f. Fluxion deliberately differs from SOFA here:
/// SOFA's x0 and xf are indexed by point number and not renumbered, so a constrained point moved
/// into a removed point's slot takes what SOFA stored for that number (the removed point's
/// x₀ and x_f, or zero when it was not constrained).
class AffineMovementProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
