// SparseLDLSolver (CHOLMOD's supernodal Cholesky, linear/ldl_linear_solver.h) in implicit steps of
// whole scenes: it gives the solution a converged conjugate gradient gives, on cloths small
// (simplicial factor) and large (supernodal factor); and a step whose
// system matrix is not positive definite because the motion is blowing up fails with a message
// that says when, how far the state has grown, and which matrix failed.
#include <gmock/gmock.h>

#include <cstdio>
#include <string>

#include "implicit_test_scenes.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The benchmark's cloth, without Rayleigh damping.
std::string Cloth(int n, double dt, double stiffness, double damping, const std::string& linear) {
  return fluxion::testing::ClothScene(
      {.n = n, .dt = dt, .stiffness = stiffness, .damping = damping, .linear_solver = linear});
}

class DirectSolverScene : public fluxion::testing::QuietTest,
                          public ::testing::WithParamInterface<int> {};

// Both linear solvers solve the same A·Δv = b each step; CG to ‖r‖ ≤ 1e-14·‖b‖ (a warning, which
// fails this test, if it does not get there). The two Δv then differ by at most κ(A)·1e-14·‖Δv‖,
// with κ(A) = κ(M + h²K) ≤ 1 + 8·k_s·h²/m ≈ 1 + 8·(100·n)·(1e-3)²·n² < 200 for these cloths (k_s
// = linesStiffness/L0, m = 1/n²), plus a few ulps of round-off per step in each: far below the
// 1e-8 (absolute, on positions and velocities of order 1) the comparison allows after 20 steps.
TEST_P(DirectSolverScene, MatchesConvergedConjugateGradient) {
  const int n = GetParam();
  constexpr double kDt = 0.001;
  constexpr double kAgreement = 1e-8;
  Simulation direct = fluxion::testing::LoadScene(Cloth(n, kDt, 100, 0.1, "<SparseLDLSolver/>"));
  Simulation iterative = fluxion::testing::LoadScene(
      Cloth(n, kDt, 100, 0.1,
            R"(<CGLinearSolver iterations="100000" tolerance="1e-14" threshold="1e-300"/>)"));
  for (int step = 0; step < 20; ++step) {
    direct.Step();
    iterative.Step();
  }
  const State& a = direct.solver_nodes()[0].state;
  const State& b = iterative.solver_nodes()[0].state;
  ASSERT_EQ(a.x.size(), 3 * n * n);
  EXPECT_LE((a.x - b.x).cwiseAbs().maxCoeff(), kAgreement);
  EXPECT_LE((a.v - b.v).cwiseAbs().maxCoeff(), kAgreement);
  // The cloth is moving (this is not agreement on a state at rest): ~ g·t ≈ 0.2 m/s by now.
  EXPECT_GT(b.v.cwiseAbs().maxCoeff(), 0.1);
}

// 10 × 10: 300 DOFs, a simplicial factor; 60 × 60: 10 800 DOFs, a supernodal one (both AMD;
// METIS from 40 000 unknowns is tested in linear_solvers_test.cpp).
INSTANTIATE_TEST_SUITE_P(Cloths, DirectSolverScene, ::testing::Values(10, 60),
                         [](const ::testing::TestParamInfo<int>& param_info) {
                           return "n" + std::to_string(param_info.param);
                         });

// An undamped implicit cloth with a big step for its springs (k_s·h²/m ≈ 1.4e4 per spring):
// backward Euler's linearised steps overshoot, springs end compressed, and at the sixth step
// M + h²K is no longer positive definite (a compressed spring's geometric stiffness is negative
// across it). The failure names the step and time, the state's size at the failed step's start
// against the initial one, and which matrix failed; what to change depends on the solver and the
// scene's damping, which scene-runner measures (tests/tools/failure_advice_test.cpp).
class DirectSolverFailure : public fluxion::testing::QuietTest {};

TEST_F(DirectSolverFailure, IndefiniteStepReportsStateAndMatrix) {
  constexpr double kDt = 0.045;
  Simulation simulation = fluxion::testing::LoadScene(Cloth(8, kDt, 1000, 0, "<SparseLDLSolver/>"));
  long steps = 0;
  try {
    for (; steps < 200; ++steps) simulation.Step();
    FAIL() << "every step was accepted";
  } catch (const NumericalError& error) {
    const std::string message = error.what();
    EXPECT_EQ(error.step(), steps + 1);
    EXPECT_GT(error.step(), 2);  // not at once: the motion took several steps to get there
    EXPECT_THAT(message, HasSubstr("step " + std::to_string(steps + 1) + " (t = "));
    EXPECT_THAT(message, HasSubstr("not positive definite"));
    // The state's size, from the state itself (Solver::Step restored the step's start).
    const State& state = simulation.solver_nodes()[0].state;
    char expected[96];
    std::snprintf(expected, sizeof expected, "max |x| = %.3g and max |v| = %.3g",
                  state.x.cwiseAbs().maxCoeff(), state.v.cwiseAbs().maxCoeff());
    EXPECT_THAT(message, HasSubstr(expected));
    EXPECT_THAT(message, HasSubstr("(1 and 0 at t = 0)"));  // the cloth spans [0, 1]², at rest
    EXPECT_THAT(message, HasSubstr("the step's matrix m·M + b·B + k·K has lost positive "
                                   "definiteness to compressed springs"));
    EXPECT_THAT(message, Not(HasSubstr("rayleighMass")));  // not every solver has it
  }
}

// Backward Euler damps the motion: its failures above start from a calm state. A symplectic Euler
// spring with ω·h = 10 (stable only for ω·h < 2) really diverges, its amplitude multiplied by
// ~(ω·h)² = 100 each step until it overflows; the failure then says that the motion blew up.
TEST_F(DirectSolverFailure, DivergedStateIsSaidToBlowUp) {
  Simulation simulation = fluxion::testing::LoadScene(R"(<Node name="root" gravity="0 0 0" dt="0.1">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1.1 0 0"/>
  <FixedProjectiveConstraint indices="0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 1 10000 0 1"/>
</Node>)");
  try {
    for (int step = 0; step < 1000; ++step) simulation.Step();
    FAIL() << "every step was accepted";
  } catch (const NumericalError& error) {
    const State& state = simulation.solver_nodes()[0].state;
    EXPECT_GT(state.x.cwiseAbs().maxCoeff(), 1e100) << error.what();
    EXPECT_THAT(error.what(), HasSubstr("(1.1 and 0 at t = 0): the motion is blowing up"));
    EXPECT_THAT(error.what(), Not(HasSubstr("rayleigh")));  // EulerExplicitSolver has none
  }
}

}  // namespace
}  // namespace fluxion
