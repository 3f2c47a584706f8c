// SOFA's LinearMovementProjectiveConstraint (Vec types).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         LinearMovementProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Moves points along a key-framed path: `movements` holds one displacement per key time
/// (`keyTimes`, chronological), added to each point's initial position (`relativeMovements`,
/// default) or taken as the absolute position. At a time t with k₀ ≤ t < k_last, between the
/// keys tᵢ ≤ t < tᵢ₊₁: m(t) = mᵢ + (mᵢ₊₁ − mᵢ)(t − tᵢ)/(tᵢ₊₁ − tᵢ); positions are set to
/// x₀ + m(t) (projectPosition), velocities to (mᵢ₊₁ − mᵢ)/(tᵢ₊₁ − tᵢ) (projectVelocity), and the
/// points are held (increments projected out) during the step. Outside [k₀, k_last) nothing is
/// done: the points are free (after the last key they move under their forces).
/// SOFA reads its node's time, which the animation loop advances only after projecting, so after
/// the step from tₙ to tₙ₊₁ the points are at x₀ + m(tₙ): the path lags one step behind the key
/// times. Fluxion does the same (fluxion/projective_constraint.h). SOFA's regression reference
/// for LinearVelocityProjectiveConstraint.scn (which integrates the same way) confirms it: its
/// final angle, 1.1775 rad, is the sum of ω(tₙ)·h over the steps' start times, not end times.
/// Points removed by a topological change (in place or by the rebuild) leave `indices` as
/// SOFA's TopologySubsetIndices does (the removed point dropped, the moved last point renamed),
/// each remaining point keeping its own x₀. Fluxion deliberately differs from SOFA here: SOFA's
/// x0 is indexed by point number and not renumbered, so a constrained point moved into a removed
/// point's slot takes what SOFA stored for that number (the removed point's x₀, or zero).
class LinearMovementProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
