// scene-runner --render and --render-every (tools/scene_runner/render.cpp): pictures read back
// with Cairo's PNG reader, and the pixels where the documented orthographic camera puts known
// points checked — never a picture compared with a picture the code made.
//
// The scene: point A (0 0 0), held by a fixed constraint, and point B (1 0 0), a spring between
// them at rest, no gravity: nothing moves. Camera (render.h): --view z shows x right and y up;
// the points span 1 m along x and nothing along y, so in a 200×100 picture with the 10 % margin
// the scale is min(160 px / 1 m, 80 px / 0) = 160 px/m, centred on (0.5, 0): A lands on pixel
// (100 + 160·(0 − 0.5), 50) = (20, 50), B on (180, 50), the spring's midpoint on (100, 50).
// Dots are 1.5 px in radius at this width (held points: black squares of 4.8 px), the spring is
// drawn neutral grey at zero strain, the background is white.
#include <cairo.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kScene = R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 100 0 1"/>
</Node>
)";

// A PNG read back by Cairo: its size and the RGB of a pixel.
class Picture {
 public:
  explicit Picture(const std::string& path)
      : surface_(cairo_image_surface_create_from_png(path.c_str()), cairo_surface_destroy) {}
  bool ok() const { return cairo_surface_status(surface_.get()) == CAIRO_STATUS_SUCCESS; }
  int width() const { return cairo_image_surface_get_width(surface_.get()); }
  int height() const { return cairo_image_surface_get_height(surface_.get()); }
  std::array<int, 3> Rgb(int x, int y) const {
    const unsigned char* row = cairo_image_surface_get_data(surface_.get()) +
                               y * cairo_image_surface_get_stride(surface_.get());
    std::uint32_t pixel = 0;
    std::memcpy(&pixel, row + 4 * x, 4);  // Cairo's native-endian 0xAARRGGBB
    return {static_cast<int>((pixel >> 16) & 0xff), static_cast<int>((pixel >> 8) & 0xff),
            static_cast<int>(pixel & 0xff)};
  }

 private:
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface_;
};

TEST(Render, KnownPointsLandOnTheirPixels) {
  ScratchFolder scratch;
  const std::string picture = scratch / "two.png";
  const CommandResult result =
      RunSceneRunner(ShellQuote(scratch.Write("two.scn", kScene)) + " --steps 2 -q -o " +
                     ShellQuote(scratch / "two.csv") + " --view z --render-size 200x100 --render " +
                     ShellQuote(picture));
  ASSERT_EQ(result.status, 0) << result.err;
  const Picture png(picture);
  ASSERT_TRUE(png.ok());
  EXPECT_EQ(png.width(), 200);
  EXPECT_EQ(png.height(), 100);
  EXPECT_EQ(png.Rgb(20, 50), (std::array<int, 3>{0, 0, 0}));      // A: the held point's square
  EXPECT_EQ(png.Rgb(180, 50), (std::array<int, 3>{38, 38, 51}));  // B: a dot (0.15 0.15 0.2)
  // The spring: an antialiased line centred on y = 50.0 (between pixel rows 49 and 50), so both
  // rows are partly covered — neutral grey (no blue or red: no strain), darker than white.
  for (const int row : {49, 50}) {
    const std::array<int, 3> spring = png.Rgb(100, row);
    EXPECT_EQ(spring[0], spring[1]) << row;
    EXPECT_EQ(spring[1], spring[2]) << row;
    EXPECT_LT(spring[0], 255) << row;
  }
  EXPECT_EQ(png.Rgb(100, 20), (std::array<int, 3>{255, 255, 255}));  // background
  EXPECT_EQ(png.Rgb(20, 44), (std::array<int, 3>{255, 255, 255}));   // just above A's square
}

// Two spheres of radius 0.6 centred at (0 0 0) and (1 0 0) overlap: MinProximity's sphere–sphere
// contact joins the centres, normal (1 0 0), penetration 0.01 + 1.2 − 1 > 0, so it pushes and is
// drawn: an orange ring (0.95 0.45 0) around the middle of its points, (0.5 0 0), which lands on
// pixel (100, 50) as in kScene, and a tick of 4 dots (6 px) along the normal, to (106, 50). The
// masses are large and the step short, so nothing moves measurably before the picture.
TEST(Render, APushingContactIsAnOrangeRingWithATickAlongItsNormal) {
  ScratchFolder scratch;
  const std::string picture = scratch / "spheres.png";
  const CommandResult result = RunSceneRunner(
      ShellQuote(scratch.Write("spheres.scn", R"(<Node name="root" dt="1e-6" gravity="0 0 0">
  <CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.5" contactDistance="0.01"/>
  <CollisionResponse response="PenalityContactForceField"/>
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1000"/>
  <SphereCollisionModel radius="0.6" selfCollision="1"/>
</Node>
)")) + " --steps 1 -q -o " +
      ShellQuote(scratch / "spheres.csv") + " --view z --render-size 200x100 --render " +
      ShellQuote(picture));
  ASSERT_EQ(result.status, 0) << result.err;
  const Picture png(picture);
  ASSERT_TRUE(png.ok());
  // The tick, an antialiased line on y = 50.0: orange over white (red > green > blue).
  for (const int row : {49, 50}) {
    const std::array<int, 3> tick = png.Rgb(104, row);
    EXPECT_GT(tick[0], tick[1]) << row;
    EXPECT_GT(tick[1], tick[2]) << row;
    EXPECT_LT(tick[2], 220) << row;
  }
  // Above the ring and the tick, and far from both points: white.
  EXPECT_EQ(png.Rgb(100, 40), (std::array<int, 3>{255, 255, 255}));
  EXPECT_EQ(png.Rgb(20, 50), (std::array<int, 3>{38, 38, 51}));  // the first sphere's centre
}

TEST(Render, FramesEveryKStepsWithOneCamera) {
  ScratchFolder scratch;
  const std::string frames = scratch / "frames";
  const CommandResult result = RunSceneRunner(
      ShellQuote(scratch.Write("two.scn", kScene)) + " --steps 5 -q -o " +
      ShellQuote(scratch / "two.csv") + " --view z --render-size 200x100 --output-dir " +
      ShellQuote(scratch.path().string()) + " --render-every 2 " + ShellQuote(frames));
  ASSERT_EQ(result.status, 0) << result.err;
  for (const char* name : {"frame_000000.png", "frame_000002.png", "frame_000004.png"}) {
    SCOPED_TRACE(name);
    const Picture png((fs::path(frames) / name).string());
    ASSERT_TRUE(png.ok());
    // Frames use a camera fitted to the start with a 25 % margin: scale min(100/1, 50/0) = 100
    // px/m, so A sits at (100 − 50, 50) and B at (150, 50).
    EXPECT_EQ(png.Rgb(50, 50), (std::array<int, 3>{0, 0, 0}));
    EXPECT_EQ(png.Rgb(150, 50), (std::array<int, 3>{38, 38, 51}));
  }
  EXPECT_FALSE(fs::exists(fs::path(frames) / "frame_000001.png"));
  EXPECT_FALSE(fs::exists(fs::path(frames) / "frame_000005.png"));
}

TEST(Render, BadArgumentsGetOneLine) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("two.scn", kScene));
  for (const auto& [arguments, words] :
       {std::pair<std::string, std::string>{" --render-size 10x10 --render x.png",
                                            "--render-size: '10x10' is not a picture size"},
        {" --render-every 0 dir", "--render-every: '0' is not a number of steps"},
        {" --view top --render x.png", "--view"}}) {
    SCOPED_TRACE(arguments);
    const CommandResult result = RunSceneRunner(scene + " --steps 1 -q" + arguments);
    EXPECT_EQ(result.status, 2);
    EXPECT_THAT(result.err, ::testing::StartsWith("error: "));
    EXPECT_THAT(result.err, ::testing::HasSubstr(words));
  }
}

}  // namespace
}  // namespace fluxion::testing
