// scene-runner --solver NAME --param key=value replaces a scene's ODE solver for one run, and
// --solver-outputs writes the solvers' outputs as columns. Expected numbers come from the
// hand-computed sanity values of sofa-notes §2.1 (independent of Fluxion's code).
#include <gmock/gmock.h>

#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

// SOFA's solver-test scene (sofa-notes §2.1) with an explicit solver and no linear solver.
std::string SpringScene(const std::string& k, const std::string& m, const std::string& dt) {
  return R"(<Node name="root" gravity="0 -10 0" dt=")" + dt + R"(">
  <EulerExplicitSolver/>
  <Node name="FixedPointNode">
    <MechanicalObject name="fixedPoint" position="0 2 0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="MassNode">
    <MechanicalObject name="massDof" position="0 1 0"/>
    <UniformMass totalMass=")" +
         m + R"("/>
  </Node>
  <SpringForceField spring="0 0 )" +
         k + R"( 0 1" object1="@FixedPointNode/fixedPoint" object2="@MassNode/massDof"/>
</Node>)";
}

// Column of massDof's y position in the CSV above: step,time, fixed point p(3) v(3), then p0.x,
// p0.y.
constexpr std::size_t kMassY = 2 + 6 + 1;
// The sanity values are printed with 10 significant digits.
constexpr double kSanityTolerance = 1e-9;

TEST(SolverOverride, RungeKutta4ReplacesTheSceneSolver) {
  ScratchFolder scratch;
  const auto result =
      RunSceneRunner(ShellQuote(scratch.Write("s.scn", SpringScene("1000", "10", "0.1"))) +
                     " --steps 1 -q --solver RungeKutta4Solver");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NEAR(ParseDouble(Fields(Lines(result.out).at(2)).at(kMassY)), 0.9541666667,
              kSanityTolerance);
}

TEST(SolverOverride, ImplicitSolverGetsADirectLinearSolverWhenTheSceneHasNone) {
  ScratchFolder scratch;
  const auto result =
      RunSceneRunner(ShellQuote(scratch.Write("s.scn", SpringScene("100", "10", "0.1"))) +
                     " --steps 1 -q --solver EulerImplicitSolver --param rayleighMass=0.1"
                     " --param rayleighStiffness=0.1");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NEAR(ParseDouble(Fields(Lines(result.out).at(2)).at(kMassY)), 0.9173553719,
              kSanityTolerance);
}

TEST(SolverOverride, BadParametersAreInvalidInput) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("s.scn", SpringScene("100", "10", "0.1")));
  const auto unknown =
      RunSceneRunner(scene + " --solver EulerImplicitSolver --param rayleighMas=0.1");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_THAT(unknown.err, ::testing::HasSubstr("did you mean 'rayleighMass'"));
  const auto negative =
      RunSceneRunner(scene + " --solver EulerImplicitSolver --param rayleighMass=-1");
  EXPECT_EQ(negative.status, 2);
  EXPECT_EQ(RunSceneRunner(scene + " --solver EulerImplicitSolver --param rayleighMass").status, 2);
  EXPECT_EQ(RunSceneRunner(scene + " --param rayleighMass=1").status, 2);  // --param needs --solver
  const auto typo = RunSceneRunner(scene + " --solver RungeKutta4Solvr");
  EXPECT_EQ(typo.status, 2);
  EXPECT_THAT(typo.err, ::testing::HasSubstr("did you mean 'RungeKutta4Solver'"));
  // A name of no known plugin is a command-line error (exit 2), not a plugin problem: the
  // message lists the solvers there are (command_line_test.cpp checks its text).
  EXPECT_EQ(RunSceneRunner(scene + " --solver NoSuchIntegratorAtAllSolver").status, 2);
}

// VariationalSymplecticSolver's Hamiltonian on undamped linear springs with gravity stays at its
// initial value U_0 = −m·g·y_0 = 10 J (SOFA's test: |H − m·g·z0| ≤ 8e-15; we allow 1e-12 relative
// for our different summation order).
TEST(SolverOutputs, HamiltonianColumnOfVariationalSymplectic) {
  ScratchFolder scratch;
  const auto result =
      RunSceneRunner(ShellQuote(scratch.Write("s.scn", SpringScene("100", "1", "0.01"))) +
                     " --steps 50 -q --solver VariationalSymplecticSolver --param newtonError=1e-12"
                     " --solver-outputs");
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> lines = Lines(result.out);
  EXPECT_THAT(lines.at(0), ::testing::EndsWith(",root/VariationalSymplecticSolver/hamiltonian"));
  for (std::size_t row = 2; row < lines.size(); ++row)
    EXPECT_NEAR(ParseDouble(Fields(lines[row]).back()), 10.0, 1e-11) << "row " << row;
}

}  // namespace
}  // namespace fluxion::testing
