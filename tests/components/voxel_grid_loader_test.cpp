// SOFA's VoxelGridLoader (components/voxel_grid_loader.cpp) on a raw image of 3×2×2 voxels written
// here, whose points and hexahedra are worked out by hand from SOFA's VoxelGridLoader::reinit:
// the points the active voxels use, numbered k, then j, then i (i fastest), at (i·sx, j·sy, k·sz);
// each voxel's hexahedron (i,j,k) (i+1,j,k) (i+1,j+1,k) (i,j+1,k) and the same at k + 1.
#include <gmock/gmock.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
namespace fs = std::filesystem;
using Hexahedron = std::array<Index, 8>;

class VoxelGridLoading : public testing::QuietTest {
 protected:
  void SetUp() override {
    testing::QuietTest::SetUp();
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    folder_ = fs::path(::testing::TempDir()) /
              ("fluxion_voxel_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    // A 2-byte header, then the voxels (index i + 3j + 6k), then one byte past the image (SOFA
    // reads no further). Non-zero: voxel 1 (i=1 j=0 k=0) = 5, voxel 7 (1 0 1) = 7, voxel 11
    // (2 1 1) = 9.
    const unsigned char bytes[] = {0xAA, 0xBB,              // header
                                   0,    5,    0, 0, 0, 0,  // k = 0: j = 0, j = 1
                                   0,    7,    0, 0, 0, 9,  // k = 1
                                   0xFF};                   // after the image
    std::ofstream(folder_ / "image.raw", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes), sizeof bytes);
  }
  void TearDown() override {
    testing::QuietTest::TearDown();
    if (!HasFailure()) fs::remove_all(folder_);
  }
  // `loader` (named "grid") in a scene whose topology and object take its mesh, then `extra`.
  Simulation Load(const std::string& loader, const std::string& extra = "") {
    std::ofstream(folder_ / "scene.scn") << R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerExplicitSolver/>
  )" + loader + R"(
  <HexahedronSetTopologyContainer src="@grid"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  )" + extra + R"(
</Node>
)";
    return testing::TestHost().LoadFile((folder_ / "scene.scn").string());
  }
  std::vector<std::string> Errors(const std::string& loader) {
    try {
      Load(loader);
    } catch (const SceneError& error) {
      std::vector<std::string> messages;
      for (const SceneDiagnostic& d : error.diagnostics()) messages.push_back(d.Format());
      return messages;
    }
    return {};
  }
  fs::path folder_;
};

std::vector<double> Values(const Vector& v) { return {v.data(), v.data() + v.size()}; }

TEST_F(VoxelGridLoading, BackgroundValueLeavesThreeHexahedra) {
  const Simulation simulation = Load(
      R"(<VoxelGridLoader name="grid" filename="image.raw" header="2" resolution="3 2 2"
                    voxelSize="0.5 1 2" bgValue="0"/>)");
  const ObjectModel& object = simulation.objects().at(0);
  // 18 grid points (i, j, k), in k, j, i order: k=0: (1,0) (2,0) (1,1) (2,1); k=1: (1,0) (2,0)
  // (1,1) (2,1) (3,1) (2,2) (3,2); k=2: the same seven. Each at (0.5 i, j, 2 k).
  EXPECT_THAT(Values(object.position),
              ElementsAre(0.5, 0, 0, 1, 0, 0, 0.5, 1, 0, 1, 1, 0,                                 //
                          0.5, 0, 2, 1, 0, 2, 0.5, 1, 2, 1, 1, 2, 1.5, 1, 2, 1, 2, 2, 1.5, 2, 2,  //
                          0.5, 0, 4, 1, 0, 4, 0.5, 1, 4, 1, 1, 4, 1.5, 1, 4, 1, 2, 4, 1.5, 2, 4));
  ASSERT_NE(object.topology, nullptr);
  // Voxel (1,0,0): points (1,0,0)=0 (2,0,0)=1 (2,1,0)=3 (1,1,0)=2, then k=1: 4 5 7 6.
  // Voxel (1,0,1): 4 5 7 6, then k=2: (1,0,2)=11 (2,0,2)=12 (2,1,2)=14 (1,1,2)=13.
  // Voxel (2,1,1): (2,1,1)=7 (3,1,1)=8 (3,2,1)=10 (2,2,1)=9, then k=2: 14 15 17 16.
  EXPECT_THAT(object.topology->hexahedra, ElementsAre(Hexahedron{0, 1, 3, 2, 4, 5, 7, 6},
                                                      Hexahedron{4, 5, 7, 6, 11, 12, 14, 13},
                                                      Hexahedron{7, 8, 10, 9, 14, 15, 17, 16}));
}

TEST_F(VoxelGridLoading, DataValueAndRoiSelectOneVoxel) {
  // dataValue wins over bgValue: only voxel 11 (value 9); the same voxel alone in the ROI i ≥ 2
  // (its maximum 9 clamped to the image). Its corners (2..3, 1..2, 1..2) at (0.5 i, j, 2 k).
  for (const char* selection :
       {R"(dataValue="9" bgValue="0")", R"(bgValue="0" ROI="2 0 0 9 9 9")"}) {
    const Simulation simulation =
        Load(std::string(R"(<VoxelGridLoader name="grid" filename="image.raw" header="2" )") +
             R"(resolution="3 2 2" voxelSize="0.5 1 2" )" + selection + "/>");
    const ObjectModel& object = simulation.objects().at(0);
    EXPECT_THAT(Values(object.position), ElementsAre(1, 1, 2, 1.5, 1, 2, 1, 2, 2, 1.5, 2, 2, 1, 1,
                                                     4, 1.5, 1, 4, 1, 2, 4, 1.5, 2, 4))
        << selection;
    EXPECT_THAT(object.topology->hexahedra, ElementsAre(Hexahedron{0, 1, 3, 2, 4, 5, 7, 6}));
  }
}

TEST_F(VoxelGridLoading, WithoutBackgroundEveryVoxelIsAHexahedron) {
  // No dataValue, no bgValue: all 12 voxels, all (3+1)(2+1)(2+1) = 36 grid points; voxel
  // (0,0,0) is points 0 1 5 4 (i + 4 j) and 12 13 17 16 (+ 12 k).
  const Simulation simulation =
      Load(R"(<VoxelGridLoader name="grid" filename="image.raw" header="2" resolution="3 2 2"/>)");
  const ObjectModel& object = simulation.objects().at(0);
  EXPECT_EQ(object.num_points, 36);
  ASSERT_EQ(object.topology->hexahedra.size(), 12u);
  EXPECT_EQ(object.topology->hexahedra[0], (Hexahedron{0, 1, 5, 4, 12, 13, 17, 16}));
  // The last voxel (2,1,1): (2,1,1) = 2 + 4 + 12 = 18.
  EXPECT_EQ(object.topology->hexahedra[11], (Hexahedron{18, 19, 23, 22, 30, 31, 35, 34}));
}

TEST_F(VoxelGridLoading, IdxInRegularGridListsTheActiveVoxels) {
  // The active voxels' indices 1, 7, 11, linked into a FixedProjectiveConstraint as point
  // indices: after one symplectic Euler step from rest (g = −10, h = 0.1) every other point has
  // moved by −g·h² = −0.1 along y, those three have not.
  Simulation simulation = Load(
      R"(<VoxelGridLoader name="grid" filename="image.raw" header="2" resolution="3 2 2"
                    bgValue="0"/>)",
      R"(<FixedProjectiveConstraint indices="@grid.idxInRegularGrid"/>)");
  simulation.Step();
  const Vector x = simulation.position(0);
  const Vector& x0 = simulation.objects().at(0).position;
  std::vector<Index> unmoved;
  for (Index i = 0; i < x.size() / 3; ++i)
    if (x[3 * i + 1] == x0[3 * i + 1]) unmoved.push_back(i);
  EXPECT_THAT(unmoved, ElementsAre(1, 7, 11));
}

TEST_F(VoxelGridLoading, ShortFilesAndOtherFormatsAreRefused) {
  // 3×2×3 voxels need 2 + 18 bytes; the file has 15.
  std::vector<std::string> errors = Errors(
      R"(<VoxelGridLoader name="grid" filename="image.raw" header="2" resolution="3 2 3"/>)");
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("image.raw has 15 bytes (expected at least header 2 + 3×2×3 "
                                   "voxels of one byte)"));
  errors = Errors(R"(<VoxelGridLoader name="grid" filename="image.vtk" resolution="1 1 1"/>)");
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("expected a .raw file"));
  errors = Errors(R"(<VoxelGridLoader name="grid" filename="image.raw" resolution="3 0 2"/>)");
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("'resolution' needs 3 numbers of at least 1"));
}

}  // namespace
}  // namespace fluxion
