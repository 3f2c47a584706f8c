// SOFA's SphereROI (components/sphere_roi.cpp, roi_selection.cpp): selections worked by hand on a
// 3×3×3 grid on [0, 2]³ (points at 0, 1, 2 on each axis, point i + 3j + 9k at (i, j, k)). An
// output is read back through a link into a probe object: a Vec1 MechanicalObject whose
// positions are the output's numbers.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

// The numbers of `output` of the SphereROI written as `roi` (named "roi") on the grid.
std::vector<double> Output(const std::string& roi, const std::string& output) {
  return testing::DataOutput(R"(<RegularGridTopology n="3 3 3" min="0 0 0" max="2 2 2"/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="1"/>
  )" + roi,
                             "roi." + output);
}

class SphereRoi : public testing::QuietTest {};

TEST_F(SphereRoi, PointsWithinTheRadiusBoundaryIncluded) {
  // |x − 0|² ≤ 1: the origin and its 3 neighbours at distance exactly 1; (1,1,0) at √2 is out.
  const std::string roi = R"(<SphereROI name="roi" centers="0 0 0" radii="1"/>)";
  EXPECT_THAT(Output(roi, "indices"), ElementsAre(0, 1, 3, 9));
  EXPECT_THAT(Output(roi, "pointIndices"), ElementsAre(0, 1, 3, 9));
  EXPECT_THAT(Output(roi, "nbIndices"), ElementsAre(4));
  EXPECT_THAT(Output(roi, "pointsInROI"), ElementsAre(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1));
  // A radius just under 1 keeps the center alone.
  EXPECT_THAT(Output(R"(<SphereROI name="roi" centers="0 0 0" radii="0.999"/>)", "indices"),
              ElementsAre(0));
}

TEST_F(SphereRoi, SeveralSpheresOneRadiusForAll) {
  // Spheres at (0,0,0) and (2,2,2), radius 1 both: 0 1 3 9 and 26 with 25 (1,2,2), 23 (2,1,2),
  // 17 (2,2,1); the outside points are the 19 others, the first being 2 (2,0,0).
  const std::string roi = R"(<SphereROI name="roi" centers="0 0 0  2 2 2" radii="1"/>)";
  EXPECT_THAT(Output(roi, "indices"), ElementsAre(0, 1, 3, 9, 17, 23, 25, 26));
  const std::vector<double> out = Output(roi, "indicesOut");
  EXPECT_EQ(out.size(), 19u);
  EXPECT_EQ(out.front(), 2);
  // Two radii: each sphere its own (the second, 0.5, keeps (2,2,2) alone).
  EXPECT_THAT(Output(R"(<SphereROI name="roi" centers="0 0 0  2 2 2" radii="1 0.5"/>)", "indices"),
              ElementsAre(0, 1, 3, 9, 26));
}

TEST_F(SphereRoi, EdgesStrictlyInsideOrByTheirCenter) {
  // Edges 0–1, 1–2, 0–3, 0–4 with the unit sphere at the origin. Strict: both ends inside: 0–1
  // and 0–3. By center: (0.5,0,0), (0,0.5,0) and (0.5,0.5,0) (|c| = 0.707) are inside, (1.5,0,0)
  // is not.
  const std::string edges = R"(edges="0 1  1 2  0 3  0 4")";
  EXPECT_THAT(
      Output(R"(<SphereROI name="roi" centers="0 0 0" radii="1" )" + edges + "/>", "edgeIndices"),
      ElementsAre(0, 2));
  EXPECT_THAT(
      Output(R"(<SphereROI name="roi" centers="0 0 0" radii="1" )" + edges + "/>", "edgesInROI"),
      ElementsAre(0, 1, 0, 3));
  EXPECT_THAT(
      Output(R"(<SphereROI name="roi" centers="0 0 0" radii="1" strict="0" )" + edges + "/>",
             "edgeIndices"),
      ElementsAre(0, 2, 3));
  EXPECT_THAT(
      Output(R"(<SphereROI name="roi" centers="0 0 0" radii="1" strict="0" )" + edges + "/>",
             "edgeOutIndices"),
      ElementsAre(1));
}

TEST_F(SphereRoi, EdgeAndTriangleAngleTests) {
  // edgeAngle 45 with direction x: SOFA keeps an edge when |cos(edge, x)| < cos 45° = 0.707:
  // 0–1 (along x, |cos| = 1) is dropped, 0–3 (along y, 0) kept.
  EXPECT_THAT(Output(R"(<SphereROI name="roi" centers="0 0 0" radii="1" edges="0 1  0 3"
                       edgeAngle="45" direction="2 0 0"/>)",
                     "edgeIndices"),
              ElementsAre(1));
  // Triangle 0 1 3: n ∝ (x3 − x0) × (x1 − x0) = (0,1,0) × (1,0,0) = (0,0,−1). triAngle 10 keeps
  // it when n·normal < cos 10° = 0.985: with normal (0,0,1), −1: kept; with (0,0,−1), 1: dropped.
  // Triangle 0 1 4 has (1,1,0) outside the sphere: never in (strict).
  const std::string triangles = R"(triangles="0 1 3  0 1 4" triAngle="10")";
  EXPECT_THAT(Output(R"(<SphereROI name="roi" centers="0 0 0" radii="1" normal="0 0 1" )" +
                         triangles + "/>",
                     "triangleOutIndices"),
              ElementsAre(1));
  EXPECT_THAT(Output(R"(<SphereROI name="roi" centers="0 0 0" radii="1" normal="0 0 1" )" +
                         triangles + "/>",
                     "trianglesInROI"),
              ElementsAre(0, 1, 3));
  EXPECT_THAT(Output(R"(<SphereROI name="roi" centers="0 0 0" radii="1" normal="0 0 -1" )" +
                         triangles + "/>",
                     "triangleOutIndices"),
              ElementsAre(0, 1));
}

TEST_F(SphereRoi, HexahedraOfTheGridTopology) {
  // Sphere at (0.5,0.5,0.5) of radius √0.75 = 0.866…: the 8 corners of hexahedron 0 are at
  // exactly that distance (inside, radius² = 0.75 up to one rounding), the other hexahedra have
  // corners at distance ≥ √(0.25+0.25+2.25).
  EXPECT_THAT(Output(R"(<SphereROI name="roi" centers="0.5 0.5 0.5" radii="0.8660254038"/>)",
                     "hexahedronIndices"),
              ElementsAre(0));
  // And the position given explicitly (SOFA's alias rest_position) replaces the object's (the
  // grid's elements, which use points beyond these 3, are not selected here).
  EXPECT_THAT(Output(R"(<SphereROI name="roi" centers="5 5 5" radii="1"
                       rest_position="0 0 0  5 5 5.5  9 9 9" computeEdges="0" computeTriangles="0"
                       computeQuads="0" computeTetrahedra="0" computeHexahedra="0"/>)",
                     "indices"),
              ElementsAre(1));
}

TEST_F(SphereRoi, SrcTakesTheInputsFromAnotherComponent) {
  // src="@m/t": the points and triangles of that topology, not the node's grid.
  const std::string roi = R"(<Node name="m">
    <MeshTopology name="t" position="0 0 0  3 0 0  0 3 0" triangles="0 1 2"/>
  </Node>
  <SphereROI name="roi" centers="3 0 0" radii="0.5" src="@m/t" computeHexahedra="0"
             computeQuads="0" computeEdges="0" computeTetrahedra="0"/>)";
  EXPECT_THAT(Output(roi, "indices"), ElementsAre(1));
  EXPECT_THAT(Output(roi, "pointsInROI"), ElementsAre(3, 0, 0));
  EXPECT_THAT(Output(roi, "triangleOutIndices"), ElementsAre(0));
}

TEST_F(SphereRoi, BadSpheresAreOneLineEach) {
  for (const std::string& bad :
       {std::string(R"(<SphereROI name="roi" centers="0 0" radii="1"/>)"),
        std::string(R"(<SphereROI name="roi" centers="0 0 0  1 1 1  2 2 2" radii="1 2"/>)"),
        std::string(R"(<SphereROI name="roi" centers="0 0 0" radii="1" edges="0 99"/>)")}) {
    try {
      LoadScene(R"(<Node name="root" gravity="0 0 0">
  <RegularGridTopology n="3 3 3" min="0 0 0" max="2 2 2"/>
  <MechanicalObject/>
  )" + bad + "</Node>");
      ADD_FAILURE() << bad;
    } catch (const SceneError& error) {
      ASSERT_EQ(error.diagnostics().size(), 1u) << bad;
      EXPECT_THAT(error.diagnostics()[0].message, HasSubstr("SphereROI")) << bad;
    }
  }
}

}  // namespace
}  // namespace fluxion
