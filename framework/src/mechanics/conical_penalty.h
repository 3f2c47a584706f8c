// SOFA's ConicalForceField: penalty contact that keeps points inside a cone.
#pragma once

#include <array>
#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

/// The cone has its apex at `center`, its axis n = height/‖height‖, half-angle θ and, as SOFA
/// builds it, a spherical cap at distance h = ‖height‖ from the apex. A point p is inside when
/// ‖cp‖ ≤ h and the angle between cp = p − center and the height is at most θ; else it is pushed
/// back, as SOFA's addForce does, in one of three regions:
///   beyond the cap (‖cp‖ > h):   d = ‖cp‖ − h, u = cp/‖cp‖,   f = −k·d·u + c·d·v;
///   beside the cone (cp·n > 0):  p′ the point of the cone's generator in the plane of p and the
///                                axis nearest p (cp turned towards the axis by its angle to the
///                                axis less θ, then projected), d = ‖p′ − p‖, u = (p′ − p)/d,
///                                f = k·d·u − c·(u·v)·u;
///   behind the apex (cp·n ≤ 0):  d = ‖cp‖, u = −cp/‖cp‖,       f = k·d·u − c·(u·v)·u.
/// K = −∂f/∂x = k·u·uᵀ on each pushed point, SOFA's tangent (its addDForce): the exact Jacobian
/// of the elastic force beside the cone and beyond the cap also has the terms of the turning of
/// u, which SOFA leaves out, and so does Fluxion. No B (the damping is explicit, as in SOFA). The
/// potential energy is 0, as SOFA reports.
class ConicalPenalty final : public ForceField {
 public:
  /// `points`: the first DOF of each point (Vec3) the field acts on; `height` not zero.
  ConicalPenalty(std::vector<Index> points, std::array<double, 3> center,
                 std::array<double, 3> height, double angle_degrees, double stiffness,
                 double damping);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;

 private:
  /// The depth d and the unit direction u of the push on the point at `first`; false when the
  /// point is inside the cone (or where the direction is undefined).
  bool Push(const State& state, Index first, double& d, std::array<double, 3>& u,
            bool& beyond_cap) const;

  std::vector<Index> points_;
  std::array<double, 3> center_, height_;
  double angle_, stiffness_, damping_;
};

}  // namespace fluxion::internal
