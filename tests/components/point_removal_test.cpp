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

// The triangle mesh of SOFA's AddingPointInTriangleProcess.scn with a velocity per point and
// no force: symplectic Euler moves each point by dt·v per step, so at t = 0.12 (12 steps of
// dt = 0.01) a point is at x(0) + 0.12·v. A change of the process file at T= 0.02 is made at
// the start of the third step (SOFA's processor acts on AnimateBeginEvent, at t = 0.02).
std::string MovingTriangles(const std::string& process_file) {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver symplectic="1"/>
  <TriangleSetTopologyContainer name="mesh" position="0 0 20  10 0 20  20 0 20  0 10 20  10 10 20"
                                triangles="0 1 4  1 2 4  0 4 3"/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs" position="@mesh.position"
      velocity="1 0 0  0 2 0  0 0 3  -1 1 0  0.5 0.5 -2"/>
  <UniformMass name="mass" totalMass="1.0"/>
  <TopologicalChangeProcessor filename=")" +
         process_file + R"("/>
</Node>)";
}

// Runs MovingTriangles with `process` as its process file: the point count after 2 and 3
// steps, then the positions and velocities after 12.
struct MovingRun {
  Index points_after_2 = 0, points_after_3 = 0;
  Vector x, v;
  double total_mass = 0;
  Vector mass_diagonal;
};

MovingRun RunMovingTriangles(const std::string& name, const std::string& process) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / name;
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << process;
  Simulation simulation =
      LoadScene(MovingTriangles("process.txt"), (folder / "scene.scn").string());
  MovingRun run;
  for (int k = 0; k < 2; ++k) simulation.Step();
  run.points_after_2 = simulation.position(0).size() / 3;
  simulation.Step();
  run.points_after_3 = simulation.position(0).size() / 3;
  for (int k = 3; k < 12; ++k) simulation.Step();
  run.x = simulation.position(0);
  run.v = simulation.velocity(0);
  const Eigen::MatrixXd mass =
      Eigen::MatrixXd(simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass));
  run.total_mass = mass.sum() / 3;
  run.mass_diagonal = mass.diagonal();
  std::filesystem::remove_all(folder);
  return run;
}

void ExpectPoint(const Vector& values, int i, const Eigen::Vector3d& expected) {
  EXPECT_NEAR((Eigen::Vector3d(values.segment<3>(3 * i)) - expected).norm(), 0.0, 1e-12)
      << "point " << i << ": " << values.segment<3>(3 * i).transpose() << " (expected "
      << expected.transpose() << ")";
}

// ADD= PointsInTriangle (SOFA's AddingPointInTriangleProcess.txt, its first line): point 5 in
// triangle 1 (1 2 4) at (0.33, 0.33), point 6 in triangle 0 (0 1 4) at (0.4, 0.25); SOFA's
// coefficients are (c0, c1, 1 − c0 − c1) on the triangle's vertices in order. By hand, at
// t = 0.02 (the weighted sums are those of the points' starts: the motion is linear):
//   x5 = 0.33·(10,0,20) + 0.33·(20,0,20) + 0.34·(10,10,20) = (13.3, 3.4, 20),
//   v5 = 0.33·(0,2,0) + 0.33·(0,0,3) + 0.34·(0.5,0.5,-2) = (0.17, 0.83, 0.31),
//   x6 = 0.4·(0,0,20) + 0.25·(10,0,20) + 0.35·(10,10,20) = (6, 3.5, 20),
//   v6 = 0.4·(1,0,0) + 0.25·(0,2,0) + 0.35·(0.5,0.5,-2) = (0.575, 0.675, -0.7);
// at t = 0.12: x5 = (13.3204, 3.4996, 20.0372), x6 = (6.069, 3.581, 19.916). The old points are
// untouched: x1 = (10, 0.24, 20). UniformMass given totalMass = 1 on 5 points has vertexMass
// 0.2 and keeps it when points come (SOFA's updateMassOnResize, preserveTotalMass false): 0.2
// per point on the 7, 1.4 in all.
TEST_F(PointRemoval, PointsAddedInTrianglesAreTheirAncestorsWeightedSums) {
  const MovingRun run = RunMovingTriangles("fluxion_points_in_triangle_test",
                                           "T= 0.02\n  ADD= PointsInTriangle 2\n"
                                           "1 0.33 0.33 0 0.4 0.25\n");
  EXPECT_EQ(run.points_after_2, 5);
  ASSERT_EQ(run.points_after_3, 7);
  ExpectPoint(run.x, 5, {13.3204, 3.4996, 20.0372});
  ExpectPoint(run.v, 5, {0.17, 0.83, 0.31});
  ExpectPoint(run.x, 6, {6.069, 3.581, 19.916});
  ExpectPoint(run.v, 6, {0.575, 0.675, -0.7});
  ExpectPoint(run.x, 1, {10, 0.24, 20});
  EXPECT_NEAR(run.total_mass, 1.4, 1e-12);
  for (Index k = 0; k < run.mass_diagonal.size(); ++k)
    EXPECT_NEAR(run.mass_diagonal[k], 0.2, 1e-15) << k;
}

// A removal that frees a point of an object whose velocity the scene lists per point (the
// rebuild once read that list against the reduced positions and refused it). Removing triangle
// 1 (1 2 4) frees point 2; the last point, 4, takes its slot (SOFA's removePointsWarning). By
// hand at t = 0.12: x0 = (0.12, 0, 20), x1 = (10, 0.24, 20), x2 = old point 4 =
// (10, 10, 20) + 0.12·(0.5, 0.5, -2) = (10.06, 10.06, 19.76), x3 = (-0.12, 10.12, 20);
// UniformMass keeps 0.2 per point: 0.8 on the 4.
TEST_F(PointRemoval, AFreedPointOfAnObjectWithListedVelocitiesGoesWithItsVelocity) {
  const MovingRun run =
      RunMovingTriangles("fluxion_points_listed_velocity_test", "T= 0.02\n  REMOVE= 1\n1\n");
  EXPECT_EQ(run.points_after_2, 5);
  ASSERT_EQ(run.points_after_3, 4);
  ExpectPoint(run.x, 0, {0.12, 0, 20});
  ExpectPoint(run.x, 1, {10, 0.24, 20});
  ExpectPoint(run.x, 2, {10.06, 10.06, 19.76});
  ExpectPoint(run.v, 2, {0.5, 0.5, -2});
  ExpectPoint(run.x, 3, {-0.12, 10.12, 20});
  EXPECT_NEAR(run.total_mass, 0.8, 1e-12);
}

}  // namespace
}  // namespace fluxion
