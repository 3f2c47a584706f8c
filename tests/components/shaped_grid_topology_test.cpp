// SOFA's CylinderGridTopology and SphereGridTopology (components/{cylinder,sphere}_grid_topology,
// mechanics/shaped_grids.cpp): points checked against SOFA's getPointInGrid worked by hand.
#include <gmock/gmock.h>

#include <cmath>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

const ObjectModel& Object(const Simulation& simulation) { return simulation.objects().at(0); }

std::array<double, 3> Point(const ObjectModel& object, Index i) {
  return {object.position[3 * i], object.position[3 * i + 1], object.position[3 * i + 2]};
}

std::string Scene(const std::string& topology) {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + topology +
         R"(
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
</Node>)";
}

class ShapedGrids : public testing::QuietTest {};

TEST_F(ShapedGrids, CylinderPointsAsSofaPlacesThem) {
  const Simulation simulation =
      LoadScene(Scene(R"(<CylinderGridTopology n="3 3 2" radius="2" length="4" center="1 0 0"/>)"));
  const ObjectModel& object = Object(simulation);
  ASSERT_EQ(object.num_points, 18);
  const double s = std::sqrt(2.0);
  // (i, j) = (0, 0): the square's corner (−2, −2) pulled onto the circle: (−√2, −√2).
  EXPECT_THAT(Point(object, 0), ElementsAre(DoubleNear(1 - s, 1e-15), DoubleNear(-s, 1e-15), 0));
  EXPECT_THAT(Point(object, 4), ElementsAre(1, 0, 0));    // (1, 1): the axis
  EXPECT_THAT(Point(object, 10), ElementsAre(1, -2, 4));  // (1, 0, 1): mid-side, top layer
  for (Index i = 0; i < object.num_points; ++i) {
    const auto p = Point(object, i);
    EXPECT_LE(std::hypot(p[0] - 1, p[1]), 2 + 1e-12) << i;
  }
  // The regular grid's elements: (3−1)·(3−1)·(2−1) hexahedra.
  EXPECT_EQ(object.topology->hexahedra.size(), 4u);
}

TEST_F(ShapedGrids, SpherePointsAsSofaPlacesThem) {
  const Simulation simulation = LoadScene(Scene(R"(<SphereGridTopology n="3 3 3" radius="3"/>)"));
  const ObjectModel& object = Object(simulation);
  ASSERT_EQ(object.num_points, 27);
  const double c = std::sqrt(3.0);  // the corner (−3, −3, −3) pulled onto the sphere
  EXPECT_THAT(Point(object, 0),
              ElementsAre(DoubleNear(-c, 1e-15), DoubleNear(-c, 1e-15), DoubleNear(-c, 1e-15)));
  EXPECT_THAT(Point(object, 13), ElementsAre(0, 0, 0));  // the center
  EXPECT_THAT(Point(object, 4), ElementsAre(0, 0, -3));  // the bottom face's center
  EXPECT_EQ(object.topology->hexahedra.size(), 8u);
}

TEST_F(ShapedGrids, AxisTurnsTheFrameAsSofaBuildsIt) {
  // axis x: the frame is x' = (0, 1, 0), y' = (0, 0, 1), z' = (1, 0, 0), so the bottom face's
  // center (0, 0, −3) in grid coordinates lands at (−3, 0, 0).
  const Simulation simulation =
      LoadScene(Scene(R"(<SphereGridTopology n="3 3 3" radius="3" axis="2 0 0"/>)"));
  EXPECT_THAT(Point(Object(simulation), 4), ElementsAre(-3, 0, 0));
}

TEST_F(ShapedGrids, DegenerateSizesAndAxesAreRefused) {
  for (const std::string& bad : {std::string(R"(<CylinderGridTopology n="1 3 3"/>)"),
                                 std::string(R"(<SphereGridTopology n="3 3 1"/>)"),
                                 std::string(R"(<SphereGridTopology axis="0 0 0"/>)"),
                                 std::string(R"(<CylinderGridTopology radius="0"/>)")}) {
    try {
      LoadScene(Scene(bad));
      ADD_FAILURE() << bad;
    } catch (const SceneError& error) {
      EXPECT_EQ(error.diagnostics().size(), 1u) << bad;
    }
  }
}

}  // namespace
}  // namespace fluxion
