// scene-runner's advice after a numerical failure (#27 item 3) is measured on the failing solver
// and scene: each test makes a scene fail with one solver, then checks the advice by running the
// scene again with what it says (the remedies it names keep the run bounded, those it says do not
// help fail) and that it names no parameter the solver lacks.
#include <gmock/gmock.h>

#include <regex>

#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kNumericalFailure = 4;  // tools/scene_runner/exit_status.h

// The trial's hanging cloth, stiff: 8 × 8 points, springs of ks = 1e5/L0 with SOFA's dashpots
// kd = 700/L0, so β = kd/ks = 7e-3 s on every spring; dt = 1e-3.
std::string StiffDampedCloth(const std::string& solver, const std::string& spring_extra = "") {
  return HangingCloth(solver, 8, "0.001", "100000", "700", spring_extra);
}

// The one error line of a failed run.
std::string ErrorLine(const CommandResult& result) {
  const std::vector<std::string> errors = ErrorLines(result);
  return errors.empty() ? std::string() : errors.front();
}

// The dt the advice gives ("dt ≤ X (e.g. --dt X)"), or "" when none.
std::string AdvisedDt(const std::string& error) {
  std::smatch match;
  return std::regex_search(error, match, std::regex("e\\.g\\. --dt ([0-9.e+-]+)\\)"))
             ? match[1].str()
             : std::string();
}

// Linearised backward Euler with SOFA's explicit dashpots: on a mode ω with explicit damping c,
// one step's determinant is (1 − h·c)/(1 + h²ω²) (failure_advice.h), so the stiff modes grow
// when β = c/ω² > h whatever h: dt 1e-3 and 1e-4 both fail. Making the dashpots implicit fixes
// it; a smaller dt only below 2/(β·ω²); rayleighStiffness from β − h.
TEST(FailureAdvice, ImplicitEulerWithExplicitDashpots) {
  ScratchFolder scratch;
  const std::string scene =
      ShellQuote(scratch.Write("cloth.scn", StiffDampedCloth("<EulerImplicitSolver/>")));
  const auto failed = RunSceneRunner(scene + " --steps 200 -q -o /dev/null");
  ASSERT_EQ(failed.status, kNumericalFailure) << failed.err;
  const std::string error = ErrorLine(failed);
  EXPECT_THAT(error, HasSubstr("advice for EulerImplicitSolver"));
  EXPECT_THAT(error, HasSubstr("all explicit"));
  EXPECT_THAT(error,
              HasSubstr("exactDampingJacobian=\"1\" on MeshSpringForceField (line 11) (their "
                        "dashpots then enter the implicit solve)"));
  EXPECT_THAT(error, HasSubstr("rayleighStiffness ≥ "));
  EXPECT_THAT(error, Not(HasSubstr("mass damping")));  // the old fixed advice
  // The remedies said to work do: implicit dashpots, and the advised dt (far below 1e-4).
  const std::string implicit_dashpots = ShellQuote(scratch.Write(
      "exact.scn", StiffDampedCloth("<EulerImplicitSolver/>", R"(exactDampingJacobian="1")")));
  EXPECT_EQ(RunSceneRunner(implicit_dashpots + " --steps 200 -q -o /dev/null").status, 0);
  const std::string dt = AdvisedDt(error);
  ASSERT_FALSE(dt.empty()) << error;
  EXPECT_LT(std::stod(dt), 1e-4);
  const auto at_advised_dt = RunSceneRunner(scene + " --steps 200 -q -o /dev/null --dt " + dt);
  EXPECT_EQ(at_advised_dt.status, 0) << at_advised_dt.err;
  // A dt ten times smaller than the scene's does not help (the trial's observation).
  EXPECT_EQ(RunSceneRunner(scene + " --steps 200 -q -o /dev/null --dt 1e-4").status,
            kNumericalFailure);
}

// RK4 on the same cloth: it has no Rayleigh parameters, so the advice names none; the damping is
// heavy (ζ ≫ 1 on the stiffest mode), where more damping lowers an explicit method's limit.
TEST(FailureAdvice, RungeKutta4IsAdvisedOnlyWhatItHas) {
  ScratchFolder scratch;
  const std::string scene =
      ShellQuote(scratch.Write("cloth.scn", StiffDampedCloth("<RungeKutta4Solver/>")));
  const auto failed = RunSceneRunner(scene + " --steps 200 -q -o /dev/null");
  ASSERT_EQ(failed.status, kNumericalFailure) << failed.err;
  const std::string error = ErrorLine(failed);
  EXPECT_THAT(error, HasSubstr("advice for RungeKutta4Solver"));
  EXPECT_THAT(error, Not(HasSubstr("rayleigh")));
  EXPECT_THAT(error, Not(HasSubstr("exactDampingJacobian")));  // RK4 treats all damping alike
  EXPECT_THAT(error, HasSubstr("more damping makes it worse"));
  const std::string dt = AdvisedDt(error);
  ASSERT_FALSE(dt.empty()) << error;
  const auto at_advised_dt = RunSceneRunner(scene + " --steps 200 -q -o /dev/null --dt " + dt);
  EXPECT_EQ(at_advised_dt.status, 0) << at_advised_dt.err;
}

// The gallery's cloth on a sphere with --solver RungeKutta4Solver (the trial's run): it diverges
// at step 75; the stability check warned before (item 1), and the failure's advice is RK4's own.
TEST(FailureAdvice, ClothOnSphereWithRungeKutta4) {
  const std::string scene =
      ShellQuote(std::string(FLUXION_TEST_SOURCE_DIR) + "/scenes/cloth_on_sphere.scn");
  const auto failed =
      RunSceneRunner(scene + " --steps 100 -o /dev/null --solver RungeKutta4Solver");
  ASSERT_EQ(failed.status, kNumericalFailure) << failed.err;
  EXPECT_THAT(failed.err, HasSubstr("is too large for this scene"));
  const std::string error = ErrorLine(failed);
  EXPECT_THAT(error, HasSubstr("advice for RungeKutta4Solver"));
  EXPECT_THAT(error, Not(HasSubstr("rayleigh")));
  const std::string dt = AdvisedDt(error);
  ASSERT_FALSE(dt.empty()) << error;
  EXPECT_EQ(
      RunSceneRunner(scene + " --steps 100 -q -o /dev/null --solver RungeKutta4Solver --dt " + dt)
          .status,
      0);
}

// An undamped cloth at a large dt under backward Euler: the stiffest mode is bounded (the method
// is A-stable), the matrix loses positive definiteness to compressed springs, whose negative
// stiffness enters as dt²: a smaller dt, and rayleighMass, which EulerImplicitSolver has.
TEST(FailureAdvice, ImplicitEulerWithCompressedSprings) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(
      scratch.Write("cloth.scn", HangingCloth("<EulerImplicitSolver/>", 16, "0.5", "100", "0")));
  const auto failed = RunSceneRunner(scene + " --steps 100 -q -o /dev/null");
  ASSERT_EQ(failed.status, kNumericalFailure) << failed.err;
  const std::string error = ErrorLine(failed);
  EXPECT_THAT(error, HasSubstr("not positive definite"));
  EXPECT_THAT(error, HasSubstr("it is stable at this dt, so a step's matrix that lost positive "
                               "definiteness lost it to compressed springs"));
  EXPECT_THAT(error, HasSubstr("or rayleighMass"));
}

}  // namespace
}  // namespace fluxion::testing
