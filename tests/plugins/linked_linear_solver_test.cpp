// A linear solver's link to another linear solver is typed (FieldSpec::LinkTo with
// ComponentKind::kLinearSolver) and resolved by the scene builder for any linear solver, a
// plugin's as well as the built-in PCGLinearSolver: tests/plugins/test_plugins/
// linked_linear_solver_plugin.cpp's TestDelegatingSolver, dropped in with --plugin-dir, receives
// the SparseLDLSolver its `preconditioner` names (and so reproduces that solver's trajectory bit
// for bit), the refresh interval of its node's PreconditionedMatrixFreeSystem, and a bad link is
// a scene error at the plugin component's line with the built-in PCG's wording.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

using ::testing::HasSubstr;

std::string WithPlugin() {
  const char* env = std::getenv("FLUXION_TEST_PLUGINS_ROOT");
  const std::string root = env != nullptr && *env != '\0' ? env : FLUXION_TEST_PLUGINS_ROOT;
  return " --plugin-dir " + ShellQuote(root + "/linked_linear_solver");
}

// A chain of four points hanging from a fixed one, in 3-D (the springs' tangent changes with the
// configuration, so A = M + h·B + h²·K changes every step), integrated by implicit Euler with
// the linear solvers `solvers` (line 3 on).
std::string ChainScene(const std::string& solvers) {
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  )" + solvers +
         R"(
  <MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0.2 0  3 0 0.3  4 0 0"/>
  <UniformMass totalMass="2"/>
  <FixedProjectiveConstraint indices="0"/>
  <StiffSpringForceField spring="0 1 400 2 1  1 2 400 2 1  2 3 400 2 1  3 4 400 2 1"/>
</Node>
)";
}

TEST(LinkedLinearSolver, APluginSolverReceivesThePreconditionerItsLinkNames) {
  ScratchFolder scratch;
  const std::string direct = scratch.Write("direct.scn", ChainScene("<SparseLDLSolver/>"));
  const std::string linked =
      scratch.Write("linked.scn", ChainScene(R"(<TestDelegatingSolver preconditioner="@ldl"/>
  <SparseLDLSolver name="ldl"/>)"));
  const CommandResult reference = RunSceneRunner(ShellQuote(direct) + " -q --steps 40");
  ASSERT_EQ(reference.status, 0) << reference.err;
  const CommandResult run =
      RunSceneRunner(ShellQuote(linked) + " --steps 40 --log-level info" + WithPlugin());
  ASSERT_EQ(run.status, 0) << run.err;
  // Every solve is the linked SparseLDLSolver's on the same matrix: the same numbers to the bit
  // (and the chain moved: the comparison is not between two resting states).
  EXPECT_EQ(run.out, reference.out);
  const std::vector<std::string> rows = Lines(run.out);
  ASSERT_EQ(rows.size(), 42u);
  EXPECT_NE(Fields(rows.back()).at(5), Fields(rows.at(1)).at(5));  // p1.x after 40 steps
  EXPECT_THAT(run.err, HasSubstr("TestDelegatingSolver: preconditioner SparseLDLSolver "
                                 "refactorised every 1 factorisation(s)"));
}

TEST(LinkedLinearSolver, TheRefreshIntervalIsTheNodesLinearSystemRate) {
  ScratchFolder scratch;
  const std::string scene =
      scratch.Write("rate.scn", ChainScene(R"(<TestDelegatingSolver preconditioner="@ldl"/>
  <PreconditionedMatrixFreeSystem assemblingRate="4"/>
  <SparseLDLSolver name="ldl"/>)"));
  const CommandResult run =
      RunSceneRunner(ShellQuote(scene) + " --steps 2 --log-level info -o /dev/null" + WithPlugin());
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("refactorised every 4 factorisation(s)"));
}

TEST(LinkedLinearSolver, ABadLinkIsASceneErrorAtTheLinkingComponentsLine) {
  ScratchFolder scratch;
  const struct {
    std::string solvers, expected;
  } cases[] = {
      {R"(<TestDelegatingSolver preconditioner="@nothing"/>)",
       "TestDelegatingSolver 'preconditioner' link '@nothing' does not name a component"},
      {R"(<TestDelegatingSolver name="self" preconditioner="@self"/>)",
       "TestDelegatingSolver 'preconditioner' link '@self' names the TestDelegatingSolver itself"},
      {R"(<TestDelegatingSolver preconditioner="@dofs"/>)",
       "names a MechanicalObject, which is not a linear solver"},
      {R"(<TestDelegatingSolver preconditioner="@pcg"/>
  <PCGLinearSolver name="pcg"/>)",
       "names a PCGLinearSolver, which cannot be a preconditioner in Fluxion"},
  };
  for (const auto& c : cases) {
    const std::string scene = scratch.Write("bad.scn", ChainScene(c.solvers));
    const CommandResult run = RunSceneRunner(ShellQuote(scene) + " --steps 1" + WithPlugin());
    EXPECT_EQ(run.status, 2) << c.solvers;
    EXPECT_THAT(run.err, ::testing::StartsWith("error: " + scene +
                                               ":3: TestDelegatingSolver "
                                               "'preconditioner' link "))
        << run.err;
    EXPECT_THAT(run.err, HasSubstr(c.expected)) << run.err;
    EXPECT_EQ(Lines(run.err).size(), 1u) << run.err;
  }
}

}  // namespace
}  // namespace fluxion::testing
