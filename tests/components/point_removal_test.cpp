// Points removed alone (SOFA's PointSetTopologyModifier through a TopologicalChangeProcessor's
// pointsToRemove), with the springs of a SpringForceField elsewhere in the scene following as
// SOFA's SpringForceField::applyRemovedPoints does; a REMOVE= line shorter than its count (SOFA
// reads the missing indices as 0); points added inside triangles (ADD= PointsInTriangle).
//
// SOFA's RemovingPointSprings.scn (examples/Component/Topology/Container/Dynamic), worked by hand:
// four fixed points F0..F3 at (i, 2, 0), four hanging points M0..M3 at (2,1,0) (0,1,0) (1,1,0)
// (3,1,0), springs (F, M) = (2,0) (1,2) (3,3) (0,1) (1,0) (0,2). Removing M0 and M1 (sorted
// descending: 1 then 0, each slot taking the then last point):
//  - point 1: the spring (0,1) goes; M3, the last, becomes point 1: (3,3) → (3,1). Points
//    M0 M3 M2;
//  - point 0: the springs (2,0) and (1,0) go; M2, the last, becomes point 0: (1,2) → (1,0) and
//    (0,2) → (0,0). Points M2 M3.
// Left: (1,0) (3,1) (0,0) on the points M2, M3 — each still tied to the fixed point it was.
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class PointRemoval : public testing::QuietTest {};

std::string Hanging(const std::string& points, const std::string& springs,
                    const std::string& processor) {
  return R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="FixedPointNode">
    <MechanicalObject name="dof" position="0 2 0  1 2 0  2 2 0  3 2 0"/>
    <FixedProjectiveConstraint indices="0 1 2 3"/>
  </Node>
  <Node name="MassNode">
    <PointSetTopologyContainer name="container" position=")" +
         points + R"("/>
    <PointSetTopologyModifier name="modifier"/>
    <MechanicalObject name="dof"/>
    <UniformMass name="mass" vertexMass="10"/>
    )" + processor +
         R"(
  </Node>
  <SpringForceField name="springs" object1="@FixedPointNode/dof" object2="@MassNode/dof"
                    spring=")" +
         springs + R"("/>
</Node>)";
}

TEST_F(PointRemoval, RemovedPointsTakeTheirSpringsAlong) {
  Simulation cut = LoadScene(
      Hanging("2 1 0  0 1 0  1 1 0  3 1 0",
              "2 0 100 0 1  1 2 100 0 1  3 3 100 0 1  0 1 100 0 1  1 0 100 0 1  0 2 100 0 1",
              R"(<TopologicalChangeProcessor useDataInputs="true" pointsToRemove="0 1"
                                     timeToRemove="1.2"/>)"));
  const int mass = cut.FindObject("root/MassNode/dof");
  ASSERT_GE(mass, 0);
  // SOFA removes once its time is past timeToRemove: 0.1 added 12 times is 1.2 (to the bit), not
  // past it; the 14th step, from 1.3, removes.
  for (int k = 0; k < 13; ++k) cut.Step();
  ASSERT_EQ(cut.position(mass).size(), 12);
  const Vector x = cut.position(mass), v = cut.velocity(mass);
  cut.Step();
  ASSERT_EQ(cut.position(mass).size(), 6);

  // The reduced scene: points M2, M3 (their state before the step), the springs left.
  Simulation reduced =
      LoadScene(Hanging("1 1 0  3 1 0", "1 0 100 0 1  3 1 100 0 1  0 0 100 0 1", ""));
  reduced.SetPosition(mass, (Vector(6) << x.segment<3>(6), x.segment<3>(9)).finished());
  reduced.SetVelocity(mass, (Vector(6) << v.segment<3>(6), v.segment<3>(9)).finished());
  reduced.Step();
  EXPECT_TRUE(cut.position(mass) == reduced.position(mass));
  EXPECT_TRUE(cut.velocity(mass) == reduced.velocity(mass));
  for (int k = 0; k < 20; ++k) {
    cut.Step();
    reduced.Step();
  }
  EXPECT_TRUE(cut.position(mass) == reduced.position(mass));
  EXPECT_TRUE(cut.velocity(mass) == reduced.velocity(mass));
  // M3 (now point 1) hangs from F3 alone, straight below it; M2 swings between F0 and F1.
  EXPECT_EQ(cut.position(mass)[3], 3.0);
  EXPECT_LT(cut.position(mass)[1], 1.0);
}

TEST_F(PointRemoval, SpringsGivenAsIndexListsAreRefused) {
  std::string scene = Hanging("2 1 0  0 1 0", "", R"(<TopologicalChangeProcessor
      useDataInputs="true" pointsToRemove="0" timeToRemove="1.2"/>)");
  scene.replace(scene.find(R"(spring="")"), 9, R"(indices1="0 1" indices2="0 1")");
  testing::ExpectSceneError(scene, "needs its springs in 'spring'");
}

// A REMOVE= line with fewer indices than it announces: SOFA's stream reads the missing ones as
// 0, so "REMOVE= 3 / 5" removes triangles 5 and 0 (0 once), as "REMOVE= 2 / 5 0" does; a warning
// names the line.
TEST_F(PointRemoval, AShortRemoveLineReadsTheMissingIndicesAsZero) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_point_removal_test";
  std::filesystem::create_directories(folder);
  const auto run = [&](const std::string& process) {
    std::ofstream(folder / "process.txt") << process;
    Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <TriangleSetTopologyContainer name="topo" position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0
      0 2 0  1 2 0  2 2 0" triangles="0 1 4  0 4 3  1 2 5  1 5 4  3 4 7  3 7 6  4 5 8  4 8 7"/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass massDensity="2"/>
  <MeshSpringForceField stiffness="100" damping="0.5"/>
  <FixedProjectiveConstraint indices="6 8"/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)",
                                      (folder / "cloth.scn").string());
    for (int k = 0; k < 10; ++k) simulation.Step();
    return simulation;
  };
  ExpectWarnings(1);
  const Simulation short_line = run("T= 0.05\nREMOVE= 3\n5\n");
  const Simulation written = run("T= 0.05\nREMOVE= 2\n5 0\n");
  EXPECT_EQ(short_line.model().objects[0].topology->triangles.size(), 6u);
  EXPECT_EQ(short_line.model().objects[0].topology->triangles,
            written.model().objects[0].topology->triangles);
  EXPECT_TRUE(short_line.position(0) == written.position(0));
  std::filesystem::remove_all(folder);
}

// ADD= PointsInTriangle (SOFA's AddingPointInTriangleProcess.scn, its first line): point 5 in
// triangle 1 (1 2 4) at (0.33, 0.33), point 6 in triangle 0 (0 1 4) at (0.4, 0.25). Without
// forces each point moves at its own constant velocity, so a new point, given the weighted sums
// of its ancestors' positions and velocities when it is added, stays at the weighted sum of
// their positions ever after: x_5 = 0.33·x_1 + 0.33·x_2 + 0.34·x_4, x_6 = 0.4·x_0 + 0.25·x_1 +
// 0.35·x_4. UniformMass given totalMass = 1 on 5 points keeps 0.2 per point (SOFA's
// updateMassOnResize): 1.4 on 7.
TEST_F(PointRemoval, PointsAddedInTrianglesAreTheirAncestorsWeightedSums) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_points_in_triangle_test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.02\n  ADD= PointsInTriangle 2\n"
                                           "1 0.33 0.33 0 0.4 0.25\n";
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver symplectic="1"/>
  <TriangleSetTopologyContainer name="mesh" position="0 0 20  10 0 20  20 0 20  0 10 20  10 10 20"
                                triangles="0 1 4  1 2 4  0 4 3"/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs" position="@mesh.position"
      velocity="1 0 0  0 2 0  0 0 3  -1 1 0  0.5 0.5 -2"/>
  <UniformMass name="mass" totalMass="1.0"/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)",
                                    (folder / "scene.scn").string());
  for (int k = 0; k < 2; ++k) simulation.Step();
  ASSERT_EQ(simulation.position(0).size(), 15);
  for (int k = 0; k < 10; ++k) simulation.Step();
  ASSERT_EQ(simulation.position(0).size(), 21);
  const Vector x = simulation.position(0), v = simulation.velocity(0);
  const auto p = [&](const Vector& values, int i) {
    return Eigen::Vector3d(values.segment<3>(3 * i));
  };
  for (const Vector* values : {&x, &v}) {
    EXPECT_NEAR(
        (p(*values, 5) - (0.33 * p(*values, 1) + 0.33 * p(*values, 2) + 0.34 * p(*values, 4)))
            .norm(),
        0.0, 1e-12);
    EXPECT_NEAR(
        (p(*values, 6) - (0.4 * p(*values, 0) + 0.25 * p(*values, 1) + 0.35 * p(*values, 4)))
            .norm(),
        0.0, 1e-12);
  }
  EXPECT_NE(p(x, 5), Eigen::Vector3d(13.3, 3.4, 20));  // it moved
  EXPECT_EQ(simulation.model().objects[0].topology->points.size(), 7u);
  EXPECT_EQ(simulation.model().objects[0].topology->triangles.size(), 3u);
  const SparseMatrix mass = simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  EXPECT_NEAR(Eigen::MatrixXd(mass).sum() / 3, 1.4, 1e-12);
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace fluxion
