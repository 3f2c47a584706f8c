// LoadOptions::keep_initial_data = false (scene-runner writing CSV rows): the built model drops
// the topologies and the moved objects' initial vectors, and the run is the same to the bit.
#include <gtest/gtest.h>

#include <string>

#include "fluxion/host.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

// A cloth on a grid topology (springs on its edges, two corners fixed) beside a static object
// (no solver above it).
const std::string kScene = R"(
<Node name="root" gravity="0 -9.81 0" dt="1e-4">
  <Node name="cloth">
    <EulerExplicitSolver/>
    <RegularGridTopology n="6 1 6" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs" velocity="0 0.5 0"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 5" activate_projectVelocity="1"/>
    <MeshSpringForceField linesStiffness="100" linesDamping="0.1"/>
  </Node>
  <Node name="ground"><MechanicalObject name="dofs" position="0 -1 0  1 -1 0"/></Node>
</Node>
)";

LoadOptions Releasing() {
  LoadOptions options;
  options.keep_initial_data = false;
  return options;
}

TEST(LoadOptions, ReleasingInitialDataEmptiesTheModelAndChangesNoBit) {
  Simulation kept = testing::TestHost().LoadString(kScene, "cloth.scn");
  Simulation released = testing::TestHost().LoadString(kScene, "cloth.scn", Releasing());
  const int cloth = kept.model().FindObject("root/cloth/dofs");
  const int ground = kept.model().FindObject("root/ground/dofs");
  ASSERT_GE(cloth, 0);
  ASSERT_GE(ground, 0);
  ASSERT_NE(kept.model().objects[static_cast<std::size_t>(cloth)].topology, nullptr);

  // The moved object: no topology, no initial vectors; the static one keeps its state.
  const ObjectModel& moved = released.model().objects[static_cast<std::size_t>(cloth)];
  EXPECT_EQ(moved.topology, nullptr);
  EXPECT_EQ(moved.position.size(), 0);
  EXPECT_EQ(moved.velocity.size(), 0);
  EXPECT_EQ(moved.rest_position.size(), 0);
  EXPECT_EQ(moved.external_force.size(), 0);
  EXPECT_EQ(moved.num_points, 36);
  const ObjectModel& still = released.model().objects[static_cast<std::size_t>(ground)];
  EXPECT_EQ(still.position.size(), 6);

  for (int step = 0; step < 20; ++step) {
    kept.Step();
    released.Step();
  }
  for (const int k : {cloth, ground}) {
    EXPECT_EQ(Vector(released.position(k)), Vector(kept.position(k))) << k;
    EXPECT_EQ(Vector(released.velocity(k)), Vector(kept.velocity(k))) << k;
  }
}

// Observers read the model (exporters its topology, WriteState the rest positions): with one in
// the scene the option is ignored.
TEST(LoadOptions, ObserversKeepTheInitialData) {
  std::string scene = kScene;
  const std::string spring_field = "<MeshSpringForceField";
  scene.insert(scene.find(spring_field), R"(<Monitor indices="0"/>)");
  Simulation simulation = testing::TestHost().LoadString(scene, "cloth.scn", Releasing());
  const ObjectModel& cloth = simulation.model().objects.front();
  EXPECT_NE(cloth.topology, nullptr);
  EXPECT_EQ(cloth.rest_position.size(), cloth.num_dofs());
}

}  // namespace
}  // namespace fluxion
