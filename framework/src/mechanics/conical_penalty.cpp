// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/ConicalForceField.inl
//         (addForce, addDForce, buildStiffnessMatrix, isIn).
#include "mechanics/conical_penalty.h"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

namespace fluxion::internal {

namespace {

using ConeVec = Eigen::Vector3d;

ConeVec ConeVector(const std::array<double, 3>& a) { return ConeVec(a[0], a[1], a[2]); }

}  // namespace

ConicalPenalty::ConicalPenalty(std::vector<Index> points, std::array<double, 3> center,
                               std::array<double, 3> height, double angle_degrees, double stiffness,
                               double damping)
    : points_(std::move(points)),
      center_(center),
      height_(height),
      angle_(angle_degrees),
      stiffness_(stiffness),
      damping_(damping) {}

bool ConicalPenalty::Push(const State& state, Index first, double& d, std::array<double, 3>& u,
                          bool& beyond_cap) const {
  const ConeVec p = state.x.segment<3>(first);
  const ConeVec height = ConeVector(height_);
  const ConeVec cp = p - ConeVector(center_);
  const double h = height.norm(), distance = cp.norm();
  // SOFA's isIn: within the cap's distance and the half-angle (a point at the apex, whose angle
  // is NaN, counts as inside).
  if (!(distance > h) &&
      !(std::acos(cp.dot(height) / (h * distance)) * 180 / std::numbers::pi > angle_))
    return false;
  const ConeVec n = height / h;
  ConeVec direction;
  beyond_cap = distance > h;
  if (beyond_cap) {
    d = distance - h;
    direction = cp / distance;
  } else if (cp.dot(n) > 0) {
    // Turn cp towards the axis by its excess angle α, about t = n×cp, and project p on that line.
    const double alpha = std::acos(cp.dot(n) / distance) - angle_ * std::numbers::pi / 180;
    const ConeVec t = n.cross(cp);
    if (t.norm() == 0.0) return false;
    const ConeVec turned = Eigen::AngleAxisd(-alpha, t / t.norm()) * cp;
    const ConeVec generator = turned / turned.norm();
    const ConeVec to_surface = generator * generator.dot(cp) - cp;  // p′ − p
    d = to_surface.norm();
    if (d == 0.0) return false;
    direction = to_surface / d;
  } else {
    d = distance;
    direction = -cp / distance;
  }
  u = {direction[0], direction[1], direction[2]};
  return true;
}

void ConicalPenalty::AddForce(const State& state, Vector& f) const {
  for (const Index first : points_) {
    double d = 0;
    std::array<double, 3> u{};
    bool beyond_cap = false;
    if (!Push(state, first, d, u, beyond_cap)) continue;
    const ConeVec v = state.v.segment<3>(first), direction = ConeVector(u);
    // SOFA's two forms: beyond the cap its damping term is +c·d·v (as SphereForceField's).
    const ConeVec force =
        beyond_cap ? ConeVec(-stiffness_ * d * direction + damping_ * d * v)
                   : ConeVec(stiffness_ * d * direction - damping_ * direction.dot(v) * direction);
    f.segment<3>(first) += force;
  }
}

void ConicalPenalty::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  for (const Index first : points_)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) entries.push_back({first + r, first + c});
}

void ConicalPenalty::AddStiffness(const State& state, const Index* slots, double* values) const {
  std::size_t k = 0;
  for (const Index first : points_) {
    double d = 0;
    std::array<double, 3> u{};
    bool beyond_cap = false;
    const bool pushed = Push(state, first, d, u, beyond_cap);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c, ++k)
        if (pushed) values[slots[k]] += stiffness_ * u[r] * u[c];
  }
}

}  // namespace fluxion::internal
