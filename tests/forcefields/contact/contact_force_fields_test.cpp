// Penalty contact (mechanics/contact_force_fields.cpp): the assembled stiffness K = −∂f/∂x
// against central finite differences of the force at states where the points are in contact
// (v = 0: the damping term c·d·v, whose x-dependence SOFA leaves out of K, vanishes there), the
// force's closed form, and maxForce's clamp.
#include <gtest/gtest.h>

#include <cmath>

#include "forcefields/field_probes.h"
#include "mechanics/contact_force_fields.h"

namespace fluxion::internal {
namespace {

using field_probes::FiniteDifferenceStiffness;
using field_probes::Stiffness;

State TwoPoints(std::initializer_list<double> x) {
  State state;
  state.x = Eigen::Map<const Vector>(x.begin(), static_cast<Index>(x.size()));
  state.v = Vector::Zero(state.x.size());
  return state;
}

TEST(PlanePenalty, ForceAndStiffness) {
  // Plane y = 0.5 with normal (0, 2, 0) (SOFA uses it unnormalised: d = 2y − 0.5).
  const PlanePenalty plane({0, 3}, 3, {0, 2, 0}, 0.5, 100, 5, 0, false);
  const State state = TwoPoints({0.3, 0.1, 0.2, 0, 0.5, 0});  // d = −0.3, and d = 0.5 (free)
  Vector f = Vector::Zero(6);
  plane.AddForce(state, f);
  EXPECT_DOUBLE_EQ(f[1], -100 * (2 * 0.1 - 0.5) * 2);  // −k·d·n_y
  EXPECT_EQ(f[0], 0.0);
  EXPECT_EQ(f[4], 0.0);
  EXPECT_LT((Stiffness(plane, state) - FiniteDifferenceStiffness(plane, state)).norm(), 1e-6);
  EXPECT_DOUBLE_EQ(plane.PotentialEnergy(state), 0.5 * 100 * 0.3 * 0.3);
}

TEST(PlanePenalty, DampingAndMaxForce) {
  // d = −0.1, v = (1, 0, 0): f = −k·d·n + c·d·v = (−0.5, 10, 0); clamped to |f| = 2.
  State state = TwoPoints({0, -0.1, 0});
  state.v[0] = 1;
  const PlanePenalty free_plane({0}, 3, {0, 1, 0}, 0, 100, 5, 0, false);
  Vector f = Vector::Zero(3);
  free_plane.AddForce(state, f);
  EXPECT_DOUBLE_EQ(f[0], -0.5);
  EXPECT_DOUBLE_EQ(f[1], 10.0);
  const PlanePenalty clamped({0}, 3, {0, 1, 0}, 0, 100, 5, 2, false);
  Vector g = Vector::Zero(3);
  clamped.AddForce(state, g);
  EXPECT_NEAR(g.norm(), 2.0, 1e-14);
  EXPECT_NEAR(g[0] / g[1], -0.05, 1e-15);
}

TEST(SpherePenalty, ForceAndExactStiffness) {
  const SpherePenalty sphere({0, 3}, 3, {1, 0, 0}, 2, 300, 0, false);
  const State state = TwoPoints({1.6, 0.8, 0.5, 4, 0, 0});  // inside (‖p‖ ≈ 1.02), outside
  Vector f = Vector::Zero(6);
  sphere.AddForce(state, f);
  const double norm = std::sqrt(0.6 * 0.6 + 0.8 * 0.8 + 0.5 * 0.5);
  EXPECT_NEAR(f[1], -300 * (norm - 2) * 0.8 / norm, 1e-12);
  EXPECT_EQ(f[3], 0.0);
  EXPECT_LT((Stiffness(sphere, state) - FiniteDifferenceStiffness(sphere, state)).norm(), 1e-5);
}

TEST(SpherePenalty, BilateralPullsOutsidePointsOntoTheSphere) {
  const SpherePenalty sphere({0}, 3, {0, 0, 0}, 1, 10, 0, true);
  const State state = TwoPoints({0, 3, 0});
  Vector f = Vector::Zero(3);
  sphere.AddForce(state, f);
  EXPECT_DOUBLE_EQ(f[1], -20.0);  // −k·(3 − 1)
  EXPECT_LT((Stiffness(sphere, state) - FiniteDifferenceStiffness(sphere, state)).norm(), 1e-5);
}

}  // namespace
}  // namespace fluxion::internal
