// SOFA's WriteState and ReadState (components/write_state.h, read_state.h): the text frames
// "T= … X= … V= … F= …" written for states known by hand, a WriteState → ReadState round trip
// (compressed), and a hand-written recording played by SOFA's rule (ReadState.inl: at time t
// the last frame not yet applied with T ≤ t applies, no interpolation).
//
// The recorded scene: one point of unit mass falls from rest at (1, 2, 3) under g = (0, -2, 0)
// with dt = 0.5 under EulerExplicitSolver (symplectic Euler: v ← v + h·g, x ← x + h·v), exactly:
//   t = 0.5: v_y = -1, y = 1.5;   t = 1: v_y = -2, y = 0.5;   t = 1.5: v_y = -3, y = -1.
// The total force is m·g = (0, -2, 0) throughout.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/text.h"
#include "output_folder.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

std::string FallingPoint(const std::string& writer) {
  return R"(<Node name="root" dt="0.5" gravity="0 -2 0">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" position="1 2 3"/>
  <UniformMass vertexMass="1"/>
  )" + writer +
         R"(
</Node>)";
}

// A static point (no solver) that only a ReadState moves.
std::string Player(const std::string& reader) {
  return R"(<Node name="root" dt="0.5">
  <MechanicalObject name="dofs" position="9 9 9"/>
  )" + reader +
         R"(
</Node>)";
}

class StatePlayback : public testing::OutputFolderTest {
 protected:
  Simulation Play(const std::string& reader) const {
    LoadOptions options;
    options.data_path = {folder_.string()};
    return testing::TestHost().LoadString(Player(reader), "play.scn", options);
  }
  void WriteInput(const std::string& name, const std::string& text) const {
    std::ofstream(folder_ / name) << text;
  }
};

TEST_F(StatePlayback, WriteStateWritesEveryStepByDefault) {
  Simulation simulation =
      LoadScene(FallingPoint(R"(<WriteState filename="rec.txt" writeV="1" writeF="1"/>)"));
  simulation.Run(2);
  EXPECT_EQ(Read("rec.txt"),
            "T= 0\n  X= 1 2 3\n  V= 0 0 0\n  F= 0 -2 0\n"
            "T= 0.5\n  X= 1 1.5 3\n  V= 0 -1 0\n  F= 0 -2 0\n"
            "T= 1\n  X= 1 0.5 3\n  V= 0 -2 0\n  F= 0 -2 0\n");
}

TEST_F(StatePlayback, WriteStateStartsAtTimeThenEveryPeriod) {
  Simulation simulation =
      LoadScene(FallingPoint(R"(<WriteState filename="rec.txt" time="0.5" period="1"/>)"));
  simulation.Run(4);
  // Due at 0.5, then 1.5 (not at 0, 1, 2).
  EXPECT_EQ(Read("rec.txt"), "T= 0.5\n  X= 1 1.5 3\nT= 1.5\n  X= 1 -1 3\n");
}

// SOFA's node time is a running sum (DefaultAnimationLoop: setTime(startTime + dt)), and SOFA's
// WriteState prints it: ten steps of 0.1 print T= 0.9999999999999999, the sum of ten 0.1s, not 1.
// Its lines keep that sum, so that they match SOFA's own recordings; the simulation's time (what
// scene-runner prints) is t₀ + n·h = 1.
TEST_F(StatePlayback, WriteStatePrintsSofasAccumulatedTime) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" position="0 0 0"/>
  <UniformMass vertexMass="1"/>
  <WriteState filename="rec.txt"/>
</Node>)");
  simulation.Run(10);
  // SOFA's rule, step by step: t += dt (the tenth sum is 0.99999999999999988898).
  std::string expected;
  double sofa_time = 0.0;
  for (int n = 0; n <= 10; ++n) {
    expected += "T= " + FormatReal(sofa_time) + "\n  X= 0 0 0\n";
    if (n < 10) sofa_time += 0.1;
  }
  ASSERT_EQ(FormatReal(sofa_time), "0.9999999999999999");  // the premise: the sum is not 1
  EXPECT_EQ(Read("rec.txt"), expected);
  EXPECT_EQ(simulation.sofa_time(), sofa_time);
  EXPECT_EQ(simulation.time(), 1.0);
}

TEST_F(StatePlayback, ReadStatePlaysAWriteStateRecordingBackExactly) {
  std::vector<Vector> positions, velocities;
  {
    Simulation recorder =
        LoadScene(FallingPoint(R"(<WriteState filename="rec.txt.gz" writeX="1" writeV="1"/>)"));
    const int dofs = recorder.FindObject("root/dofs");
    positions.emplace_back(recorder.position(dofs));
    velocities.emplace_back(recorder.velocity(dofs));
    for (int step = 0; step < 4; ++step) {
      recorder.Step();
      positions.emplace_back(recorder.position(dofs));
      velocities.emplace_back(recorder.velocity(dofs));
    }
    recorder.Finish();
  }  // the compressed stream is closed: the file is complete
  EXPECT_EQ(Read("rec.txt.gz").substr(0, 2), "\x1f\x8b");  // gzip's magic number
  Simulation player = Play(R"(<ReadState filename="rec.txt.gz"/>)");
  const int dofs = player.FindObject("root/dofs");
  for (int step = 0; step <= 4; ++step) {
    if (step > 0) player.Step();
    EXPECT_EQ(Vector(player.position(dofs)), positions[static_cast<std::size_t>(step)]) << step;
    EXPECT_EQ(Vector(player.velocity(dofs)), velocities[static_cast<std::size_t>(step)]) << step;
  }
}

TEST_F(StatePlayback, ReadStateAppliesTheLastFrameDueWithoutInterpolating) {
  WriteInput("hand.txt",
             "T= 0\n  X= 0 0 0\n"
             "T= 0.5\n  X= 1 0 0\n  V= 0 3 0\n"
             "T= 0.75\n  X= 2 0 0\n"
             "T= 2\n  X= 4 0 0\n");
  Simulation player = Play(R"(<ReadState filename="hand.txt"/>)");
  const int dofs = player.FindObject("root/dofs");
  // t = 0, 0.5, 1 (frame 0.75), 1.5 (nothing new), 2, 2.5 (end of the file).
  const double expected_x[] = {0, 1, 2, 2, 4, 4};
  for (int step = 0; step < 6; ++step) {
    if (step > 0) player.Step();
    EXPECT_EQ(Vector(player.position(dofs)), Eigen::Vector3d(expected_x[step], 0, 0)) << step;
  }
  // The velocity of the frame at 0.5 stays: later frames have no V line.
  EXPECT_EQ(Vector(player.velocity(dofs)), Eigen::Vector3d(0, 3, 0));
}

TEST_F(StatePlayback, ReadStateScalesThenTranslatesAndShiftsTime) {
  WriteInput("hand.txt", "T= 0\n  X= 1 2 3\nT= 1\n  X= 2 2 2\n");
  Simulation player =
      Play(R"(<ReadState filename="hand.txt" scalePos="2" translation="1 0 -1" shift="0.5"/>)");
  const int dofs = player.FindObject("root/dofs");
  EXPECT_EQ(Vector(player.position(dofs)), Eigen::Vector3d(3, 4, 5));  // 2·(1, 2, 3) + (1, 0, -1)
  player.Step();  // t + shift = 1: the second frame
  EXPECT_EQ(Vector(player.position(dofs)), Eigen::Vector3d(5, 4, 3));
}

TEST_F(StatePlayback, ObserversAfterAPlayerSeeThePlayedState) {
  // Drive (ReadState) comes before every observer's notification of the same moment, so a
  // WriteState later in the scene records the frames played (at t = 0, 0.5, 1).
  WriteInput("hand.txt", "T= 0\n  X= 0 0 0\nT= 0.5\n  X= 1 0 0\nT= 1\n  X= 2 0 0\n");
  Simulation player = Play(R"(<ReadState filename="hand.txt"/>
  <WriteState filename="copy.txt"/>)");
  player.Run(2);
  EXPECT_EQ(Read("copy.txt"), "T= 0\n  X= 0 0 0\nT= 0.5\n  X= 1 0 0\nT= 1\n  X= 2 0 0\n");
}

TEST_F(StatePlayback, ReadStateRefusesAFrameOfTheWrongSize) {
  WriteInput("bad.txt", "T= 0\n  X= 1 2\n");
  try {
    (void)Play(R"(<ReadState filename="bad.txt"/>)");
    FAIL() << "a frame of 2 numbers was accepted for a 3-D point";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1U);
    EXPECT_EQ(error.diagnostics()[0].line, 3);
    EXPECT_THAT(error.diagnostics()[0].message,
                HasSubstr("line 2: X= has 2 numbers (expected 3 for 'root/dofs')"));
  }
}

TEST_F(StatePlayback, WriteStateRefusesToReplaceAFile) {
  WriteInput("rec.txt", "kept");
  try {
    (void)LoadScene(FallingPoint(R"(<WriteState filename="rec.txt"/>)"), "writer.scn");
    FAIL() << "an existing file was replaced";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1U);
    EXPECT_THAT(error.diagnostics()[0].Format(),
                ::testing::StartsWith("writer.scn:5: WriteState cannot open 'rec.txt'"));
    EXPECT_THAT(error.diagnostics()[0].message, HasSubstr("already exists"));
  }
  EXPECT_EQ(Read("rec.txt"), "kept");
}

}  // namespace
}  // namespace fluxion
