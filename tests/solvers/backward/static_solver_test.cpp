// StaticSolver: the analytic equilibrium of a hanging chain, and SOFA's NewtonRaphsonSolver
// stopping rules counted by hand on a linear spring (where one Newton iteration is exact).
#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "backward_test_scenes.h"
#include "fluxion/log.h"

namespace fluxion {
namespace {

using fluxion::testing::HangingMass;
using fluxion::testing::LoadScene;
using ::testing::HasSubstr;

class StaticSolverTest : public fluxion::testing::QuietTest {};

TEST_F(StaticSolverTest, DeclaresItselfStatic) {
  const ComponentInfo* entry = fluxion::testing::TestHost().FindComponent("StaticSolver");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->traits.order, 0);
  EXPECT_EQ(entry->traits.flags, kImplicitMethod | kNeedsLinearSolver | kStaticMethod);
}

// A chain of three masses m = (1, 2, 0.5) kg below a fixed point on springs of stiffness
// k = (100, 200, 50) N/m and rest lengths L0 = (1, 0.5, 0.8) m, g = 10 m/s². At equilibrium it
// hangs straight down and spring i carries the weight below it, so its extension is
// g·Σ_{j≥i} m_j / k_i = 35/100, 25/200, 5/50 = 0.35, 0.125, 0.1 m: the points sit at
// y = −1.35, −1.975, −2.875. It starts off the vertical (geometric springs: the equation is
// nonlinear), every spring stretched so that K stays positive definite.
TEST_F(StaticSolverTest, HangingChainReachesItsAnalyticEquilibrium) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 -10 0" dt="0.01">
  <StaticSolver/>
  <NewtonRaphsonSolver maxNbIterationsNewton="50" absoluteResidualStoppingThreshold="1e-11"
                       relativeSuccessiveStoppingThreshold="0" relativeInitialStoppingThreshold="0"/>
  <SparseLDLSolver/>
  <MechanicalObject template="Vec3d" position="0 0 0  0.1 -1.2 0  -0.1 -1.9 0.05  0.2 -2.9 0"
                    velocity="0 0 0  0 0 0  0.5 0 0  0 0 0"/>
  <DiagonalMass vertexMass="1 1 2 0.5"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 100 0 1  1 2 200 0 0.5  2 3 50 0 0.8"/>
</Node>)");
  const SolverNode& node = simulation.solver_nodes()[0];
  State state = node.state;
  const StepResult result = node.solver->Step(*node.system, 0.01, state);
  ASSERT_EQ(result.status, StepStatus::kOk) << result.message;
  EXPECT_GT(result.iterations, 2);  // nonlinear: more than the one iteration of a linear problem
  const double expected[4][3] = {{0, 0, 0}, {0, -1.35, 0}, {0, -1.975, 0}, {0, -2.875, 0}};
  // ‖f‖ < 1e-11 N with stiffnesses ≥ 50 N/m: positions within 1e-12 m, plus round-off.
  for (int i = 0; i < 4; ++i)
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(state.x[3 * i + d], expected[i][d], 1e-12) << "point " << i << " axis " << d;
  // Velocities are not touched.
  EXPECT_EQ(state.v[6], 0.5);
  EXPECT_EQ(state.v.cwiseAbs().sum(), 0.5);
  // The solver reports the step's iterations and final residual norm (--solver-outputs).
  ASSERT_EQ(node.solver->OutputNames(),
            (std::vector<std::string>{"newtonIterations", "newtonResidual"}));
  double outputs[2];
  node.solver->ReadOutputs(outputs);
  EXPECT_EQ(outputs[0], result.iterations);
  EXPECT_LT(outputs[1], 1e-11);
}

// With SOFA's defaults (no NewtonRaphsonSolver: one iteration per step), the same nonlinear chain
// creeps to the same equilibrium over the steps.
TEST_F(StaticSolverTest, DefaultsCreepToTheEquilibriumOverSteps) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 -10 0" dt="0.01">
  <StaticSolver/>
  <SparseLDLSolver/>
  <MechanicalObject template="Vec3d" position="0 0 0  0.1 -1.2 0  -0.1 -1.9 0.05  0.2 -2.9 0"/>
  <DiagonalMass vertexMass="1 1 2 0.5"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 100 0 1  1 2 200 0 0.5  2 3 50 0 0.8"/>
</Node>)");
  // The first step that has not converged yet is reported; the later ones are counted and
  // summarised in one more warning when the run ends.
  const int before = WarningCount();
  for (int n = 0; n < 20; ++n) simulation.Step();
  EXPECT_EQ(WarningCount() - before, 1);
  simulation.Finish();
  const int warnings = WarningCount() - before;
  EXPECT_EQ(warnings, 2);
  ExpectWarnings(warnings);
  // Converged by the default absolute rule, ‖f‖ < 1e-5 N: positions within ~1e-7 m.
  EXPECT_NEAR(simulation.position(0)[4], -1.35, 1e-6);
  EXPECT_NEAR(simulation.position(0)[7], -1.975, 1e-6);
  EXPECT_NEAR(simulation.position(0)[10], -2.875, 1e-6);
  EXPECT_NEAR(simulation.position(0)[9], 0.0, 1e-6);
}

// --- NewtonRaphsonSolver's stopping rules, counted by hand --------------------------------------

// One StaticSolver step on the hanging mass from y0, with the NewtonRaphsonSolver `attributes`:
// the number of Newton iterations and how the step ended.
StepResult OneStep(double y0, const std::string& attributes, double* y = nullptr) {
  Simulation simulation = LoadScene(
      HangingMass("<StaticSolver/>\n  <NewtonRaphsonSolver " + attributes + "/>", y0, 0.25));
  const SolverNode& node = simulation.solver_nodes()[0];
  State state = node.state;
  StepResult result = node.solver->Step(*node.system, 0.01, state);
  if (y != nullptr) *y = state.x[1];
  EXPECT_EQ(state.v[1], 0.25);  // never touched
  return result;
}

// At the equilibrium the initial residual is 0 ≤ the absolute threshold: no iteration at all.
TEST_F(StaticSolverTest, StartsAtEquilibriumWithoutIterating) {
  double y = 0;
  const StepResult result = OneStep(-1.5, "", &y);
  EXPECT_EQ(result.status, StepStatus::kOk);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(y, -1.5);
}

// From y0 = −3: r0 = f(−3) = 60 N, K = 40 N/m, Δ = 1.5 m, y1 = −1.5 and r1 = 0 (all exact in
// binary). The residual rules stop after one iteration: 0 < 1e-5·60 (relative successive).
TEST_F(StaticSolverTest, LinearEquationConvergesInOneIteration) {
  double y = 0;
  const StepResult result = OneStep(-3, "maxNbIterationsNewton=\"10\"", &y);
  EXPECT_EQ(result.status, StepStatus::kOk);
  EXPECT_EQ(result.iterations, 1);
  EXPECT_EQ(y, -1.5);
}

// Only the estimate-difference rules on: iteration 1 corrects by ‖Δ1‖ = 1.5, iteration 2 by 0 (its
// line search cannot decrease a zero residual: warning switched off).
//  - absolute, threshold 1: 1.5 ≥ 1 goes on, 0 < 1 stops: 2 iterations;
//  - relative to ‖u‖ before the iteration (u = x = (0, −3): 3): threshold 0.6: 1.5 < 0.6·3 stops
//    after 1; threshold 0.4: 1.5 ≥ 1.2 goes on, then 0 < 0.4·1.5 stops: 2.
TEST_F(StaticSolverTest, EstimateDifferenceRulesCountAsComputedByHand) {
  const std::string residual_rules_off =
      "maxNbIterationsNewton=\"10\" relativeSuccessiveStoppingThreshold=\"0\" "
      "relativeInitialStoppingThreshold=\"0\" absoluteResidualStoppingThreshold=\"0\" "
      "warnWhenLineSearchFails=\"0\" ";
  EXPECT_EQ(
      OneStep(-3, residual_rules_off + "absoluteEstimateDifferenceThreshold=\"1\"").iterations, 2);
  EXPECT_EQ(
      OneStep(-3, residual_rules_off + "relativeEstimateDifferenceThreshold=\"0.6\"").iterations,
      1);
  EXPECT_EQ(
      OneStep(-3, residual_rules_off + "relativeEstimateDifferenceThreshold=\"0.4\"").iterations,
      2);
}

// Every rule off: all maxNbIterationsNewton = 3 iterations run, and the step is reported as not
// converged (its status: Solver::Step logs nothing, a Simulation warns) unless warnWhenDiverge = 0.
TEST_F(StaticSolverTest, MaxIterationsWithoutConvergenceIsReported) {
  const std::string rules_off =
      "maxNbIterationsNewton=\"3\" relativeSuccessiveStoppingThreshold=\"0\" "
      "relativeInitialStoppingThreshold=\"0\" absoluteResidualStoppingThreshold=\"0\" "
      "warnWhenLineSearchFails=\"0\" ";
  StepResult result = OneStep(-3, rules_off);
  EXPECT_EQ(result.status, StepStatus::kNotConverged);
  EXPECT_EQ(result.iterations, 3);
  EXPECT_THAT(result.message, HasSubstr("no convergence after 3 iteration(s)"));
  result = OneStep(-3, rules_off + "warnWhenDiverge=\"0\"");
  EXPECT_EQ(result.status, StepStatus::kOk);
  EXPECT_EQ(result.iterations, 3);
}

// At the equilibrium with the absolute rule off, the first iteration's Newton step is 0 and
// cannot decrease the zero residual: the line search fails (a warning), and with one iteration
// allowed the step is not converged (its status). maxNbIterationsNewton = 0 does no iteration
// at all.
TEST_F(StaticSolverTest, LineSearchFailureAndZeroIterationsWarn) {
  StepResult result = OneStep(-1.5, "absoluteResidualStoppingThreshold=\"0\"");
  EXPECT_EQ(result.status, StepStatus::kNotConverged);
  EXPECT_EQ(result.iterations, 1);
  result = OneStep(-3, "maxNbIterationsNewton=\"0\"");
  EXPECT_EQ(result.status, StepStatus::kNotConverged);
  EXPECT_EQ(result.iterations, 0);
  ExpectWarnings(1);
}

// A NewtonRaphsonSolver in a child node is found (SOFA searches the solver's node and below);
// the removed SOFA attribute newton_iterations is an error.
TEST_F(StaticSolverTest, FindsNewtonBelowAndRejectsRemovedAttributes) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="-10 0 0" dt="0.01">
  <StaticSolver/>
  <SparseLDLSolver/>
  <Node name="body">
    <NewtonRaphsonSolver maxNbIterationsNewton="0"/>
    <MechanicalObject template="Vec1d" position="0 -3"/>
    <DiagonalMass vertexMass="1 2"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 40 0 1"/>
  </Node>
</Node>)");
  simulation.Step();  // no iteration allowed: the mass stays, with a warning
  EXPECT_EQ(simulation.position(0)[1], -3.0);
  ExpectWarnings(1);
  EXPECT_THROW(LoadScene(HangingMass(R"(<StaticSolver newton_iterations="3"/>)", -3)), SceneError);
}

}  // namespace
}  // namespace fluxion
