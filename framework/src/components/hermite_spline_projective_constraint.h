// SOFA's HermiteSplineProjectiveConstraint (Vec3).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         HermiteSplineProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Drives the points `indices` along a cubic Hermite curve from `X0` to `X1` with tangents `dX0`
/// and `dX1` during [BeginTime, EndTime] (both included). At time t in that window,
/// u = (t − BeginTime)/(EndTime − BeginTime) is first warped: s is the second coordinate of the
/// planar Hermite curve from (0, 0) to (1, 1) with tangents `SX0` and `SX1`,
///   s(u) = SX0ᵧ·h₁₀(u) + h₀₁(u) + SX1ᵧ·h₁₁(u),
/// with h₀₀ = 2u³ − 3u² + 1, h₁₀ = u³ − 2u² + u, h₀₁ = −2u³ + 3u², h₁₁ = u³ − u²; then
///   x = X0·h₀₀(s) + dX0·h₁₀(s) + X1·h₀₁(s) + dX1·h₁₁(s)          (projectPosition),
///   v = X0·h₀₀′(s) + dX0·h₁₀′(s) + X1·h₀₁′(s) + dX1·h₁₁′(s)      (projectVelocity),
/// the velocity being SOFA's: the derivative with respect to s, not to time (SOFA applies
/// neither ds/du nor 1/(EndTime − BeginTime); Fluxion keeps it). Every point gets the same
/// position. During the window the points are held (increments projected out); outside it
/// nothing is done and they move freely. As SOFA, t is the time the step started at.
/// Differences from SOFA: EndTime = BeginTime (SOFA's default, 0 and 0) is an error — SOFA
/// divides 0 by 0 and writes NaN positions at that instant; `topology` is accepted and unused.
class HermiteSplineProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
