// The files a run writes (issue 27, item 12): --vtk records about 100 states unless --every is
// given (a 3 s run at dt = 0.001 wrote 3,002 files), and the summary a terminal gets names every
// file the run wrote. The counts are worked out by hand from the step numbers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::HasSubstr;

// One falling point: one object, so one .vtu per recorded state.
constexpr const char* kFallingPoint = R"(<Node name="root" dt="0.001" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <Node name="ball">
    <MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass totalMass="1"/>
  </Node>
</Node>
)";

// The .vtu files of a --vtk folder, by name.
std::set<std::string> VtuFiles(const fs::path& folder) {
  std::set<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".vtu") names.insert(entry.path().filename().string());
  return names;
}

TEST(RunFiles, VtkRecordsAboutAHundredStatesByDefault) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("ball.scn", kFallingPoint);
  // 3000 steps: every ⌈3000/100⌉ = 30 steps, steps 0, 30, …, 3000: 101 states. The CSV keeps
  // every step (3001 rows and a header).
  CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 3000 -q -o " + ShellQuote(scratch / "ball.csv") +
                     " --output-dir " + ShellQuote(scratch.path().string()) + " --vtk " +
                     ShellQuote(scratch / "vtk"));
  ASSERT_EQ(result.status, 0) << result.err;
  std::set<std::string> vtu = VtuFiles(scratch.path() / "vtk");
  EXPECT_EQ(vtu.size(), 101u);
  EXPECT_TRUE(vtu.contains("ball_root_ball_dofs_000030.vtu")) << *vtu.begin();
  EXPECT_FALSE(vtu.contains("ball_root_ball_dofs_000001.vtu"));
  EXPECT_EQ(Lines(ReadFile(scratch / "ball.csv")).size(), 3002u);

  // 250 steps: every ⌈2.5⌉ = 3 steps, 0, 3, …, 249 (84 states) and the last, 250: 85.
  fs::remove_all(scratch.path() / "vtk");
  result =
      RunSceneRunner(ShellQuote(scene) + " --steps 250 -q -o /dev/null --output-dir " +
                     ShellQuote(scratch.path().string()) + " --vtk " + ShellQuote(scratch / "vtk"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(VtuFiles(scratch.path() / "vtk").size(), 85u);

  // --every 1000 decides for both: steps 0, 1000, 2000, 3000.
  fs::remove_all(scratch.path() / "vtk");
  result =
      RunSceneRunner(ShellQuote(scene) + " --steps 3000 -q --every 1000 -o " +
                     ShellQuote(scratch / "every.csv") + " --output-dir " +
                     ShellQuote(scratch.path().string()) + " --vtk " + ShellQuote(scratch / "vtk"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(VtuFiles(scratch.path() / "vtk").size(), 4u);
  EXPECT_EQ(Lines(ReadFile(scratch / "every.csv")).size(), 5u);
}

TEST(RunFiles, TheSummaryOnATerminalNamesEveryFileWritten) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("ball.scn", kFallingPoint);
  const std::string folder = scratch.path().string();
  const CommandResult result =
      RunOnTerminal(ShellQuote(scene) + " --steps 200 -q -o " + ShellQuote(scratch / "ball.csv") +
                    " --output-dir " + ShellQuote(folder) + " --vtk " +
                    ShellQuote(scratch / "vtk") + " --render " + ShellQuote(scratch / "ball.png"));
  ASSERT_EQ(result.status, 0) << result.out;
  const std::vector<std::string> lines = TerminalLines(result.out);
  // 200 steps, every 2: 101 .vtu files, the .pvd, the CSV (renamed from ball.csv.partial), the PNG.
  EXPECT_THAT(lines, Contains("files written:")) << result.out;
  EXPECT_THAT(lines, Contains("  " + (scratch / "ball.csv"))) << result.out;
  EXPECT_THAT(lines, Contains("  " + (scratch / "ball.png"))) << result.out;
  EXPECT_THAT(lines, Contains("  " + (scratch / "vtk/ball.pvd"))) << result.out;
  EXPECT_THAT(lines,
              Contains("  101 .vtu files: " + (scratch / "vtk/ball_root_ball_dofs_000000.vtu") +
                       " … " + (scratch / "vtk/ball_root_ball_dofs_000200.vtu")))
      << result.out;
  EXPECT_THAT(result.out, ::testing::Not(HasSubstr(".partial")));
}

}  // namespace
}  // namespace fluxion::testing
