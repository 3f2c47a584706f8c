// The output policy end to end (issue 25, the output side): every file a run writes — the
// trajectory and its XDMF, pictures, the animation, the frames of --render-every, what the scene's
// WriteState and exporters write — is claimed from one policy before it is written. Each test
// builds its hostile files (links, pipes, hard links, existing files) in a scratch folder, runs
// the real scene-runner, and checks the exit status, the one error line, and that every file the
// run must not touch is byte for byte what it was.
#include <gmock/gmock.h>
#include <sys/stat.h>

#include <filesystem>

#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

namespace fs = std::filesystem;

// A falling point; `components` are added to its node (line 5 onwards).
std::string FallScene(const std::string& components = "") {
  return R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>
)" + components +
         "</Node>\n";
}

// Runs scene-runner from the scratch folder (relative names are the scratch folder's).
CommandResult RunIn(const ScratchFolder& scratch, const std::string& arguments,
                    const std::string& wrapper = "") {
  return RunCommand("cd " + ShellQuote(scratch.path().string()) + " && " + wrapper +
                    " timeout 120 env -u FLUXION_PLUGIN_PATH " + ShellQuote(SceneRunner()) + " " +
                    arguments);
}

// --- 6. --render and --animate never replace an input nor write through a link ------------------

TEST(OutputPolicy, PicturesNeverReplaceAnInputNorFollowALink) {
  ScratchFolder scratch;
  const std::string scene_text = FallScene();
  scratch.Write("s.scn", scene_text);
  ASSERT_EQ(RunIn(scratch, "s.scn --steps 3 -q -o ref.csv").status, 0);
  const std::string reference = ReadFile(scratch / "ref.csv");
  scratch.Write("outside/victim.png", "precious\n");
  fs::create_symlink(scratch.path() / "outside" / "victim.png", scratch.path() / "link.png");
  for (const std::string option :
       {"--render s.scn", "--animate s.scn", "--render ref.csv --compare ref.csv",
        "--animate ref.csv --compare ref.csv", "--render link.png", "--animate link.png"}) {
    const CommandResult result = RunIn(scratch, "s.scn --steps 3 -q --overwrite " + option);
    EXPECT_EQ(result.status, 2) << option << ": " << result.err;
    EXPECT_THAT(ErrorLines(result), SizeIs(1)) << option << ": " << result.err;
  }
  EXPECT_EQ(ReadFile(scratch / "s.scn"), scene_text);
  EXPECT_EQ(ReadFile(scratch / "ref.csv"), reference);
  EXPECT_EQ(ReadFile(scratch / "outside/victim.png"), "precious\n");
  EXPECT_TRUE(fs::is_symlink(scratch.path() / "link.png"));
}

// --- 7. the XDMF beside an HDF5 output is claimed like the output
// ---------------------------------

TEST(OutputPolicy, XdmfBesideAnHdf5OutputNeverReplacesAnInputNorFollowsALink) {
  ScratchFolder scratch;
  // The scene itself is named like the XDMF of the output.
  const std::string scene_text = FallScene();
  scratch.Write("traj.xdmf", scene_text);
  const CommandResult over_scene = RunIn(scratch, "traj.xdmf --steps 3 -q -o traj.h5");
  if (over_scene.err.find("without HDF5") != std::string::npos) GTEST_SKIP() << "no HDF5";
  EXPECT_EQ(over_scene.status, 2) << over_scene.err;
  EXPECT_THAT(ErrorLines(over_scene), SizeIs(1)) << over_scene.err;
  EXPECT_THAT(over_scene.err, HasSubstr("input"));
  EXPECT_EQ(ReadFile(scratch / "traj.xdmf"), scene_text);
  EXPECT_FALSE(fs::exists(scratch.path() / "traj.h5"));

  // run.xdmf is a link to a file elsewhere: refused before the first step, the file untouched.
  scratch.Write("outside/victim.xdmf", "precious\n");
  fs::create_symlink(scratch.path() / "outside" / "victim.xdmf", scratch.path() / "run.xdmf");
  const CommandResult through_link = RunIn(scratch, "traj.xdmf --steps 3 -q -o run.h5");
  EXPECT_EQ(through_link.status, 2) << through_link.err;
  EXPECT_THAT(through_link.err, HasSubstr("symbolic link"));
  EXPECT_EQ(ReadFile(scratch / "outside/victim.xdmf"), "precious\n");
  EXPECT_FALSE(fs::exists(scratch.path() / "run.h5"));
}

// --- 8, 20. a scene's file is never one of the run's own files -----------------------------------

TEST(OutputPolicy, WriteStateCannotWriteIntoTheTrajectoryBeingRecorded) {
  ScratchFolder scratch;
  scratch.Write("s.scn", FallScene(R"(  <WriteState filename="t.csv.partial" writeX="1"/>
)"));
  const CommandResult result = RunIn(scratch, "s.scn --steps 3 -q -o t.csv --overwrite");
  EXPECT_EQ(result.status, 2) << result.err;
  ASSERT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
  EXPECT_THAT(ErrorLines(result)[0], AllOf(HasSubstr("s.scn:5:"), HasSubstr("t.csv.partial"),
                                           HasSubstr("the trajectory (--output)")));
  EXPECT_FALSE(fs::exists(scratch.path() / "t.csv"));
  EXPECT_THAT(ReadFile(scratch / "t.csv.partial"), Not(HasSubstr("T=")));
}

TEST(OutputPolicy, RefusedWriteStateNamedLikeTheOutputLeavesNoFileAndSaysWhy) {
  ScratchFolder scratch;
  scratch.Write("s.scn", FallScene(R"(  <WriteState filename="t.csv" writeX="1"/>
)"));
  const CommandResult result = RunIn(scratch, "s.scn --steps 3 -q -o t.csv");
  EXPECT_EQ(result.status, 2) << result.err;
  ASSERT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
  EXPECT_THAT(ErrorLines(result)[0],
              AllOf(HasSubstr("the trajectory (--output)"), Not(HasSubstr("input"))));
  EXPECT_FALSE(fs::exists(scratch.path() / "t.csv"));
  EXPECT_FALSE(fs::exists(scratch.path() / "t.csv.partial"));
}

// --- 14. two writers of the scene never share a file ---------------------------------------------

TEST(OutputPolicy, TwoWriteStatesCannotNameOneFile) {
  ScratchFolder scratch;
  scratch.Write("s.scn", FallScene(R"(  <WriteState filename="state.txt" writeX="1"/>
  <WriteState filename="./state.txt" writeV="1"/>
)"));
  const CommandResult result = RunIn(scratch, "s.scn --steps 3 -q --overwrite -o t.csv");
  EXPECT_EQ(result.status, 2) << result.err;
  ASSERT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
  EXPECT_THAT(ErrorLines(result)[0], AllOf(HasSubstr("s.scn:6:"), HasSubstr("one writer")));
}

// --- 10. --render-every obeys the rules of --vtk
// --------------------------------------------------

TEST(OutputPolicy, RenderEveryStaysInTheOutputFolderAndNeverFollowsALink) {
  ScratchFolder scratch;
  scratch.Write("s.scn", FallScene());
  fs::create_directories(scratch.path() / "out" / "frames");
  fs::create_directories(scratch.path() / "elsewhere");
  scratch.Write("outside/victim.png", "precious\n");
  fs::create_symlink(scratch.path() / "outside" / "victim.png",
                     scratch.path() / "out" / "frames" / "frame_000000.png");
  fs::create_symlink(scratch.path() / "outside", scratch.path() / "out" / "escape");
  for (const std::string folder : {"out/frames", "out/escape", "elsewhere"}) {
    const CommandResult result = RunIn(
        scratch, "s.scn --steps 2 -q --overwrite --output-dir out --render-every 1 " + folder);
    EXPECT_EQ(result.status, 2) << folder << ": " << result.err;
    EXPECT_THAT(ErrorLines(result), SizeIs(1)) << folder << ": " << result.err;
  }
  EXPECT_EQ(ReadFile(scratch / "outside/victim.png"), "precious\n");
  EXPECT_EQ(
      std::distance(fs::directory_iterator(scratch.path() / "outside"), fs::directory_iterator()),
      1);
  EXPECT_TRUE(fs::is_empty(scratch.path() / "elsewhere"));

  // In a folder of its own below the output folder, the frames are written.
  const CommandResult allowed =
      RunIn(scratch, "s.scn --steps 2 -q --output-dir out --render-every 1 out/pictures");
  EXPECT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_TRUE(fs::is_regular_file(scratch.path() / "out" / "pictures" / "frame_000002.png"));
}

// --- 11. a pipe planted in the output folder never blocks the run --------------------------------

TEST(OutputPolicy, FifoInTheOutputFolderIsRefusedWithoutBlocking) {
  ScratchFolder scratch;
  scratch.Write("s.scn", FallScene(R"(  <WriteState filename="state.txt" writeX="1"/>
)"));
  ASSERT_EQ(::mkfifo((scratch / "state.txt").c_str(), 0666), 0);
  // A run that blocks on the pipe is stopped after 20 s (status 124) rather than hanging.
  const CommandResult result =
      RunIn(scratch, "s.scn --steps 3 -q --overwrite -o t.csv", "timeout 20");
  EXPECT_EQ(result.status, 2) << result.err;
  ASSERT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
  EXPECT_THAT(ErrorLines(result)[0], HasSubstr("not a regular file"));
}

// --- 15. replacing a file never writes through its inode -----------------------------------------

TEST(OutputPolicy, HardLinkToAFileElsewhereIsReplacedNotWrittenThrough) {
  ScratchFolder scratch;
  scratch.Write("s.scn", FallScene(R"(  <WriteState filename="state.txt" writeX="1"/>
)"));
  // Two victims, one per output: with one file behind both links the two outputs would share an
  // inode, and the run would be refused for that instead.
  const std::string victim = scratch.Write("outside/victim.txt", "precious\n");
  const std::string other = scratch.Write("outside/other.txt", "also precious\n");
  fs::create_directories(scratch.path() / "out");
  fs::create_hard_link(victim, scratch.path() / "out" / "state.txt");
  fs::create_hard_link(other, scratch.path() / "out" / "t.csv");
  const CommandResult result =
      RunIn(scratch, "s.scn --steps 3 -q --overwrite --output-dir out -o out/t.csv");
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(ReadFile(victim), "precious\n");
  EXPECT_EQ(ReadFile(other), "also precious\n");
  EXPECT_THAT(ReadFile(scratch / "out/state.txt"), HasSubstr("X="));
  EXPECT_THAT(ReadFile(scratch / "out/t.csv"), HasSubstr("time"));
}

// --- 19, 18. names a scene gives: no control characters, shown cut ------------------------------

TEST(OutputPolicy, ControlCharactersInAFileNameAreRefusedAndNoFileIsCreated) {
  ScratchFolder scratch;
  fs::create_directories(scratch.path() / "out");
  for (
      const std::string component :
      {R"(<MeshTopology position="0 0 0"/><VTKExporter filename="a&#10;error: forged" exportAtBegin="1"/>)",
       R"(<MeshTopology position="0 0 0"/><MeshExporter filename="b&#27;]0;title&#7;" format="vtk" exportAtBegin="1"/>)",
       R"(<WriteState filename="c&#13;d.txt" writeX="1"/>)",
       R"(<Monitor fileName="m&#10;x" indices="0" ExportPositions="1"/>)"}) {
    scratch.Write("s.scn", FallScene("  " + component + "\n"));
    const CommandResult result = RunIn(scratch, "s.scn --steps 2 -q --output-dir out -o t.csv");
    EXPECT_EQ(result.status, 2) << component << ": " << result.err;
    EXPECT_THAT(ErrorLines(result), SizeIs(1)) << component << ": " << result.err;
    EXPECT_THAT(result.err, AllOf(HasSubstr("control character"), Not(HasSubstr("\x1b")),
                                  Not(HasSubstr("\a")), Not(HasSubstr("\r"))));
    EXPECT_TRUE(fs::is_empty(scratch.path() / "out")) << component;
  }
}

TEST(OutputPolicy, ExporterFileNamesInErrorsAreCut) {
  ScratchFolder scratch;
  const std::string long_name = "missing/" + std::string(300, 'n');
  scratch.Write(
      "s.scn",
      FallScene(R"(  <MeshTopology position="0 0 0"/><MeshExporter format="vtk" filename=")" +
                long_name + R"(" exportAtBegin="1"/>
)"));
  const CommandResult result = RunIn(scratch, "s.scn --steps 2 -q -o t.csv");
  EXPECT_EQ(result.status, 2) << result.err;
  ASSERT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
  EXPECT_THAT(ErrorLines(result)[0], AllOf(HasSubstr("…"), Not(HasSubstr(std::string(81, 'n')))));
}

}  // namespace
}  // namespace fluxion::testing
