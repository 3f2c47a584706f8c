// SOFA's PairBoxROI (components/pair_box_roi.cpp): points inside the outer box and outside the
// inner one, both tests with their bounds included, worked by hand on a 3×3×3 grid on [0, 2]³
// (point i + 3j + 9k at (i, j, k)). Selected points are fixed and read back after one symplectic
// Euler step from rest under g = (0, −10, 0), h = 0.1: a free point moves by −g·h² = −0.1.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

std::vector<Index> Fixed(const std::string& roi) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <RegularGridTopology n="3 3 3" min="0 0 0" max="2 2 2"/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="1"/>
  )" + roi + R"(
  <FixedProjectiveConstraint indices="@roi.indices"/>
</Node>)");
  simulation.Step();
  std::vector<Index> fixed;
  const auto x = simulation.position(0);
  const auto& x0 = simulation.objects()[0].position;
  for (Index i = 0; i < x.size() / 3; ++i) {
    if (x[3 * i + 1] == x0[3 * i + 1])
      fixed.push_back(i);
    else
      EXPECT_EQ(x[3 * i + 1], x0[3 * i + 1] - 0.1) << i;
  }
  return fixed;
}

class PairBoxRoi : public testing::QuietTest {};

TEST_F(PairBoxRoi, BetweenTwoBoxesBoundsIncludedInBoth) {
  // Outer box: all 27 points; inner box [0.5, 1.5]³: only the center 13.
  std::vector<Index> all_but_center;
  for (Index i = 0; i < 27; ++i)
    if (i != 13) all_but_center.push_back(i);
  EXPECT_EQ(Fixed(R"(<PairBoxROI name="roi" inclusiveBox="-0.1 -0.1 -0.1  2.1 2.1 2.1"
                                includedBox="0.5 0.5 0.5  1.5 1.5 1.5"/>)"),
            all_but_center);
  // Outer box [0, 1]×[0, 2]×[0, 0] (the bottom's x ≤ 1 half, bounds included: points 0 1 3 4 6
  // 7), inner box [1, 1]×[0, 2]×[0, 0] given max first: the points on x = 1 (1 4 7) are inside
  // it, so not selected.
  EXPECT_THAT(Fixed(R"(<PairBoxROI name="roi" inclusiveBox="0 0 0  1 2 0"
                                   includedBox="1 2 0  1 0 0"/>)"),
              ElementsAre(0, 3, 6));
}

TEST_F(PairBoxRoi, NothingWhileABoxIsAllZeros) {
  // SOFA's default boxes are all zeros, and then nothing is selected (not even the origin).
  EXPECT_TRUE(Fixed(R"(<PairBoxROI name="roi" inclusiveBox="-1 -1 -1  3 3 3"/>)").empty());
}

TEST_F(PairBoxRoi, PointsInRoiAndGivenPositions) {
  // pointsInROI (alias pointsInBox) are the selected points' coordinates; `position` replaces
  // the object's. Points 0 (0,0,0), 1 (5,0,0), 2 (1,1,1): only 1 is in [−1, 6]³ and outside
  // [−0.5, 1.5]³. A MechanicalObject built from pointsInBox holds that point (a static scene:
  // the builder warns that nothing moves).
  ExpectWarnings(1);
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <PairBoxROI name="roi" position="0 0 0  5 0 0  1 1 1" inclusiveBox="-1 -1 -1  6 6 6"
              includedBox="-0.5 -0.5 -0.5  1.5 1.5 1.5"/>
  <MechanicalObject name="dofs" position="@roi.pointsInBox"/>
</Node>)");
  ASSERT_EQ(simulation.objects().size(), 1u);
  EXPECT_THAT(std::vector<double>(simulation.objects()[0].position.begin(),
                                  simulation.objects()[0].position.end()),
              ElementsAre(5, 0, 0));
}

TEST_F(PairBoxRoi, BadBoxesAreReported) {
  try {
    Fixed(R"(<PairBoxROI name="roi" inclusiveBox="0 0 0 1 1" includedBox="0 0 0 1 1 1"/>)");
    FAIL() << "expected a scene error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("PairBoxROI 'inclusiveBox' has 5 numbers (expected 6"));
  }
}

}  // namespace
}  // namespace fluxion
