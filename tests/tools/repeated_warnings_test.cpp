// Per-step warnings (issue 27, item 5): a CGLinearSolver that misses its tolerance at every step
// printed one line per step, with no FILE:LINE and with accumulated times (t =
// 0.060000000000000005). Now the first is reported with the solver's line, the step and t₀ + n·h,
// and the end of the run adds one line: how many more, the last, and the worst. The worst is
// checked against CGLinearSolver's own account of every solve (its debug line, one per step:
// EulerImplicitSolver solves once per step), not against the summary's code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A 4 × 4 cloth held at two corners, stiff enough that 3 CG iterations never reach 1e-30.
constexpr const char* kCloth = R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="3" tolerance="1e-30" threshold="1e-30"/>
  <Node name="cloth">
    <RegularGridTopology n="4 1 4" min="0 0 0" max="1 0 1"/>
    <MechanicalObject template="Vec3d"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 3"/>
    <MeshSpringForceField linesStiffness="1000" linesDamping="0.5"/>
  </Node>
</Node>
)";

std::vector<std::string> LinesStartingWith(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : Lines(text))
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  return found;
}

TEST(RepeatedWarnings, ANotConvergedSolveIsReportedOnceThenSummarised) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("cloth.scn", kCloth);
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 100 -o /dev/null --log-level debug");
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> warnings = LinesStartingWith(result.err, "warning: ");
  ASSERT_EQ(warnings.size(), 2u) << result.err;

  // CG's own line per solve, in step order: the residual each step ended on.
  const std::regex solve_line(R"(CGLinearSolver: \d+ iterations, ended on [^,]+, ‖r‖/‖b‖ = (\S+))");
  std::vector<double> residuals;
  for (const std::string& line : Lines(result.err)) {
    std::smatch match;
    if (std::regex_search(line, match, solve_line)) residuals.push_back(std::stod(match[1]));
  }
  ASSERT_EQ(residuals.size(), 100u) << "one solve per step";
  std::size_t first = 0, worst = 0, unconverged = 0;
  for (std::size_t k = 0; k < residuals.size(); ++k) {
    if (!(residuals[k] > 1e-30)) continue;
    if (unconverged++ == 0) first = k;
    if (residuals[k] > residuals[worst] || unconverged == 1) worst = k;
  }
  ASSERT_GE(unconverged, 50u);
  const auto when = [](std::size_t k) {  // step k + 1 reaches t = (k + 1)·0.01, as decimals
    const std::size_t step = k + 1;
    const std::string t = step % 100 == 0 ? std::to_string(step / 100)
                          : step % 10 == 0
                              ? "0." + std::to_string(step / 10 % 10)
                              : "0." + std::to_string(step / 10 % 10) + std::to_string(step % 10);
    return "step " + std::to_string(step) + " (t = " + t + ")";
  };
  // The first: at the solver's line, with its step and time, saying the rest is summarised.
  const std::string where = "warning: " + scene + ":2: EulerImplicitSolver in node 'root': ";
  EXPECT_THAT(warnings[0], StartsWith(where + when(first) +
                                      ": CGLinearSolver did not converge in 3 iterations"));
  EXPECT_THAT(warnings[0], HasSubstr("summarised at the end of the run"));
  // The summary: the count, the last step (100, t = 1), and the worst.
  EXPECT_THAT(warnings[1], StartsWith(where + std::to_string(unconverged - 1) +
                                      " more times like this (" + std::to_string(unconverged) +
                                      " in all, the last at step 100 (t = 1)); the worst: " +
                                      when(worst) + ": CGLinearSolver did not converge"))
      << "worst residual " << residuals[worst];
  // Times are t₀ + n·h as written: no accumulated round-off anywhere.
  EXPECT_THAT(result.err, ::testing::Not(HasSubstr("0000000")));
}

// The same mechanism for another source: StaticSolver with SOFA's defaults (one Newton iteration
// per step, no NewtonRaphsonSolver) creeps towards a nonlinear chain's equilibrium, so its first
// steps do not converge; the warning and its summary come from the same place, in the same shape.
TEST(RepeatedWarnings, NewtonNotConvergingIsSummarisedTheSameWay) {
  ScratchFolder scratch;
  const std::string scene =
      scratch.Write("chain.scn", R"(<Node name="root" gravity="0 -10 0" dt="0.01">
  <StaticSolver/>
  <SparseLDLSolver/>
  <MechanicalObject template="Vec3d" position="0 0 0  0.1 -1.2 0  -0.1 -1.9 0.05  0.2 -2.9 0"/>
  <DiagonalMass vertexMass="1 1 2 0.5"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 100 0 1  1 2 200 0 0.5  2 3 50 0 0.8"/>
</Node>
)");
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 20 -o /dev/null");
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> warnings = LinesStartingWith(result.err, "warning: ");
  ASSERT_EQ(warnings.size(), 2u) << result.err;
  const std::string where = "warning: " + scene + ":2: StaticSolver in node 'root': ";
  EXPECT_THAT(warnings[0], StartsWith(where + "step 1 (t = 0.01): "));
  EXPECT_THAT(warnings[0], HasSubstr("no convergence after 1 iteration(s)"));
  EXPECT_THAT(warnings[1], StartsWith(where));
  EXPECT_THAT(warnings[1], HasSubstr(" more times like this ("));
  EXPECT_THAT(warnings[1], HasSubstr("; the worst: step "));
}

}  // namespace
}  // namespace fluxion::testing
