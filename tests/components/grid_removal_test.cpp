// Hexahedra removed from a HexahedronSetTopologyContainer fed by a RegularGridTopology, as in
// SOFA's HexahedronForceFieldTopologyChangeHandling.scn (examples/Component/Topology/Container/
// Dynamic): the container takes the grid's points, edges, quads and hexahedra (SOFA's class has
// no triangles: HexahedronSet < QuadSet < EdgeSet), and the grid's edges are those of its quads'
// triangulation, diagonals included (GridTopology::updateEdges). No hexahedron has a diagonal,
// so a removal finds none isolated; one on a removed point goes with it.
//
// Worked by hand on a grid of 3×3×2 points (point (x, y, z) = x + 3y + 9z, hexahedron (x, y, 0)
// = x + 2y, vertices (x,y,z) (x+1,y,z) (x+1,y+1,z) (x,y+1,z) then the same at z+1):
//  - before: 18 points, 33 grid lines + 20 quads (8 along xy, 6 along xz, 6 along yz) and their
//    20 diagonals = 53 edges, 4 hexahedra, no triangle;
//  - removing hexahedra 0 and 1 (the row y = 0; 1 then 0, hexahedron 3 into slot 1, 2 into 0)
//    frees the 6 points with y = 0 (11, 10, 9, 2, 1, 0, each slot taking the then last point:
//    17, 16, 15, 14, 13, 12), and the 9 quads of the row that hexahedra 2 and 3 do not have;
//  - after: 12 points, 2 hexahedra, 11 quads, 20 lines + 11 diagonals = 31 edges.
#include <gmock/gmock.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using testing::LoadScene;

class GridRemoval : public testing::QuietTest {};

TEST_F(GridRemoval, ARowOfAGridGoesWithItsFacesEdgesDiagonalsAndPoints) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_grid_hexahedron_removal_test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\n  REMOVE= 2\n0 1\n";
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver symplectic="1"/>
  <RegularGridTopology name="grid" n="3 3 2" min="0 0 0" max="2 2 1"/>
  <Node name="cube">
    <MechanicalObject name="dofs" src="@../grid"/>
    <HexahedronSetTopologyContainer name="Container" src="@../grid"/>
    <HexahedronSetTopologyModifier/>
    <UniformMass name="mass" vertexMass="1"/>
    <TopologicalChangeProcessor filename="process.txt"/>
  </Node>
</Node>)",
                                    (folder / "scene.scn").string());
  const Topology& before = *simulation.model().objects[0].topology;
  EXPECT_EQ(before.points.size(), 18u);
  EXPECT_EQ(before.edges.size(), 53u);
  EXPECT_EQ(before.triangles.size(), 0u);
  EXPECT_EQ(before.quads.size(), 20u);
  EXPECT_EQ(before.hexahedra.size(), 4u);

  for (int k = 0; k < 3; ++k) simulation.Step();
  const Topology& after = *simulation.model().objects[0].topology;
  ASSERT_EQ(after.points.size(), 12u);
  EXPECT_EQ(after.edges.size(), 31u);
  EXPECT_EQ(after.triangles.size(), 0u);
  EXPECT_EQ(after.quads.size(), 11u);
  using Hexahedron = std::array<Index, 8>;
  // Hexahedron 2 (3 4 7 6 12 13 16 15) and 3 (4 5 8 7 13 14 17 16), renamed 12→0, 13→1, 15→9,
  // 16→10, 17→11.
  EXPECT_THAT(after.hexahedra, ElementsAre(Hexahedron{3, 4, 7, 6, 0, 1, 10, 9},
                                           Hexahedron{4, 5, 8, 7, 1, 2, 11, 10}));
  // Every edge left is a side or a face diagonal of a remaining hexahedron.
  for (const auto& edge : after.edges)
    EXPECT_TRUE(std::any_of(after.hexahedra.begin(), after.hexahedra.end(),
                            [&](const auto& h) {
                              return std::count(h.begin(), h.end(), edge[0]) == 1 &&
                                     std::count(h.begin(), h.end(), edge[1]) == 1;
                            }))
        << edge[0] << " " << edge[1];
  // Nothing moves (no force, no velocity): point 0 is the old point 12 at (0, 1, 1), point 11
  // the old 17 at (2, 2, 1), point 3 stays (0, 1, 0).
  const Vector x = simulation.position(0);
  ASSERT_EQ(x.size(), 36);
  EXPECT_EQ(Eigen::Vector3d(x.segment<3>(0)), Eigen::Vector3d(0, 1, 1));
  EXPECT_EQ(Eigen::Vector3d(x.segment<3>(33)), Eigen::Vector3d(2, 2, 1));
  EXPECT_EQ(Eigen::Vector3d(x.segment<3>(9)), Eigen::Vector3d(0, 1, 0));
  std::filesystem::remove_all(folder);
}

// Quads removed from a QuadSetTopologyContainer fed by a grid, with a RegularGridSpringForceField
// in the node, as in SOFA's QuadForceFieldTopologyChangeHandling.scn. SOFA's force field walks
// its node's topology only when that is a RegularGridTopology (init: a dynamic_cast of the
// node's mesh topology, here the container): it has no spring, before and after the change.
// Grid of 3×1×2 points (point (x, 0, z) = x + 3z), quads Q0 (0 1 4 3), Q1 (1 2 5 4); edges: 4
// lines along x, 3 along z and the 2 diagonals (0 4), (1 5). Removing Q0 at t = 0.01 frees
// points 3 then 0 (5 into 3, 4 into 0), the edges (0 1), (3 0), (4 3) and the diagonal (0 4).
// Point 2 is fixed; with no spring the others fall freely: symplectic Euler gives
// y_n = −g·dt²·n(n+1)/2 = −0.055 after n = 10 steps (g = 10, dt = 0.01), x and z kept.
TEST_F(GridRemoval, QuadsOfAGridGoWhileItsGridSpringsActOnNothing) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_grid_quad_removal_test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\n  REMOVE= 1\n0\n";
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerExplicitSolver symplectic="1"/>
  <RegularGridTopology name="grid" n="3 1 2" min="0 0 0" max="2 0 1"/>
  <Node name="cloth">
    <MechanicalObject name="dofs" src="@../grid"/>
    <QuadSetTopologyContainer name="Container" src="@../grid"/>
    <QuadSetTopologyModifier/>
    <UniformMass name="mass" vertexMass="1"/>
    <RegularGridSpringForceField name="Springs" stiffness="200" damping="2"/>
    <FixedProjectiveConstraint indices="2"/>
    <TopologicalChangeProcessor filename="process.txt"/>
  </Node>
</Node>)",
                                    (folder / "scene.scn").string());
  // The force field says it acts on nothing: at load, and again at the change's rebuild (which
  // prints nothing but counts it).
  ExpectWarnings(2);
  const Topology& before = *simulation.model().objects[0].topology;
  EXPECT_EQ(before.edges.size(), 9u);
  EXPECT_EQ(before.triangles.size(), 0u);
  EXPECT_EQ(before.quads.size(), 2u);
  for (int k = 0; k < 10; ++k) simulation.Step();
  const Topology& after = *simulation.model().objects[0].topology;
  using Quad = std::array<Index, 4>;
  EXPECT_THAT(after.quads, ElementsAre(Quad{1, 2, 3, 0}));
  EXPECT_EQ(after.edges.size(), 5u);
  const Vector x = simulation.position(0);
  ASSERT_EQ(x.size(), 12);
  const double y = -0.055;
  const auto at = [&](int i) { return Eigen::Vector3d(x.segment<3>(3 * i)); };
  EXPECT_NEAR((at(0) - Eigen::Vector3d(1, y, 1)).norm(), 0.0, 1e-14);  // old point 4
  EXPECT_NEAR((at(1) - Eigen::Vector3d(1, y, 0)).norm(), 0.0, 1e-14);
  EXPECT_EQ(at(2), Eigen::Vector3d(2, 0, 0));                          // fixed
  EXPECT_NEAR((at(3) - Eigen::Vector3d(2, y, 1)).norm(), 0.0, 1e-14);  // old point 5
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace fluxion
