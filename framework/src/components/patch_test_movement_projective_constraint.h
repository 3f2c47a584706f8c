// SOFA's PatchTestMovementProjectiveConstraint (Vec3).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         PatchTestMovementProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Moves the points `indices` (a patch test's boundary) from their initial positions x₀ to
/// x_f = x₀ + d(x₀), where d interpolates the movements of the corners of the patch
/// (`cornerMovements`, one vector per corner) bilinearly — trilinearly with eight corners —
/// over [beginConstraintTime, endConstraintTime] (default [0, 20]), as
/// AffineMovementProjectiveConstraint does: x = ((x_f − x₀)·t + x₀·e − x_f·b)/(e − b) for
/// b < t ≤ e, x_f after, unchanged before. The points are always held: velocities, increments
/// and their rows and columns of the system are cleared (SOFA's projectVelocity, projectResponse,
/// projectMatrix). Positions follow the time the step started at, as SOFA's node time.
///
/// The corners c₀…c₃ (c₄…c₇ in 3-D) are the given `cornerPoints`, else found among
/// `constrainedPoints` (coordinates, e.g. "@PairBoxROI.pointsInROI") by SOFA's findCornerPoints
/// scan: each corner starts at the first point and is replaced by every later point that is
/// "further" along any of its axes (c₀: smaller x or y or z; c₁: smaller y, larger x or smaller
/// z; c₂: larger x or y or smaller z; c₃: smaller x, larger y or smaller z; in 3-D — when the
/// points do not all share the first one's z — c₄: smaller x or y, or z above c₀'s; c₅: smaller
/// y, larger x or z; c₆: larger x or y, or z above c₂'s; c₇ when c₅ was not replaced: smaller x,
/// larger y or z). For x₀ = (x, y, z): α = |x − c₀ₓ|/|c₁ₓ − c₀ₓ|, β = |y − c₀ᵧ|/|c₃ᵧ − c₀ᵧ|,
/// γ = |z − c₀𝓏|/|c₄𝓏 − c₀𝓏| and, with the movements m₀…m₇,
///   d = m₀(1−α)(1−β) + m₁α(1−β) + m₂αβ + m₃(1−α)β                       (four corners),
///   d = [that](1−γ) + [the same with m₄…m₇]γ                             (eight corners).
/// `meshIndices` (SOFA's getFinalPositions query for other components) is accepted and unused.
/// Differences from SOFA: SOFA appends the corners it finds to given `cornerPoints` (giving both
/// makes 8 or 12 corners); Fluxion uses given corners alone. Corners spanning no width along an
/// axis used (α, β or γ dividing by zero), too few `cornerMovements`, and a corner count other
/// than 4 or 8 are errors (SOFA divides by zero, reads past the movements, or holds the points
/// still); no corners at all (no constrainedPoints, no cornerPoints) holds the points at x₀ as
/// SOFA does, with a warning.
class PatchTestMovementProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
