// Untrusted input, round 2 (issue 25), the input side: which folders a scene may read, and sizes
// a file declares checked against the memory budget before they are allocated. Each test builds
// its hostile files (symbolic links, sparse files, HDF5 files with huge declared shapes) in a
// scratch folder, runs the real scene-runner and checks the exit status and the one error line.
//
// The .vtu/.vtp reader's part of item 2 and item 21 are in tests/meshio/vtk_xml_reader_test.cpp.
#include <gmock/gmock.h>
#include <unistd.h>

#include <filesystem>

#include "support/vtk_zlib_bomb.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

namespace fs = std::filesystem;

// A falling object under explicit Euler: `loader` makes the points `object` takes.
std::string FallingScene(const std::string& loader,
                         const std::string& object = R"(<MechanicalObject src="@loader"/>)") {
  return R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerExplicitSolver/>
  )" + loader +
         "\n  " + object + R"(
  <UniformMass vertexMass="1"/>
</Node>
)";
}

// The same, its points from the mesh file `mesh`.
std::string MeshScene(const std::string& mesh) {
  return FallingScene(R"(<MeshOBJLoader name="loader" filename=")" + mesh + R"("/>)");
}

constexpr const char* kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

// A generous bound on a refused run's peak memory: the runner, its libraries and plugins take
// about 30 MiB; what the refused file would have taken is 300 MiB or more.
constexpr double kRefusedRunPeakMiB = 150;

// --- 1. a symbolic link does not make a SOFA tree of the scene's folder --------------------------

TEST(HostileInputs, LinkedShareFolderDoesNotMakeEveryFileReadable) {
  const ScratchFolder scratch;
  // A mesh far from the scene, named from `/` through the planted link `share -> /`.
  const std::string secret = scratch.Write("elsewhere/secret.obj", kTriangle);
  const std::string from_root = fs::path(secret).relative_path().string();
  fs::create_directories(scratch.path() / "download" / "examples");
  fs::create_directory_symlink("/", scratch.path() / "download" / "share");
  const std::string scene = scratch.Write("download/examples/scene.scn", MeshScene(from_root));

  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 1 -o -", "-u SOFA_ROOT");
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
  EXPECT_THAT(result.err, HasSubstr("' was not found (searched "));
  EXPECT_THAT(result.out, Not(HasSubstr("step,time")));
}

TEST(HostileInputs, RealSofaTreeIsReadOnlyWhenSofaRootNamesIt) {
  const ScratchFolder scratch;
  scratch.Write("sofa/share/mesh/triangle.obj", kTriangle);
  const std::string scene =
      scratch.Write("sofa/examples/Demos/scene.scn", MeshScene("mesh/triangle.obj"));

  // Not named: not read; the error says which SOFA_ROOT would add it.
  const CommandResult unnamed =
      RunSceneRunner(ShellQuote(scene) + " --steps 1 -o -", "-u SOFA_ROOT");
  EXPECT_EQ(unnamed.status, 2) << unnamed.err;
  EXPECT_THAT(ErrorLines(unnamed), SizeIs(1)) << unnamed.err;
  EXPECT_THAT(unnamed.err, HasSubstr("SOFA_ROOT=" + (scratch.path() / "sofa").string()));

  const CommandResult named = RunSceneRunner(ShellQuote(scene) + " --steps 1 -o -",
                                             "SOFA_ROOT=" + ShellQuote(scratch / "sofa"));
  EXPECT_EQ(named.status, 0) << named.err;
}

TEST(HostileInputs, SofaRootDoesNotFollowALinkedShareFolder) {
  const ScratchFolder scratch;
  const std::string secret = scratch.Write("elsewhere/secret.obj", kTriangle);
  fs::create_directories(scratch.path() / "sofa" / "examples");
  fs::create_directory_symlink("/", scratch.path() / "sofa" / "share");
  const std::string scene = scratch.Write("sofa/examples/scene.scn",
                                          MeshScene(fs::path(secret).relative_path().string()));

  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -o -",
                                              "SOFA_ROOT=" + ShellQuote(scratch / "sofa"));
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_THAT(result.err, AllOf(HasSubstr("a symbolic link is not followed"),
                                HasSubstr("' was not found (searched ")));
}

// --- 2. a zlib bomb is refused before it is inflated --------------------------------------------

TEST(HostileInputs, VtuZlibBombIsRefusedBeforeItIsInflated) {
  const ScratchFolder scratch;
  // 12,288,000 points: 295 MB of coordinates in a file of about 650 KB.
  scratch.Write("bomb.vtu", ZlibBombVtu(4096 * 3000));
  const std::string scene = scratch.Write(
      "scene.scn", FallingScene(R"(<MeshVTKLoader name="loader" filename="bomb.vtu"/>)"));
  double peak = 0;
  const CommandResult result =
      RunSceneRunnerMeasured(ShellQuote(scene) + " --steps 1 --memory-limit 100M -o -", peak);
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_THAT(result.err, HasSubstr("bomb.vtu:2: NumberOfPoints=12288000 is more than the memory "
                                    "budget allows"));
  EXPECT_LT(peak, kRefusedRunPeakMiB) << result.err;
}

// --- 3. VoxelGridLoader counts its points before it allocates them ---------------------------

TEST(HostileInputs, SparseVoxelImageIsRefusedBeforeItsPointsAreAllocated) {
  const ScratchFolder scratch;
  // 20 MiB of zeros on disk that takes no space: 20,971,520 active voxels (no bgValue).
  fs::resize_file(scratch.Write("image.raw", ""), std::uintmax_t{20} << 20);
  for (const char* hexa : {"0", "1"}) {
    const std::string scene = scratch.Write(
        "scene.scn",
        FallingScene(std::string(R"(<VoxelGridLoader name="grid" filename="image.raw" )"
                                 R"(resolution="256 256 320" generateHexa=")") +
                         hexa + R"("/>)",
                     R"(<MechanicalObject position="@grid.position"/>)"));
    double peak = 0;
    const CommandResult result =
        RunSceneRunnerMeasured(ShellQuote(scene) + " --steps 1 --memory-limit 100M -o -", peak);
    EXPECT_EQ(result.status, 2) << result.err;
    EXPECT_THAT(result.err, HasSubstr(std::string("VoxelGridLoader makes ") +
                                      (hexa[0] == '0' ? "20971520" : "21201729") +
                                      " points (expected at most"));
    EXPECT_LT(peak, kRefusedRunPeakMiB) << result.err;
  }
}

// --- 16. the memory budget honours ulimit -v
// ------------------------------------------------------

TEST(HostileInputs, MemoryBudgetHonoursTheAddressSpaceLimit) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: ulimit -v cannot apply";
#endif
  const ScratchFolder scratch;
  // 4,000,000 points: about 1.8 GiB by the builder's estimate, more than 1.5 GiB of address
  // space leaves; the machine's MemAvailable alone would let it through to a failed allocation.
  const std::string scene = scratch.Write(
      "scene.scn", FallingScene(R"(<RegularGridTopology name="loader" n="2000 2000 1" )"
                                R"(min="0 0 0" max="1 1 0"/>)"));
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -o -", "",
                                              SceneRunner(), "prlimit --as=1610612736 ");
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
  EXPECT_THAT(result.err, AllOf(HasSubstr("scene.scn:3: "),
                                HasSubstr("what the address-space limit leaves, ulimit -v")));
}

// --- 12. a CSV reference's bytes reach stderr and the report escaped and cut ---------------------

TEST(HostileInputs, ReferenceColumnNamesAreEscapedAndCut) {
  const ScratchFolder scratch;
  const std::string scene = scratch.Write(
      "scene.scn", FallingScene("", R"(<MechanicalObject name="ball" position="0 0 0"/>)"));
  const std::string arguments = ShellQuote(scene) + " --steps 1 -o " +
                                ShellQuote(scratch / "t.csv") + " --overwrite --compare " +
                                ShellQuote(scratch / "reference.csv");
  // A carriage return and escape sequences that would forge an error line on a terminal.
  scratch.Write("reference.csv", "step,time,x\r\x1b[2Kerror: forged\x1b]0;title\x07\n0,0,0\n");
  const CommandResult forged = RunSceneRunner(arguments);
  EXPECT_EQ(forged.status, 2) << forged.err;
  EXPECT_THAT(forged.err, HasSubstr("reference.csv:1: column name "
                                    "'x\\r\\x1b[2Kerror: forged\\x1b]0;title\\x07' holds a "
                                    "control character"));
  EXPECT_THAT(forged.err, Not(HasSubstr("\x1b")));
  // A 100 KB column name: a line of the report, not a 100 KB one.
  const std::string huge(100'000, 'y');
  scratch.Write("reference.csv", "step,time,ball/p0.x," + huge + "\n0,0,0,0\n1,0.01,0,0\n");
  const CommandResult cut = RunSceneRunner(arguments);
  EXPECT_EQ(cut.status, 1) << cut.err;
  EXPECT_THAT(cut.out, HasSubstr("in the reference only): ball/p0.x, yyyy"));
  for (const std::string& line : Lines(cut.out + cut.err)) EXPECT_LT(line.size(), 300U);
}

}  // namespace
}  // namespace fluxion::testing
