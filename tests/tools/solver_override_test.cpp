// scene-runner --solver NAME --param key=value replaces a scene's ODE solver for one run, and
// --solver-outputs writes the solvers' outputs as columns. Expected numbers come from the
// hand-computed sanity values of sofa-notes §2.1 (independent of Fluxion's code).
#include <gmock/gmock.h>

#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

// SOFA's solver-test scene (sofa-notes §2.1) with the ODE solver element `solver` (line 2) and
// no linear solver.
std::string SpringSceneWith(const std::string& solver, const std::string& k, const std::string& m,
                            const std::string& dt) {
  return R"(<Node name="root" gravity="0 -10 0" dt=")" + dt + R"(">
  )" + solver +
         R"(
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

// The same with an explicit solver.
std::string SpringScene(const std::string& k, const std::string& m, const std::string& dt) {
  return SpringSceneWith("<EulerExplicitSolver/>", k, m, dt);
}

// The scene's implicit solver with Rayleigh damping, as sofa-notes §2.1's sanity case has it.
constexpr const char* kRayleighSolver =
    R"(<EulerImplicitSolver rayleighMass="0.1" rayleighStiffness="0.1"/>)";

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

// #27 item 2: --solver naming the scene's own solver keeps its parameters: one step gives the
// sanity value of rM = rK = 0.1 (the test above, where --param gives them), not the undamped one.
TEST(SolverOverride, KeepsTheSceneParametersTheNewSolverDeclares) {
  ScratchFolder scratch;
  const std::string scene =
      ShellQuote(scratch.Write("s.scn", SpringSceneWith(kRayleighSolver, "100", "10", "0.1")));
  const auto same = RunSceneRunner(scene + " --steps 1 --solver EulerImplicitSolver");
  ASSERT_EQ(same.status, 0) << same.err;
  EXPECT_NEAR(ParseDouble(Fields(Lines(same.out).at(2)).at(kMassY)), 0.9173553719,
              kSanityTolerance);
  EXPECT_EQ(same.err, "");  // nothing dropped, nothing said
  // --param replaces a kept parameter (the scene's rayleighMass=5 gives way to 0.1).
  const std::string heavy = ShellQuote(scratch.Write(
      "heavy.scn",
      SpringSceneWith(R"(<EulerImplicitSolver rayleighMass="5" rayleighStiffness="0.1"/>)", "100",
                      "10", "0.1")));
  const auto given =
      RunSceneRunner(heavy + " --steps 1 -q --solver EulerImplicitSolver --param rayleighMass=0.1");
  ASSERT_EQ(given.status, 0) << given.err;
  EXPECT_NEAR(ParseDouble(Fields(Lines(given.out).at(2)).at(kMassY)), 0.9173553719,
              kSanityTolerance);
}

// #27 item 2: the parameters the new solver does not have are named, in one line at the solver's
// line; the run is RK4's (sanity value of the first test).
TEST(SolverOverride, SaysInOneLineWhichSceneParametersWereDropped) {
  ScratchFolder scratch;
  const auto result = RunSceneRunner(
      ShellQuote(scratch.Write("s.scn", SpringSceneWith(kRayleighSolver, "1000", "10", "0.1"))) +
      " --steps 1 --solver RungeKutta4Solver");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NEAR(ParseDouble(Fields(Lines(result.out).at(2)).at(kMassY)), 0.9541666667,
              kSanityTolerance);
  EXPECT_THAT(Lines(result.err),
              ::testing::ElementsAre(::testing::EndsWith(
                  "s.scn:2: --solver RungeKutta4Solver drops EulerImplicitSolver's "
                  "rayleighMass=\"0.1\" and rayleighStiffness=\"0.1\" (RungeKutta4Solver has "
                  "no such parameter)")));
}

// #27 item 2, the trial's failure: a stiff cloth with SOFA's explicit dashpots (β = kd/ks =
// 7e-3 s on every spring) is kept bounded by its rayleighStiffness = 0.01 > β − dt
// (failure_advice_test.cpp); --solver EulerImplicitSolver used to drop it and fail at step 10.
TEST(SolverOverride, StiffDampedClothKeepsItsRayleighStiffness) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(
      scratch.Write("cloth.scn", HangingCloth(R"(<EulerImplicitSolver rayleighStiffness="0.01"/>)",
                                              8, "0.001", "100000", "700")));
  const auto scene_solver = RunSceneRunner(scene + " --steps 100 -q -o /dev/null");
  ASSERT_EQ(scene_solver.status, 0) << scene_solver.err;
  const auto replaced =
      RunSceneRunner(scene + " --steps 100 -q -o /dev/null --solver EulerImplicitSolver");
  EXPECT_EQ(replaced.status, 0) << replaced.err;
}

// #27 item 1: the stability check rebuilds the replacement with the replacement's parameters.
// The scene's EulerImplicitSolver has rayleighStiffness and rayleighMass, which RK4 lacks: the
// check used to fail rebuilding RK4 with them ("no stability check", at info level) and the run
// diverged unannounced. Undamped spring, one free point: ω_max = √(k/m) = √(1000/10) = 10 rad/s,
// Φ = ω_max·dt = 5, beyond RK4's limit 2√2 ≈ 2.83 on an undamped mode.
TEST(SolverOverride, StabilityCheckUsesTheReplacementsParameters) {
  ScratchFolder scratch;
  const auto result = RunSceneRunner(
      ShellQuote(scratch.Write("s.scn", SpringSceneWith(kRayleighSolver, "1000", "10", "0.5"))) +
      " --steps 20 -o /dev/null --solver RungeKutta4Solver --log-level info");
  EXPECT_THAT(result.err, ::testing::Not(::testing::HasSubstr("no stability check")));
  EXPECT_THAT(result.err,
              ::testing::HasSubstr("RungeKutta4Solver in node 'root': dt = 0.5 is too large for "
                                   "this scene: ω_max·dt = 5 > 2.8"));
  EXPECT_THAT(result.err, ::testing::HasSubstr("ω_max ≈ 10 rad/s"));
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
