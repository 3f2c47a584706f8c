// Additions of triangles followed in place while the collision pipeline reads the changing mesh
// (build/addition_in_place.h with build/in_place_collision.h: the models re-read the container
// after the addition, as SOFA's do through updateFromTopology), against the rebuild of the scene
// (FLUXION_TOPOLOGY_REBUILD=1: a scene built again from the grown mesh, with a fresh detection).
//
// collision_in_place_test.cpp's scene with a membrane instead of springs (SOFA's SpringForceField
// has no handler for added edges: springs refuse additions): a 7 × 7 cloth (point i + 7j at
// (i, j, 0), cell (i, j) cut into triangles 2c = (p, p+1, p+8) and 2c + 1 = (p, p+8, p+7),
// c = i + 6j, p = i + 7j), held at its corners 42 and 48, falls onto a static floor triangle at
// z = −0.2 with a static stud under each cell. Cells (2, 2) and (3, 4) are removed before it
// lands (t = 0.05), (2, 2) put back while it lies on the floor (t = 0.3: its points meet the
// floor, its triangles the studs), and triangles put on cell (3, 4) with the other diagonal
// (t = 0.35).
#include <gmock/gmock.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>

#include "support/cloth_grid.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class AdditionCollisionInPlace : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

constexpr int kSide = 7;

std::string Studs() {
  std::string text;
  for (int j = 0; j + 1 < kSide; ++j)
    for (int i = 0; i + 1 < kSide; ++i)
      text += std::to_string(i) + ".4 " + std::to_string(j) + ".6 -0.19  ";
  return text;
}

std::string Scene() {
  const auto [points, triangles] = testing::ClothGrid(kSide);
  return R"(<Node name="root" dt="0.01" gravity="0 0 -9.81">
  <CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.1" contactDistance="0.02"/>
  <CollisionResponse response="PenalityContactForceField"/>
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="300" tolerance="1e-14" threshold="1e-30"/>
  <Node name="floor">
    <MeshTopology position="-10 -10 -0.2  20 -10 -0.2  -10 20 -0.2" triangles="0 1 2"/>
    <MechanicalObject/>
    <TriangleCollisionModel moving="0" simulated="0" contactStiffness="50"/>
    <LineCollisionModel moving="0" simulated="0" contactStiffness="50"/>
  </Node>
  <Node name="studs">
    <MechanicalObject position=")" +
         Studs() + R"("/>
    <PointCollisionModel moving="0" simulated="0" contactStiffness="50"/>
  </Node>
  <Node name="cloth">
    <TriangleSetTopologyContainer name="topo" position=")" +
         points + R"(" triangles=")" + triangles + R"("/>
    <TriangleSetTopologyModifier/>
    <MechanicalObject name="dofs"/>
    <DiagonalMass name="mass" massDensity="0.5"/>
    <TriangularFEMForceField name="membrane" youngModulus="200" poissonRatio="0.3" method="large"/>
    <FixedProjectiveConstraint name="fix" indices="42 48"/>
    <TriangleCollisionModel contactStiffness="50"/>
    <LineCollisionModel contactStiffness="50"/>
    <PointCollisionModel contactStiffness="50"/>
    <TopologicalChangeProcessor filename="process.txt"/>
  </Node>
</Node>)";
}

// Cell (i, j)'s two triangles, as vertex triples: (p, p+1, p+8) and (p, p+8, p+7); with
// `other_diagonal`, (p, p+1, p+7) and (p+1, p+8, p+7).
std::string CellTriangles(int i, int j, bool other_diagonal) {
  const int p = i + kSide * j;
  const auto text = [](std::initializer_list<int> v) {
    std::string out;
    for (const int k : v) out += std::to_string(k) + " ";
    return out;
  };
  return other_diagonal ? text({p, p + 1, p + kSide, p + 1, p + kSide + 1, p + kSide})
                        : text({p, p + 1, p + kSide + 1, p, p + kSide + 1, p + kSide});
}

TEST_F(AdditionCollisionInPlace, AdditionsInContactGiveTheRebuildsBitsEveryStep) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_addition_collision_in_place";
  std::filesystem::create_directories(folder);
  const auto cell = [](int i, int j) {
    const int c = i + (kSide - 1) * j;
    return std::to_string(2 * c) + " " + std::to_string(2 * c + 1);
  };
  std::ofstream(folder / "process.txt")
      << "T= 0.05\nREMOVE= 4\n"
      << cell(2, 2) << " " << cell(3, 4) << "\nT= 0.3\nADD= Triangles 2\n"
      << CellTriangles(2, 2, false) << "\nT= 0.35\nADD= Triangles 2\n"
      << CellTriangles(3, 4, true) << "\n";
  const std::string xml = Scene();
  const std::string file = (folder / "cloth.scn").string();
  setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  Simulation rebuilt = LoadScene(xml, file);
  unsetenv("FLUXION_TOPOLOGY_REBUILD");
  Simulation in_place = LoadScene(xml, file);
  const int cloth = static_cast<int>(in_place.model().objects.size()) - 1;
  std::size_t most_contacts = 0;
  int kept = 0;
  for (int k = 0; k < 45; ++k) {
    const double* before = in_place.position(cloth).data();
    in_place.Step();
    rebuilt.Step();
    kept += in_place.position(cloth).data() == before ? 1 : 0;
    ASSERT_TRUE(in_place.position(cloth) == rebuilt.position(cloth)) << "step " << k + 1;
    ASSERT_TRUE(in_place.velocity(cloth) == rebuilt.velocity(cloth)) << "step " << k + 1;
    ASSERT_EQ(in_place.contacts().size(), rebuilt.contacts().size()) << "step " << k + 1;
    most_contacts = std::max(most_contacts, in_place.contacts().size());
  }
  // Every step kept the state: the removal and both additions were followed in place.
  EXPECT_EQ(kept, 45);
  EXPECT_EQ(in_place.model().objects[static_cast<std::size_t>(cloth)].topology->triangles.size(),
            72u);
  EXPECT_GT(most_contacts, 0u) << "the cloth never reached the floor";
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace fluxion
