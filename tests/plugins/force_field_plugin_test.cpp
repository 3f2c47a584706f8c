// The force-field plugin API (fluxion/force_field.h, PluginRegistrar::AddForceField), end to end
// through scene-runner with tests/plugins/test_plugins/force_field_plugin.cpp dropped in with
// --plugin-dir: the plugin's force, stiffness and potential reach the solver and the output; the
// context it receives (layout, masses, initial positions) is right; its ConfigError becomes a
// located scene error; a field writing outside its object is refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

using ::testing::HasSubstr;

std::string PluginFolder() {
  const char* env = std::getenv("FLUXION_TEST_PLUGINS_ROOT");
  const std::string root = env != nullptr && *env != '\0' ? env : FLUXION_TEST_PLUGINS_ROOT;
  return root + "/force_field";
}

std::string WithPlugin() { return " --plugin-dir " + ShellQuote(PluginFolder()); }

// Two free 1-D points of masses 1 and 4 at 0 and 10, moving at 1 and −2 m/s, tethered to where
// they start with c = 4 (so each has ω = 2 rad/s and k_i = 4·m_i), integrated by SOFA's implicit
// Euler with a direct solver; `tether` is the force field's element (line 5).
std::string TetherScene(const std::string& tether) {
  return R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <SparseLDLSolver/>
  <MechanicalObject name="dofs" template="Vec1d" position="0 10" velocity="1 -2"/>
  )" + tether +
         R"(
  <DiagonalMass vertexMass="1 4"/>
</Node>
)";
}

TEST(ForceFieldPlugin, ForceStiffnessAndEnergyReachTheSolverAndTheOutput) {
  ScratchFolder scratch;
  const std::string scene =
      scratch.Write("tether.scn", TetherScene(R"(<TestTetherForceField c="4"/>)"));
  const CommandResult run =
      RunSceneRunner(ShellQuote(scene) + " -q --steps 6 --energy" + WithPlugin());
  ASSERT_EQ(run.status, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_EQ(lines[0],
            "step,time,root/dofs/p0.x,root/dofs/p1.x,root/dofs/v0.x,root/dofs/v1.x,"
            "kinetic,potential,total");

  // SOFA's implicit Euler on one DOF with f = −k(x − p), K = −∂f/∂x = k, k = c·m:
  //   (m + h²k)·Δv = h·(f − h·k·v)  ⇒  v ← v + h·(−c(x − p) − h·c·v)/(1 + h²c),  x ← x + h·v.
  // Both points follow it with their own p, v0 (the mass cancels: k is proportional to m).
  const double h = 0.1, c = 4.0;
  const double mass[2] = {1.0, 4.0}, anchor[2] = {0.0, 10.0};
  double x[2] = {0.0, 10.0}, v[2] = {1.0, -2.0};
  for (int n = 1; n <= 6; ++n) {
    for (int i = 0; i < 2; ++i) {
      v[i] += h * (-c * (x[i] - anchor[i]) - h * c * v[i]) / (1 + h * h * c);
      x[i] += h * v[i];
    }
    const std::vector<std::string> row = Fields(lines[static_cast<std::size_t>(n) + 1]);
    ASSERT_EQ(row.size(), 9u);
    for (int i = 0; i < 2; ++i) {
      EXPECT_NEAR(ParseDouble(row[2 + i]), x[i], 1e-13 * 10) << "step " << n << " point " << i;
      EXPECT_NEAR(ParseDouble(row[4 + i]), v[i], 1e-13 * 2) << "step " << n << " point " << i;
    }
    // The plugin's potential ½·c·m·(x − p)², summed over the points.
    double potential = 0.0;
    for (int i = 0; i < 2; ++i)
      potential += 0.5 * c * mass[i] * (x[i] - anchor[i]) * (x[i] - anchor[i]);
    EXPECT_NEAR(ParseDouble(row[7]), potential, 1e-12) << "step " << n;
  }
}

TEST(ForceFieldPlugin, ItsConfigErrorIsALocatedSceneError) {
  ScratchFolder scratch;
  const std::string scene =
      scratch.Write("bad.scn", TetherScene(R"(<TestTetherForceField c="4" point="2"/>)"));
  const CommandResult run = RunSceneRunner(ShellQuote(scene) + " -q --steps 1" + WithPlugin());
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_THAT(run.err, HasSubstr("error: " + scene +
                                 ":5: TestTetherForceField 'point': point 2 is out of range "
                                 "('root/dofs' has 2 points)"));
  EXPECT_EQ(run.out, "");
  EXPECT_FALSE(LooksLikeCrash(run.err)) << run.err;
}

TEST(ForceFieldPlugin, AFieldWritingOutsideItsObjectIsRefused) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("stray.scn", TetherScene("<TestStrayForceField/>"));
  const CommandResult run = RunSceneRunner(ShellQuote(scene) + " -q --steps 1" + WithPlugin());
  EXPECT_EQ(run.status, 3) << run.err;
  EXPECT_THAT(run.err, HasSubstr("fluxion_test_force_field.so"));
  EXPECT_THAT(run.err, HasSubstr("TestStrayForceField lists stiffness entry (2, 2) outside its "
                                 "object's DOFs 0..1"));
  EXPECT_FALSE(LooksLikeCrash(run.err)) << run.err;
}

TEST(ForceFieldPlugin, NeedsAMechanicalObjectInItsNode) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("orphan.scn", R"(<Node name="root" dt="0.1">
  <EulerExplicitSolver/>
  <Node name="empty">
    <TestTetherForceField/>
  </Node>
</Node>
)");
  const CommandResult run = RunSceneRunner(ShellQuote(scene) + " -q --steps 1" + WithPlugin());
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_THAT(run.err, HasSubstr(":4: <TestTetherForceField> needs a MechanicalObject in node "
                                 "'root/empty'"));
}

TEST(ForceFieldPlugin, IsListedWithItsOriginAndFields) {
  const CommandResult run = RunSceneRunner("--list-components TestTetherForceField" + WithPlugin());
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("TestTetherForceField — test plugin: tethers points"));
  EXPECT_THAT(run.out, HasSubstr("kind: force field"));
  EXPECT_THAT(run.out, HasSubstr("fluxion_test_force_field.so"));
  EXPECT_THAT(run.out, HasSubstr("stiffness per unit mass"));
}

}  // namespace
}  // namespace fluxion::testing
