// SOFA's LineProjectiveConstraint (components/line_projective_constraint.cpp).
#include <gmock/gmock.h>

#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

// A few operations per step on numbers ≤ 10, with P = ddᵀ exact to an ulp: 1e-13.
constexpr double kRoundOff = 1e-13;

class LineConstraint : public testing::QuietTest {};

// Line through o = (0, 1, 0) along d = (1, −1, 0)/√2. The point given at (2, 2, 1) is first put
// on the line: o + d·(d·(x − o)) = (1/2, 1/2, 0). Under g = (0, −10, 0), m = 1, it accelerates
// with a = d(d·g) = (5, −5, 0); symplectic Euler, 10 steps of 0.1: x = x₀ + 0.55·a.
TEST_F(LineConstraint, PointSlidesAlongTheLineUnderGravity) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="2 2 1"/>
  <UniformMass vertexMass="1"/>
  <LineProjectiveConstraint indices="0" origin="0 1 0" direction="1 -1 0"/>
</Node>)");
  EXPECT_NEAR(simulation.position(0)[0], 0.5, kRoundOff);
  EXPECT_NEAR(simulation.position(0)[1], 0.5, kRoundOff);
  EXPECT_NEAR(simulation.position(0)[2], 0.0, kRoundOff);
  simulation.Run(10);
  EXPECT_NEAR(simulation.position(0)[0], 0.5 + 0.55 * 5, kRoundOff);
  EXPECT_NEAR(simulation.position(0)[1], 0.5 - 0.55 * 5, kRoundOff);
  EXPECT_NEAR(simulation.position(0)[2], 0.0, kRoundOff);
  EXPECT_NEAR(simulation.velocity(0)[0], 5.0, kRoundOff);
  EXPECT_NEAR(simulation.velocity(0)[1], -5.0, kRoundOff);
}

// One implicit Euler step by hand, where the projected matrix matters. Point 0 fixed at (0, 1, 0);
// point 1 at (1, 1, 0) on the line along d = (1, 1, 0)/√2 through the origin; a spring k = 100,
// rest length 1/2 between them; m = 1, no gravity, h = 0.1.
//   f₁ = −k(l − L₀)u = (−50, 0, 0) with u = (1, 0, 0), l = 1.
//   K₁₁ = k[(1 − L₀/l)I + (L₀/l)uuᵀ] = diag(100, 50, 50);  A₁ = I + h²K₁₁ = diag(2, 1.5, 1.5).
//   Projected: P·A₁·P + (I − P) = (dᵀA₁d)·ddᵀ + (I − ddᵀ) with dᵀA₁d = 1.75;  b = h·P·f₁ =
//   (−2.5, −2.5, 0). So Δv = b/1.75 = −(10/7)(1, 1, 0), x₁ = x₀ + h·Δv = (6/7, 6/7, 0).
// Unprojected, A₁ would give Δv = (−1.25, −5/3, 0): off the line.
TEST_F(LineConstraint, ImplicitEulerStepByHand) {
  for (const char* linear :
       {"<SparseLDLSolver/>",
        R"(<CGLinearSolver iterations="50" tolerance="1e-30" threshold="1e-30"/>)"}) {
    Simulation simulation = LoadScene(std::string(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  )") + linear + R"(
  <MechanicalObject position="0 1 0  1 1 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 100 0 0.5"/>
  <LineProjectiveConstraint indices="1" origin="0 0 0" direction="1 1 0"/>
</Node>)");
    simulation.Step();
    const auto x = simulation.position(0);
    const auto v = simulation.velocity(0);
    EXPECT_NEAR(x[3], 6.0 / 7.0, kRoundOff) << linear;
    EXPECT_NEAR(x[4], 6.0 / 7.0, kRoundOff) << linear;
    EXPECT_NEAR(x[5], 0.0, kRoundOff) << linear;
    EXPECT_NEAR(v[3], -10.0 / 7.0, kRoundOff) << linear;
    EXPECT_NEAR(v[4], -10.0 / 7.0, kRoundOff) << linear;
    EXPECT_EQ(x[0], 0.0);
    EXPECT_EQ(x[1], 1.0);
  }
}

// SOFA's DirectionProjectiveConstraint: each point on the line through its own initial position.
// Point 0 starts at (1, 2, 0) on the line along n = (1, 1, 0)/√2; gravity (0, −10, 0) projected
// is a = (g·n)n = (−5, −5, 0); one symplectic Euler step of h = 0.25 from rest: v = (−1.25, −1.25,
// 0), x = (0.6875, 1.6875, 0), still on its line. Point 1 (not listed) falls straight down.
TEST_F(LineConstraint, DirectionProjectiveConstraintKeepsEachPointOnTheLineThroughItsStart) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.25" gravity="0 -10 0">
  <EulerExplicitSolver symplectic="1"/>
  <MechanicalObject position="1 2 0  5 5 5"/>
  <UniformMass vertexMass="1"/>
  <DirectionProjectiveConstraint indices="0" direction="1 1 0"/>
</Node>)");
  simulation.Step();
  const auto x = simulation.position(0);
  const auto v = simulation.velocity(0);
  // Round-off of the normalised direction (1/√2 squared is 0.5 within an ulp).
  EXPECT_NEAR(v[0], -1.25, 1e-15);
  EXPECT_NEAR(v[1], -1.25, 1e-15);
  EXPECT_NEAR(x[0], 0.6875, 1e-15);
  EXPECT_NEAR(x[1], 1.6875, 1e-15);
  EXPECT_EQ(x[2], 0.0);
  EXPECT_EQ(x[3], 5.0);
  EXPECT_EQ(x[4], 5.0 - 0.25 * 2.5);
}

}  // namespace
}  // namespace fluxion
