// Removals of triangles followed in place while the collision pipeline reads the changing mesh
// (build/in_place_collision.h), against the rebuild of the scene (FLUXION_TOPOLOGY_REBUILD=1, the
// reference: a scene built again from the reduced mesh, with a fresh detection).
//
// The cloth is topology_in_place_test.cpp's 7 × 7 grid (point i + 7j at (i, j, 0), cell (i, j)
// cut into triangles 2c and 2c + 1, c = i + 6j), held at its corners 42 and 48 (row j = 6) and
// falling along −z onto a static floor triangle at z = −0.2 with a stud (a static point) under
// each cell: under MinProximityIntersection the cloth's points meet the floor's triangle, the
// cloth's triangles the studs, the cloth's lines the floor's lines. Cells are removed before the
// cloth reaches the floor (0.05, 0.1) and while it lies on it (0.3: a corner cell, which frees
// points 0 and 1 — the contacts of the removed points must go, the others' DOFs stay; 0.35: an
// interior cell).
#include <gmock/gmock.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/cloth_grid.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class CollisionInPlace : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

constexpr int kSide = 7;

std::string Cell(int i, int j) {
  const int c = i + (kSide - 1) * j;
  return std::to_string(2 * c) + " " + std::to_string(2 * c + 1);
}

// Static points on the floor under the middle of every cell, which the cloth's triangles meet.
std::string Studs() {
  std::string text;
  for (int j = 0; j + 1 < kSide; ++j)
    for (int i = 0; i + 1 < kSide; ++i)
      text += std::to_string(i) + ".4 " + std::to_string(j) + ".6 -0.19  ";
  return text;
}

std::string Scene(const std::string& cloth_models) {
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
    <MeshSpringForceField name="springs" stiffness="100" damping="0.5"/>
    <FixedProjectiveConstraint name="fix" indices="42 48"/>
    )" + cloth_models +
         R"(
    <TopologicalChangeProcessor filename="process.txt"/>
  </Node>
</Node>)";
}

struct Run {
  std::vector<Vector> x, v;
  std::vector<std::size_t> contacts;
  std::vector<bool> state_kept;  // per step: the state's buffer is the one before the step
};

Run RunScene(const std::string& xml, const std::string& file, int steps, bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
  Simulation simulation = LoadScene(xml, file);
  const int cloth = static_cast<int>(simulation.model().objects.size()) - 1;
  Run run;
  for (int k = 0; k < steps; ++k) {
    const double* before = simulation.position(cloth).data();
    simulation.Step();
    run.state_kept.push_back(simulation.position(cloth).data() == before);
    run.x.push_back(simulation.position(cloth));
    run.v.push_back(simulation.velocity(cloth));
    run.contacts.push_back(simulation.contacts().size());
  }
  return run;
}

// `folder_name`: each test its own (ctest runs the tests of this file side by side).
void ExpectSameRuns(const std::string& models, const std::string& folder_name) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / folder_name;
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.05\nREMOVE= 2\n"
                                        << Cell(2, 2) << "\nT= 0.1\nREMOVE= 2\n"
                                        << Cell(1, 0) << "\nT= 0.3\nREMOVE= 2\n"
                                        << Cell(0, 0) << "\nT= 0.35\nREMOVE= 2\n"
                                        << Cell(3, 4) << "\n";
  const std::string xml = Scene(models);
  const std::string file = (folder / "cloth.scn").string();
  constexpr int steps = 45;
  const Run in_place = RunScene(xml, file, steps, false);
  const Run rebuilt = RunScene(xml, file, steps, true);
  std::filesystem::remove_all(folder);

  for (std::size_t k = 0; k < steps; ++k) {
    ASSERT_TRUE(in_place.x[k] == rebuilt.x[k]) << "step " << k + 1;
    ASSERT_TRUE(in_place.v[k] == rebuilt.v[k]) << "step " << k + 1;
    ASSERT_EQ(in_place.contacts[k], rebuilt.contacts[k]) << "step " << k + 1;
  }
  // The cloth touches the floor before the last two removals and after them.
  EXPECT_GT(in_place.contacts[28], 0u);
  EXPECT_GT(in_place.contacts[steps - 1], 0u);
  // Followed in place: the state's buffer was kept at each change (the rebuild replaced it at
  // each of the four), the corner's points 0 and 1 removed from it.
  EXPECT_EQ(std::count(in_place.state_kept.begin(), in_place.state_kept.end(), false), 0);
  EXPECT_EQ(std::count(rebuilt.state_kept.begin(), rebuilt.state_kept.end(), false), 4);
  EXPECT_EQ(in_place.x.back().size(), static_cast<std::size_t>((kSide * kSide - 2) * 3));
}

TEST_F(CollisionInPlace, TriangleAndPointModelsGiveTheRebuildsContactsAndBits) {
  ExpectSameRuns(R"(<TriangleCollisionModel/> <PointCollisionModel/>)",
                 "fluxion_collision_in_place_triangles");
}

// The cloth's lines read the topology's edges (the lines of removed edges go, the last edge's
// line takes each freed slot, as the container's edges do); they meet the floor's lines.
TEST_F(CollisionInPlace, LineModelFollowsTheEdges) {
  ExpectSameRuns(R"(<LineCollisionModel/> <PointCollisionModel/>)",
                 "fluxion_collision_in_place_lines");
}

}  // namespace
}  // namespace fluxion
