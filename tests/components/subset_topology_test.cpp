// SubsetTopology (components/subset_topology.cpp) on a strip of two unit squares cut by a box,
// with every output worked by hand in the comments. Outputs are read back through a link into a
// Vec1 probe object (testing::DataOutput).
#include <gmock/gmock.h>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Points p0..p5 at (x, y): p0 (0,0) p1 (1,0) p2 (2,0) p3 (0,1) p4 (1,1) p5 (2,1). Triangles
// t0 (0 1 4), t1 (0 4 3) on the left square, t2 (1 2 5), t3 (1 5 4) on the right one. Edges
// e0 (1 2), e1 (0 2). The box x in [0.5, 2.5] holds p1 p2 p4 p5; t2, t3 and e0 lie inside.
constexpr const char* kStrip =
    R"(<SubsetTopology name="s" rest_position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0"
        triangles="0 1 4  0 4 3  1 2 5  1 5 4" edges="1 2  0 2" )";

std::vector<double> Output(const std::string& options, const std::string& output) {
  return testing::DataOutput(std::string(kStrip) + options + "/>", "s." + output);
}

class SubsetTopology : public testing::QuietTest {};

TEST_F(SubsetTopology, BoxKeepsElementsWithAllPointsInside) {
  const std::string box = R"(box="0.5 -1 -1  2.5 2 1")";
  EXPECT_THAT(Output(box, "indices"), ElementsAre(1, 2, 4, 5));
  EXPECT_THAT(Output(box, "pointsInROI"), ElementsAre(1, 0, 0, 2, 0, 0, 1, 1, 0, 2, 1, 0));
  EXPECT_THAT(Output(box, "pointsOutROI"), ElementsAre(0, 0, 0, 0, 1, 0));
  EXPECT_THAT(Output(box, "triangleIndices"), ElementsAre(2, 3));
  // Without localIndices the elements keep the input's numbers.
  EXPECT_THAT(Output(box, "trianglesInROI"), ElementsAre(1, 2, 5, 1, 5, 4));
  EXPECT_THAT(Output(box, "trianglesOutROI"), ElementsAre(0, 1, 4, 0, 4, 3));
  EXPECT_THAT(Output(box, "edgeIndices"), ElementsAre(0));
  EXPECT_THAT(Output(box, "edgesOutROI"), ElementsAre(0, 2));
  // Corners given max first are ordered per axis (SOFA swaps them): the same split.
  EXPECT_THAT(Output(R"(box="2.5 2 1  0.5 -1 -1")", "indices"), ElementsAre(1, 2, 4, 5));
  // Two boxes: a point or element in either is inside. The second box holds p3 only.
  EXPECT_THAT(Output(R"(box="0.5 -1 -1  2.5 0.5 1  -1 0.5 -1  0.5 2 1")", "indices"),
              ElementsAre(1, 2, 3));
}

TEST_F(SubsetTopology, LocalIndicesPutBorderPointsFirst) {
  // Border points (inside, on a triangle with a point outside): t0 (0 1 4) gives p1 and p4,
  // t1 (0 4 3) p4 again; nbrborder 2. Places: p1 → 0, p4 → 1 in both lists; then inside p2 → 2,
  // p5 → 3, and outside p0 → 2, p3 → 3.
  const std::string local = R"(box="0.5 -1 -1  2.5 2 1" localIndices="1")";
  EXPECT_THAT(Output(local, "nbrborder"), ElementsAre(2));
  EXPECT_THAT(Output(local, "indices"), ElementsAre(1, 4, 2, 5));
  EXPECT_THAT(Output(local, "pointsInROI"), ElementsAre(1, 0, 0, 1, 1, 0, 2, 0, 0, 2, 1, 0));
  EXPECT_THAT(Output(local, "pointsOutROI"), ElementsAre(1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0));
  // t2 (1 2 5) → (0 2 3), t3 (1 5 4) → (0 3 1); t0 (0 1 4) → (2 0 1), t1 (0 4 3) → (2 1 3).
  EXPECT_THAT(Output(local, "trianglesInROI"), ElementsAre(0, 2, 3, 0, 3, 1));
  EXPECT_THAT(Output(local, "trianglesOutROI"), ElementsAre(2, 0, 1, 2, 1, 3));
  // e1 (0 2) is outside, but p2 is an inside point off the border: SOFA gives it its inside
  // place 2, so the edge reads (2 2).
  EXPECT_THAT(Output(local, "edgesInROI"), ElementsAre(0, 2));
  EXPECT_THAT(Output(local, "edgesOutROI"), ElementsAre(2, 2));
}

TEST_F(SubsetTopology, SpheresIncludeTheirBound) {
  // Sphere at p2 of radius 1: p1 and p5 at distance 1 are inside, p4 at √2 is not; t2 inside.
  const std::string sphere = R"(centers="2 0 0" radii="1")";
  EXPECT_THAT(Output(sphere, "indices"), ElementsAre(1, 2, 5));
  EXPECT_THAT(Output(sphere, "triangleIndices"), ElementsAre(2));
}

TEST_F(SubsetTopology, DefaultsToTheNodeObjectAndTopology) {
  // The default box 0 0 0 1 1 1 holds p0 p1 p3 p4, and t0, t1.
  const std::vector<double> triangles = testing::DataOutput(
      R"(<MeshTopology position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0"
           triangles="0 1 4  0 4 3  1 2 5  1 5 4"/>
         <MechanicalObject position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0"/>
         <UniformMass vertexMass="1"/><SubsetTopology name="s"/>)",
      "s.triangleIndices");
  EXPECT_THAT(triangles, ElementsAre(0, 1));
}

TEST_F(SubsetTopology, RefusesWhatItCannotDo) {
  const auto error = [](const std::string& options) {
    return testing::LoadErrors(std::string(R"(<Node name="root" dt="0.1"><EulerExplicitSolver/>)") +
                               kStrip + options + "/></Node>");
  };
  EXPECT_THAT(error(R"(box="0 0 0 1 1")"),
              ElementsAre(HasSubstr("'box' has 5 numbers (expected 6 per box")));
  EXPECT_THAT(error(R"(centers="0 0 0  1 1 1" radii="1")"),
              ElementsAre(HasSubstr("2 sphere centers and 1 radii")));
  EXPECT_THAT(error(R"(tetrahedraInput="0")"),
              ElementsAre(HasSubstr("'tetrahedraInput' is not supported")));
  EXPECT_THAT(testing::LoadErrors(R"(<Node name="root" dt="0.1"><EulerExplicitSolver/>
      <SubsetTopology rest_position="0 0 0" triangles="0 1 2"/></Node>)"),
              ElementsAre(HasSubstr("'triangles' uses point 1 (expected indices below the 1 "
                                    "points)")));
}

// SubsetTopologicalMapping (components/subset_topological_mapping.cpp). Input: the unit square
// p0 (0,0) p1 (1,0) p2 (0,1) p3 (1,1), triangles s0 (0 1 2), s1 (1 3 2). Output: points
// (1,0) (1,1) (0,1) = p1 p3 p2, triangle (0 1 2) = input points (1 3 2) = s1.
std::string Square(const std::string& output_points, const std::string& options) {
  return R"(<MeshTopology name="in" position="0 0 0  1 0 0  0 1 0  1 1 0"
              triangles="0 1 2  1 3 2"/>
            <Node name="out"><MeshTopology name="sub" position=")" +
         output_points + R"(" triangles="0 1 2"/>
              <SubsetTopologicalMapping name="map" input="@../in" output="@sub" )" +
         options + "/></Node>";
}

TEST_F(SubsetTopology, TopologicalMappingFindsPointsAndElementsInTheInput) {
  constexpr double kInvalid = 4294967295.0;  // SOFA's InvalidID
  const std::string square = Square("1 0 0  1 1 0  0 1 0", R"(handleTriangles="1")");
  EXPECT_THAT(testing::DataOutput(square, "out/map.pointD2S"), ElementsAre(1, 3, 2));
  EXPECT_THAT(testing::DataOutput(square, "out/map.pointS2D"), ElementsAre(kInvalid, 0, 2, 1));
  EXPECT_THAT(testing::DataOutput(square, "out/map.triangleD2S"), ElementsAre(1));
  EXPECT_THAT(testing::DataOutput(square, "out/map.triangleS2D"), ElementsAre(kInvalid, 0));
  // samePoints: output point i is input point i, so triangle (0 1 2) is s0.
  EXPECT_THAT(
      testing::DataOutput(Square("0 0 0  1 0 0  0 1 0", R"(samePoints="1" handleTriangles="1")"),
                          "out/map.triangleD2S"),
      ElementsAre(0));
  EXPECT_THAT(
      testing::LoadErrors(std::string(R"(<Node name="root" dt="0.1"><EulerExplicitSolver/>)") +
                          Square("1 0 0  1 1 0  5 5 5", "") + "</Node>"),
      ElementsAre(HasSubstr("output point 2 is at no input point's position")));
}

}  // namespace
}  // namespace fluxion
