// Removals of points (PointSetTopologyModifier) followed in place (build/point_in_place.h),
// against the rebuild of the scene (FLUXION_TOPOLOGY_REBUILD=1: built again from the reduced
// points, the reference). The scene is SOFA's RemovingPointSprings.scn grown: four fixed anchors
// in one node, a row of eight free points of 10 kg in another (PointSetTopologyContainer,
// UniformMass), a SpringForceField from the anchors to the row and one along the row (both its
// ends on the changing object; SOFA's applyRemovedPoints erases the springs on a removed point
// and renames the moved one's, which the rebuild's spring records and the in-place field follow),
// point 7 held by a FixedProjectiveConstraint. Points 0 and 1 go at t = 0.3 (SOFA's order: 1 takes
// point 7, then 0 takes point 6), point 2 at 0.6.
#include <gmock/gmock.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class PointInPlace : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

constexpr const char* kScene = R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="300" tolerance="1e-14" threshold="1e-30"/>
  <Node name="anchors">
    <MechanicalObject name="dof" position="0 2 0  2 2 0  4 2 0  6 2 0"/>
    <FixedProjectiveConstraint indices="0 1 2 3"/>
  </Node>
  <Node name="row">
    <PointSetTopologyContainer name="container"
        position="0 1 0  1 1 0  2 1 0  3 1 0  4 1 0  5 1 0  6 1 0  7 1 0"/>
    <PointSetTopologyModifier/>
    <MechanicalObject name="dof"/>
    <UniformMass name="mass" vertexMass="10"/>
    <FixedProjectiveConstraint name="fix" indices="7"/>
    <TopologicalChangeProcessor filename="process.txt"/>
  </Node>
  <SpringForceField name="chain" object1="@row/dof" object2="@row/dof" spring="
      0 1 80 0.5 1  1 2 80 0.5 1  2 3 80 0.5 1  3 4 80 0.5 1
      4 5 80 0.5 1  5 6 80 0.5 1  6 7 80 0.5 1"/>
  <SpringForceField name="hangers" object1="@anchors/dof" object2="@row/dof" spring="
      0 0 100 0 1  0 1 100 0 1.2  1 2 100 0 1  1 3 100 0 1.2
      2 4 100 0 1  2 5 100 0 1.2  3 6 100 0 1  3 7 100 0 1"/>
</Node>)";

struct RowRun {
  std::vector<Vector> x, v;
  std::vector<bool> state_kept;  // per step: the row's state buffer is the one before the step
  Simulation simulation;
};

RowRun RunScene(const std::string& file, int steps, bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
  RowRun run{{}, {}, {}, LoadScene(kScene, file)};
  for (int k = 0; k < steps; ++k) {
    const double* before = run.simulation.position(1).data();
    run.simulation.Step();
    run.state_kept.push_back(run.simulation.position(1).data() == before);
    run.x.push_back(run.simulation.position(1));
    run.v.push_back(run.simulation.velocity(1));
  }
  return run;
}

TEST_F(PointInPlace, GivesTheBitsOfTheRebuildAtEveryStep) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_point_in_place_test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.3\nREMOVE= 2\n0 1\nT= 0.6\nREMOVE= 1\n2\n";
  const std::string file = (folder / "row.scn").string();
  constexpr int steps = 12;
  const RowRun in_place = RunScene(file, steps, false);
  const RowRun rebuilt = RunScene(file, steps, true);
  std::filesystem::remove_all(folder);

  for (std::size_t k = 0; k < steps; ++k) {
    ASSERT_TRUE(in_place.x[k] == rebuilt.x[k]) << "step " << k + 1;
    ASSERT_TRUE(in_place.v[k] == rebuilt.v[k]) << "step " << k + 1;
  }
  // In place at both changes (the rebuild replaced the state at each).
  EXPECT_EQ(std::count(in_place.state_kept.begin(), in_place.state_kept.end(), false), 0);
  EXPECT_EQ(std::count(rebuilt.state_kept.begin(), rebuilt.state_kept.end(), false), 2);
  // Five points left. Point 7 (held at (7, 1, 0)) became point 1 at 0.3, then kept its number
  // when point 2 took point 4 at 0.6: it is still held where it started.
  ASSERT_EQ(in_place.x.back().size(), 15u);
  EXPECT_EQ(in_place.x.back()[3], 7.0);
  EXPECT_EQ(in_place.x.back()[4], 1.0);
  EXPECT_EQ(in_place.v.back().segment(3, 3).norm(), 0.0);
  // The mass: 10 kg on each of the five points.
  const SparseMatrix mass =
      in_place.simulation.ComponentMatrix("root/row/mass", ComponentMatrixKind::kMass);
  EXPECT_DOUBLE_EQ(mass.sum() / 3.0, 50.0);
}

}  // namespace
}  // namespace fluxion
