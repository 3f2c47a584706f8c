// SOFA's PlaneProjectiveConstraint and FixedPlaneProjectiveConstraint
// (components/plane_projective_constraint.cpp, components/fixed_plane_projective_constraint.cpp).
//
// A point of mass 1 on the plane through the origin with normal n = (0, 1, 1)/√2 under
// g = (0, −10, 0) slides with the tangential part of g: a = g − n(n·g) = (0, −5, 5) (the incline's
// g·sin 45° along its line of steepest descent). Symplectic Euler with a constant acceleration:
// v_N = N·h·a (exactly the continuous v(t) = a·t) and x_N = x₀ + h²·a·N(N+1)/2. A point given off
// the plane is first put on it: x₀ ← x₀ − n(n·x₀).
#include <gmock/gmock.h>

#include <cmath>

#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

// P = I − nnᵀ from a normalised n: entries are 1/2 up to an ulp; a handful of operations on
// numbers ≤ 10 per step, 10 steps: 1e-13.
constexpr double kRoundOff = 1e-13;

class PlaneConstraint : public testing::QuietTest {};

Simulation SlidingScene(const std::string& solver) {
  return LoadScene(R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  )" + solver + R"(
  <MechanicalObject position="0 0 0  3 1 0"/>
  <UniformMass vertexMass="1"/>
  <PlaneProjectiveConstraint indices="0 1" origin="0 0 0" normal="0 1 1"/>
</Node>)");
}

TEST_F(PlaneConstraint, PointSlidesWithTheTangentialPartOfGravity) {
  Simulation simulation = SlidingScene("<EulerExplicitSolver/>");
  // Point 1 starts at (3, 1, 0): n·x = 1/√2, so it is put at (3, 1/2, −1/2).
  EXPECT_NEAR(simulation.position(0)[4], 0.5, kRoundOff);
  EXPECT_NEAR(simulation.position(0)[5], -0.5, kRoundOff);
  constexpr int kSteps = 10;
  simulation.Run(kSteps);
  const double h = 0.1, travel = h * h * kSteps * (kSteps + 1) / 2.0;  // 0.55
  const auto x = simulation.position(0);
  const auto v = simulation.velocity(0);
  const double expected_x[] = {0, -5 * travel, 5 * travel, 3, 0.5 - 5 * travel, -0.5 + 5 * travel};
  const double expected_v[] = {0, -5 * h * kSteps, 5 * h * kSteps,
                               0, -5 * h * kSteps, 5 * h * kSteps};
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(x[i], expected_x[i], kRoundOff) << i;
    EXPECT_NEAR(v[i], expected_v[i], kRoundOff) << i;
  }
}

// Implicit Euler with no stiffness: (P·M·P + I − P)·Δv = h·P·f gives Δv = h·a, x₁ = h²·a: the same
// first step as symplectic Euler, through the projected matrix.
TEST_F(PlaneConstraint, ImplicitEulerStepMatchesTheTangentialAcceleration) {
  Simulation simulation =
      SlidingScene(R"(<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <SparseLDLSolver/>)");
  simulation.Step();
  const auto x = simulation.position(0);
  EXPECT_NEAR(x[0], 0.0, kRoundOff);
  EXPECT_NEAR(x[1], -0.05, kRoundOff);
  EXPECT_NEAR(x[2], 0.05, kRoundOff);
  EXPECT_NEAR(simulation.velocity(0)[1], -0.5, kRoundOff);
  EXPECT_NEAR(simulation.velocity(0)[2], 0.5, kRoundOff);
}

// FixedPlaneProjectiveConstraint direction (0, 0, 1), dmin = −1, dmax = 1: the points with
// −1 < z < 1 (0 and 1) lose their z motion; point 2 (z = 2) falls. Under g = (0, 0, −10) and a
// force (1, 0, 0), m = 1, one symplectic Euler step of h = 0.5 moves a point by h²·a = a/4.
TEST_F(PlaneConstraint, FixedPlaneStopsMotionAlongTheDirectionOfSelectedPoints) {
  const auto after_one_step = [](const std::string& constraint) {
    Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 -10">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0.5  2 0 2"/>
  <UniformMass vertexMass="1"/>
  <ConstantForceField force="1 0 0"/>
  )" + constraint + "\n</Node>");
    simulation.Step();
    const auto x = simulation.position(0);
    return std::vector<double>(x.data(), x.data() + x.size());
  };
  EXPECT_THAT(
      after_one_step(R"(<FixedPlaneProjectiveConstraint direction="0 0 1" dmin="-1" dmax="1"/>)"),
      ::testing::ElementsAre(0.25, 0, 0, 1.25, 0, 0.5, 2.25, 0, -0.5));
  // By index only (dmin = dmax): point 2 slides, the others fall.
  EXPECT_THAT(after_one_step(R"(<FixedPlaneProjectiveConstraint direction="0 0 1" indices="2"/>)"),
              ::testing::ElementsAre(0.25, 0, -2.5, 1.25, 0, -2.0, 2.25, 0, 2));
}

}  // namespace
}  // namespace fluxion
