// SOFA's PlaneROI (components/plane_roi.cpp): selections worked by hand on a 3×3×3 grid on
// [0, 2]³ (points at 0, 1, 2 on each axis, point i + 3j + 9k at (i, j, k)), away from the
// region's boundaries so that no rounding decides them.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;

// The numbers of `output` of the PlaneROI written as `roi` (named "roi") on the grid.
std::vector<double> Output(const std::string& roi, const std::string& output) {
  return testing::DataOutput(R"(<RegularGridTopology n="3 3 3" min="0 0 0" max="2 2 2"/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="1"/>
  )" + roi,
                             "roi." + output);
}

class PlaneRoi : public testing::QuietTest {};

TEST_F(PlaneRoi, SquareAtTheBottomWithItsDepth) {
  // p0 (−0.5, −0.5, 0), p1 (1.5, −0.5, 0), p2 (1.5, 1.5, 0): the square [−0.5, 1.5]² in z = 0
  // (p3 = p0 + p2 − p1 = (−0.5, 1.5, 0)), normal +z. Depth 1: |z| ≤ 0.5 keeps the layer k = 0,
  // points (0|1, 0|1, 0) = 0 1 3 4; depth 3: |z| ≤ 1.5 adds k = 1 (9 10 12 13).
  const std::string square = "-0.5 -0.5 0  1.5 -0.5 0  1.5 1.5 0";
  EXPECT_THAT(Output(R"(<PlaneROI name="roi" plane=")" + square + R"( 1"/>)", "indices"),
              ElementsAre(0, 1, 3, 4));
  EXPECT_THAT(Output(R"(<PlaneROI name="roi" plane=")" + square + R"( 3"/>)", "indices"),
              ElementsAre(0, 1, 3, 4, 9, 10, 12, 13));
  EXPECT_THAT(Output(R"(<PlaneROI name="roi" plane=")" + square + R"( 1"/>)", "pointsInROI"),
              ElementsAre(0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0));
}

TEST_F(PlaneRoi, SlantedParallelogramIsNotABox) {
  // p0 (−0.4, −0.5), p1 (0.6, −0.5), p2 = p1 + (1, 2) = (1.6, 1.5): sides of slope 2, so
  // x ∈ [−0.4 + (y + 0.5)/2, 0.6 + (y + 0.5)/2] for y ∈ [−0.5, 1.5]: at y = 0, x ∈ [−0.15, 0.85]
  // (point 0), at y = 1, x ∈ [0.35, 1.35] (point 4); depth 4.5 takes every layer (+9, +18).
  const std::string roi =
      R"(<PlaneROI name="roi" plane="-0.4 -0.5 0  0.6 -0.5 0  1.6 1.5 0  4.5"/>)";
  EXPECT_THAT(Output(roi, "indices"), ElementsAre(0, 4, 9, 13, 18, 22));
}

TEST_F(PlaneRoi, TiltedPlaneKeepsItsDepthAlongTheNormal) {
  // The unit square of the plane x = z (p0 (−0.5, −0.5, −0.5), p1 (−0.5, 1.5, −0.5),
  // p2 (1.5, 1.5, 1.5)), normal ∝ (0, 2, 0)×(2, 2, 2) = (4, 0, −4): ±(1, 0, −1)/√2. Depth 0.2
  // keeps the points within 0.1 of the plane: x = z exactly, i.e. (0, j, 0) and (1, j, 1) with
  // j ≤ 1 (y ∈ [−0.5, 1.5]) — 0 3 10 13 — while (2, j, 2) lies beyond p2's side.
  const std::string roi =
      R"(<PlaneROI name="roi" plane="-0.5 -0.5 -0.5  -0.5 1.5 -0.5  1.5 1.5 1.5  0.2"/>)";
  EXPECT_THAT(Output(roi, "indices"), ElementsAre(0, 3, 10, 13));
}

TEST_F(PlaneRoi, ElementsNeedAllTheirPointsInOnePlane) {
  // Two small squares, around point 0 (0, 0, 0) and point 4 (1, 1, 0): both points are selected,
  // but the edge 0–4 has one point in each plane, so SOFA does not select it; edge 4–4 (both in
  // the second) is, and 0–1 (1 outside both) is not.
  const std::string roi =
      R"(<PlaneROI name="roi" edges="0 4  4 4  0 1"
           plane="-0.5 -0.5 0  0.5 -0.5 0  0.5 0.5 0  0.5   0.5 0.5 0  1.5 0.5 0  1.5 1.5 0  0.5"/>)";
  EXPECT_THAT(Output(roi, "indices"), ElementsAre(0, 4));
  EXPECT_THAT(Output(roi, "edgeIndices"), ElementsAre(1));
  EXPECT_THAT(Output(roi, "edgesInROI"), ElementsAre(4, 4));
  // One plane holding both: the edge 0–4 is in.
  EXPECT_THAT(Output(R"(<PlaneROI name="roi" edges="0 4  4 4  0 1"
                         plane="-0.5 -0.5 0  1.5 -0.5 0  1.5 1.5 0  0.5"/>)",
                     "edgeIndices"),
              ElementsAre(0, 1, 2));
}

TEST_F(PlaneRoi, DepthZeroSelectsTheWholePlaneAsInSofa) {
  // With d = 0 the corner points p4 = p0 and p6 = p2, so SOFA's four side normals are zero
  // vectors, width and length 0, and only the depth test |(x − p0)·n| ≤ 0 is left: the whole
  // plane z = 0 (the 9 points of layer k = 0), not the unit square around point 0 (SOFA's
  // PlaneROI.scn clamps a cylinder's base this way).
  EXPECT_THAT(
      Output(R"(<PlaneROI name="roi" plane="-0.5 -0.5 0  0.5 -0.5 0  0.5 0.5 0  0"/>)", "indices"),
      ElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8));
}

TEST_F(PlaneRoi, DegenerateDefaultPlaneContainsEveryPointAsInSofa) {
  // SOFA's default plane is ten zeros: its normals stay zero (Vec::normalize leaves a null vector
  // unchanged), every test reads 0 ≤ 0, and every point is selected.
  EXPECT_EQ(Output(R"(<PlaneROI name="roi"/>)", "indices").size(), 27u);
}

TEST_F(PlaneRoi, BadPlanesAreRefused) {
  testing::ExpectSceneError(R"(<Node name="root"><EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/><UniformMass vertexMass="1"/>
  <PlaneROI plane="0 0 0  1 0 0  1 1 0"/></Node>)",
                            "PlaneROI 'plane' has 9 numbers (expected 10 per plane");
  testing::ExpectSceneError(R"(<Node name="root"><EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/><UniformMass vertexMass="1"/>
  <PlaneROI strict="0"/></Node>)",
                            "PlaneROI 'strict' is 0");
  // No plane at all: nothing selected, with a warning.
  ExpectWarnings(1);
  EXPECT_THAT(Output(R"(<PlaneROI name="roi" plane=""/>)", "nbIndices"), ElementsAre(0));
}

}  // namespace
}  // namespace fluxion
