// scene-runner's command line as a new user meets it (issue 15): errors in the voice of the scene
// errors ("error: what is wrong (what was expected)") with readable ranges and "did you mean" for
// options and solvers, --list-solvers, and a summary instead of rows on a terminal.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// One point of 1 kg falling from the origin under g = 8 m/s² with symplectic Euler (SOFA's
// EulerExplicitSolver default) and h = 0.5 s: v_n = −n·g·h, x_n = x_{n−1} + h·v_n, so after three
// steps v = −12, y = −(1 + 2 + 3)·g·h² = −12 and t = 1.5, every number exact in binary.
constexpr const char* kFallingPoint = R"(<Node name="root" dt="0.5" gravity="0 -8 0">
  <EulerExplicitSolver/>
  <Node name="ball">
    <MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass totalMass="1"/>
  </Node>
</Node>
)";

// The one error line of a run that must fail with `status` and print nothing on stdout.
std::string OneErrorLine(const std::string& arguments, int status) {
  const CommandResult result = RunSceneRunner(arguments);
  EXPECT_EQ(result.status, status) << arguments << ": " << result.err;
  EXPECT_EQ(result.out, "") << arguments;
  EXPECT_FALSE(LooksLikeCrash(result.err)) << result.err;
  const std::vector<std::string> lines = Lines(result.err);
  EXPECT_EQ(lines.size(), 1u) << arguments << ": " << result.err;
  return lines.empty() ? std::string() : lines.front();
}

TEST(CommandLine, OutOfRangeNumbersNameTheOptionAndARange) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kFallingPoint));
  EXPECT_EQ(OneErrorLine(scene + " --steps -1", 2),
            "error: --steps: '-1' is out of range (expected a whole number from 0 to 2^62)");
  EXPECT_EQ(OneErrorLine(scene + " --every 0", 2),
            "error: --every: '0' is out of range (expected a whole number from 1 to 2^62)");
  EXPECT_EQ(OneErrorLine(scene + " --dt 0", 2),
            "error: --dt: '0' is out of range (expected a number > 0)");
  EXPECT_EQ(OneErrorLine(scene + " --end-time nan", 2),
            "error: --end-time: 'nan' is not a finite number (expected a finite number >= 0)");
  EXPECT_EQ(OneErrorLine(scene + " --steps", 2),
            "error: --steps: a value is missing (expected INTEGER from 0 to 2^62)");
  EXPECT_EQ(OneErrorLine(scene + " --steps 3 --end-time 1", 2),
            "error: --steps and --end-time were both given (expected one of them)");
}

TEST(CommandLine, MistypedOptionsGetTheClosestOption) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kFallingPoint));
  EXPECT_EQ(OneErrorLine(scene + " --stpes 10", 2),
            "error: unknown option '--stpes' (did you mean '--steps'? see scene-runner --help)");
  EXPECT_EQ(OneErrorLine("--stpes=10 " + scene, 2),
            "error: unknown option '--stpes' (did you mean '--steps'? see scene-runner --help)");
  EXPECT_EQ(OneErrorLine(scene + " --ouput x.csv", 2),
            "error: unknown option '--ouput' (did you mean '--output'? see scene-runner --help)");
  EXPECT_EQ(OneErrorLine(scene + " --teapot", 2),
            "error: unknown option '--teapot' (expected one of the options of scene-runner "
            "--help)");
  EXPECT_EQ(OneErrorLine(scene + " " + scene, 2),
            "error: unexpected argument '" + scratch / "scene.scn" +
                "' (expected one scene file; options begin with --, see scene-runner --help)");
}

TEST(CommandLine, UnknownSolverIsACommandLineErrorListingTheSolvers) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kFallingPoint));
  const std::string line = OneErrorLine(scene + " --solver RungeKutta4", 2);
  EXPECT_THAT(line, StartsWith("error: --solver RungeKutta4: no ODE solver of that name (did you "
                               "mean 'RungeKutta4Solver'? known solvers: "));
  EXPECT_THAT(line, HasSubstr("; see scene-runner --list-solvers)"));
  EXPECT_THAT(line, Not(HasSubstr("scene.scn")));  // not blamed on a line of the scene
  // Every solver of the test host (the bundled plugins) is listed.
  for (const ComponentInfo* entry : TestHost().components()) {
    if (entry->spec.kind == ComponentKind::kOdeSolver) {
      EXPECT_THAT(line, HasSubstr(entry->spec.name)) << line;
    }
  }

  EXPECT_THAT(OneErrorLine(scene + " --solver RungeKutta4Solvr", 2),
              HasSubstr("(did you mean 'RungeKutta4Solver'? known solvers: "));
  // Far from every name: no suggestion, the list only.
  const std::string far = OneErrorLine(scene + " --solver NoSuchIntegratorAtAllSolver", 2);
  EXPECT_THAT(far, StartsWith("error: --solver NoSuchIntegratorAtAllSolver: no ODE solver of "
                              "that name (known solvers: "));
  EXPECT_THAT(OneErrorLine(scene + " --solver SparseLDLSolver", 2),
              StartsWith("error: --solver SparseLDLSolver: is a linear solver, not an ODE solver "
                         "(expected one; known solvers: "));
}

// scene-runner and libfluxion copied without the bundled plugin folder: the RPATH $ORIGIN/../lib
// makes the copy use its own library, whose bundled folder (lib/fluxion/plugins) is absent.
std::string RunnerWithoutPlugins(const ScratchFolder& scratch) {
  fs::create_directories(scratch.path() / "bin");
  fs::create_directories(scratch.path() / "lib");
  const fs::path built_lib = fs::path(SceneRunner()).parent_path().parent_path() / "lib";
  for (const fs::directory_entry& entry : fs::directory_iterator(built_lib))
    if (entry.path().filename().string().starts_with("libfluxion.so"))
      fs::copy(entry.path(), scratch.path() / "lib" / entry.path().filename(),
               fs::copy_options::copy_symlinks);
  fs::copy_file(SceneRunner(), scratch.path() / "bin" / "scene-runner");
  return scratch / "bin/scene-runner";
}

TEST(CommandLine, BundledSolverWithoutItsPluginIsAPluginProblem) {
  ScratchFolder scratch;
  const std::string runner = RunnerWithoutPlugins(scratch);
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kFallingPoint));
  const CommandResult result = RunSceneRunner(scene + " --solver RungeKutta4Solver", "", runner);
  EXPECT_EQ(result.status, 3) << result.err;
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, StartsWith("error: --solver RungeKutta4Solver: provided by plugin "
                                     "'fluxion_runge_kutta4.so', which is not on the plugin "
                                     "search path (searched: "));
  EXPECT_THAT(result.err, HasSubstr("add the folder holding it with --plugin-dir DIR or "
                                    "FLUXION_PLUGIN_PATH=DIR"));
  // The scene's own solver: the same rule, from the scene (exit 3, naming the plugin).
  const CommandResult scene_solver = RunSceneRunner(scene + " -q -o -", "", runner);
  EXPECT_EQ(scene_solver.status, 3) << scene_solver.err;
  ASSERT_EQ(Lines(scene_solver.err).size(), 1u) << scene_solver.err;
  EXPECT_THAT(scene_solver.err,
              HasSubstr("scene.scn:2: component 'EulerExplicitSolver' is provided by plugin "
                        "'fluxion_euler_explicit.so', which is not on the plugin search path"));
  EXPECT_THAT(scene_solver.err, HasSubstr("--plugin-dir DIR"));
}

TEST(CommandLine, ListSolversGivesOrderKindAndPluginFile) {
  const CommandResult result = RunSceneRunner("--list-solvers");
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_THAT(lines[0], StartsWith("solver "));
  // The declared orders of well-known methods (Hairer, Nørsett & Wanner for RK4; the others are
  // first- and second-order by construction), each from its own plugin file.
  struct Known {
    const char* name;
    const char* order_and_kind;
    const char* plugin;
  };
  for (const Known& known :
       {Known{"RungeKutta4Solver", "4      explicit", "fluxion_runge_kutta4.so"},
        Known{"EulerImplicitSolver", "1      implicit", "fluxion_euler_implicit.so"},
        Known{"NewmarkImplicitSolver", "2      implicit", "fluxion_newmark_implicit.so"},
        Known{"VelocityVerletSolver", "2      explicit, symplectic",
              "fluxion_velocity_verlet.so"}}) {
    bool found = false;
    for (const std::string& line : lines) {
      if (!line.starts_with(std::string(known.name) + " ")) continue;
      found = true;
      EXPECT_THAT(line, HasSubstr(known.order_and_kind)) << line;
      EXPECT_THAT(line, HasSubstr(known.plugin)) << line;
    }
    EXPECT_TRUE(found) << known.name << " not listed:\n" << result.out;
  }
  // One line per ODE solver of the host, and nothing else.
  std::size_t solvers = 0;
  for (const ComponentInfo* entry : TestHost().components())
    solvers += entry->spec.kind == ComponentKind::kOdeSolver ? 1 : 0;
  EXPECT_EQ(lines.size(), solvers + 1);
}

TEST(CommandLine, OnATerminalARunPrintsASummaryInsteadOfRows) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("scene.scn", kFallingPoint);
  const CommandResult result = RunOnTerminal(ShellQuote(scene) + " --steps 3 -q");
  ASSERT_EQ(result.status, 0) << result.out << result.err;
  EXPECT_EQ(TerminalLines(result.out),
            (std::vector<std::string>{
                scene + ": 3 steps of dt = 0.5 s to t = 1.5 s (EulerExplicitSolver)",
                "  root/ball/dofs: 1 point at (0, -12, 0)",
                "4 trajectory rows not shown on the terminal: write them to a file with --output "
                "FILE.csv, pipe them (| less), or show them here with --output -"}));
  // --output - puts the rows on the terminal; a pipe gets them as before.
  const CommandResult rows = RunOnTerminal(ShellQuote(scene) + " --steps 3 -q --output -");
  ASSERT_EQ(rows.status, 0) << rows.out;
  const std::vector<std::string> row_lines = TerminalLines(rows.out);
  ASSERT_EQ(row_lines.size(), 5u) << rows.out;
  EXPECT_THAT(row_lines[0], StartsWith("step,time,"));
  EXPECT_THAT(row_lines[4], StartsWith("3,1.5,0,-12,0,0,-12,0"));
  const CommandResult piped = RunSceneRunner(ShellQuote(scene) + " --steps 3 -q");
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(Lines(piped.out), std::vector<std::string>(row_lines.begin(), row_lines.end()));
}

}  // namespace
}  // namespace fluxion::testing
