// SOFA's BoxROI and BoxConstraint (components/box_roi.cpp, box_region.cpp, box_constraint.cpp):
// selections worked by hand on a 3×3×3 grid on [0, 2]³ (points at 0, 1, 2 on each axis, point
// i + 3j + 9k; hexahedron i + 2j + 4k), and fixed points checked through one symplectic Euler step
// from rest under g = (0, −10, 0), h = 0.1: a free point moves by −g·h² = −0.1 exactly.
#include <gmock/gmock.h>

#include <fstream>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

std::string GridScene(const std::string& components) {
  return R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <RegularGridTopology n="3 3 3" min="0 0 0" max="2 2 2"/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="1"/>
  )" + components +
         "\n</Node>\n";
}

// The points that did not move in one step (the fixed ones).
std::vector<Index> Unmoved(const std::string& components) {
  Simulation simulation = LoadScene(GridScene(components));
  simulation.Step();
  std::vector<Index> fixed;
  const auto x = simulation.position(0);
  for (Index i = 0; i < x.size() / 3; ++i) {
    if (x[3 * i + 1] == simulation.objects()[0].position[3 * i + 1])
      fixed.push_back(i);
    else
      EXPECT_EQ(x[3 * i + 1], simulation.objects()[0].position[3 * i + 1] - 0.1) << i;
  }
  return fixed;
}

class BoxRoi : public testing::QuietTest {};

TEST_F(BoxRoi, PointsInsideABoxAreSelectedBoundsIncluded) {
  EXPECT_THAT(Unmoved(R"(<BoxROI name="box" box="-0.1 -0.1 -0.1  0.1 2.1 2.1"/>
  <FixedProjectiveConstraint indices="@box.indices"/>)"),
              ElementsAre(0, 3, 6, 9, 12, 15, 18, 21, 24));
  // A box whose faces pass through grid points: those points are inside (SOFA: ≤), and a min
  // above its max is swapped.
  EXPECT_THAT(Unmoved(R"(<BoxROI name="box" box="1 1 1  0 0 0"/>
  <FixedProjectiveConstraint indices="@box.indices"/>)"),
              ElementsAre(0, 1, 3, 4, 9, 10, 12, 13));
  // An `indices` written in the scene (SOFA's examples write indices="0") is replaced by the
  // selection, as SOFA recomputes its output.
  EXPECT_THAT(Unmoved(R"(<BoxROI name="box" box="1 1 1  0 0 0" indices="0 2"/>
  <FixedProjectiveConstraint indices="@box.indices"/>)"),
              ElementsAre(0, 1, 3, 4, 9, 10, 12, 13));
}

TEST_F(BoxRoi, ElementsStrictlyInsideOrByTheirCenter) {
  // Strict (SOFA's default): a hexahedron is inside when its 8 points are: only hexahedron 0 in
  // [0, 1]³. By center: the 4 hexahedra of the bottom layer have centers at z = 0.5.
  EXPECT_THAT(Unmoved(R"(<BoxROI name="box" box="0 0 0 1 1 1"/>
  <FixedProjectiveConstraint indices="@box.hexahedronIndices"/>)"),
              ElementsAre(0));
  EXPECT_THAT(Unmoved(R"(<BoxROI name="box" box="0 0 0 2 2 1" strict="0"/>
  <FixedProjectiveConstraint indices="@box.hexahedronIndices"/>)"),
              ElementsAre(0, 1, 2, 3));
}

TEST_F(BoxRoi, OrientedBoxes) {
  // The square with corners (0,0), (1,1), (0,2), (−1,1) (|x| + |y − 1| ≤ 1), 1 deep along z.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 1 0  0.9 1 0  1 0 0  0 1 0.6"/>
  <UniformMass vertexMass="1"/>
  <BoxROI name="box" orientedBox="0 0 0  1 1 0  0 2 0  1"/>
  <FixedProjectiveConstraint indices="@box.indices"/>
</Node>)");
  simulation.Step();
  const auto x = simulation.position(0);
  EXPECT_EQ(x[1], 1.0);
  EXPECT_EQ(x[4], 1.0);
  EXPECT_EQ(x[7], -0.1);
  EXPECT_EQ(x[10], 0.9);
}

TEST_F(BoxRoi, BoxConstraintFixesThePointsInItsBoxes) {
  EXPECT_THAT(Unmoved(R"(<BoxConstraint box="1.5 -1 -1  2.5 0.5 0.5  -1 1.5 1.5  0.5 2.5 2.5"/>)"),
              ElementsAre(2, 24));
  // fixAll (FixedProjectiveConstraint's field, which SOFA's examples give BoxConstraint): 0
  // changes nothing, 1 fixes all 27 points.
  EXPECT_THAT(Unmoved(R"(<BoxConstraint box="1.5 -1 -1  2.5 0.5 0.5" fixAll="0"/>)"),
              ElementsAre(2));
  EXPECT_EQ(Unmoved(R"(<BoxConstraint box="1.5 -1 -1  2.5 0.5 0.5" fixAll="1"/>)").size(), 27u);
}

// A `position` linked to nothing (SOFA's TriangularForceFieldTopologyChangeHandling.scn writes
// position="@../Volume.position" in a scene without that node): SOFA keeps the data set and
// empty (BaseData::setParent), so BaseROI takes no positions from the context and selects
// nothing, with a warning. Fluxion warns at the link's line and selects nothing: no point is
// fixed, every point falls by 0.1. A link to nothing in any other field is still an error.
TEST_F(BoxRoi, APositionLinkedToNothingSelectsNothingWithAWarning) {
  const std::string xml = R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <Node name="body">
    <EulerExplicitSolver/>
    <RegularGridTopology n="3 3 3" min="0 0 0" max="2 2 2"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="1"/>
    <BoxROI name="box" position="@../Volume.position" box="-1 -1 -1  3 3 3"/>
    <FixedProjectiveConstraint indices="@box.indices"/>
  </Node>
</Node>)";
  const std::string scene = ::testing::TempDir() + "box_roi_unresolved_position.scn";
  std::ofstream(scene) << xml;
  const testing::CommandResult run =
      testing::RunCommand(testing::SceneRunner() + " " + scene + " --steps 1 --no-rows");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("box_roi_unresolved_position.scn:7: link '@../Volume' does not "
                                 "resolve: no component 'Volume' in 'root' (expected the name of a "
                                 "component): ignored, as SOFA does: <BoxROI> 'position' stays "
                                 "empty"));
  EXPECT_THAT(run.err, HasSubstr("box_roi_unresolved_position.scn:7: BoxROI has no position"));
  // Every point falls by g·h² = 0.1 (symplectic Euler from rest): none is fixed.
  ExpectWarnings(2);
  Simulation simulation = LoadScene(xml);
  const Vector start = simulation.position(0);
  simulation.Step();
  EXPECT_EQ(simulation.position(0).size(), 27 * 3);
  for (Index i = 0; i < 27; ++i)
    EXPECT_NEAR(simulation.position(0)[3 * i + 1], start[3 * i + 1] - 0.1, 1e-12) << i;
  // Any other field linked to nothing stays an error.
  std::string box = xml;
  const std::string linked = R"(position="@../Volume.position" box="-1 -1 -1  3 3 3")";
  box.replace(box.find(linked), linked.size(), R"(box="@../Volume.box")");
  try {
    LoadScene(box);
    ADD_FAILURE() << "a box linked to nothing was accepted";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("link '@../Volume' does not resolve"));
  }
}

TEST_F(BoxRoi, BadBoxesAreOneLineEach) {
  for (const std::string& bad :
       {std::string(R"(<BoxROI box="0 0 0 1 1"/>)"),
        std::string(R"(<BoxROI orientedBox="0 0 0  1 1 0  2 2 0  1"/>)"),
        std::string(R"(<BoxROI name="b" box="0 0 0 1 1 1" triangles="0 1 99"/>)")}) {
    try {
      LoadScene(GridScene(bad));
      ADD_FAILURE() << bad;
    } catch (const SceneError& error) {
      ASSERT_EQ(error.diagnostics().size(), 1u) << bad;
      EXPECT_THAT(error.diagnostics()[0].message, HasSubstr("BoxROI")) << bad;
    }
  }
}

}  // namespace
}  // namespace fluxion
