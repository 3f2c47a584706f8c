// SOFA's HermiteSplineProjectiveConstraint (components/hermite_spline_projective_constraint.cpp).
//
// SOFA's example values: X0 = 0, dX0 = (0, 10, 0), X1 = (5, 0, 0), dX1 = (0, 5, 0); the time
// warp SX0 = (1, 0), SX1 = (0, 2) gives s(u) = 0·h₁₀(u) + h₀₁(u) + 2·h₁₁(u) = u², over
// [0, 1] with h = 0.25. By hand, with h₁₀(s) = s³ − 2s² + s, h₀₁(s) = 3s² − 2s³,
// h₁₁(s) = s³ − s², x = (5·h₀₁, 10·h₁₀ + 5·h₁₁, 0):
//   u = 0.25, s = 1/16:  x = (0.05615234375, 0.531005859375, 0)
//   u = 0.5,  s = 1/4:   x = (0.78125, 1.171875, 0), v = (5·1.125, 10·0.1875 − 5·0.3125, 0)
//                                                      = (5.625, 0.3125, 0)
//   u = 0.75, s = 9/16:  x = (2.96630859375, 0.384521484375, 0)
//   u = 1,    s = 1:     x = X1, v = dX1.
// After the step that starts at tₙ the point is at x(tₙ) (SOFA's node time is the step's
// start). After the window it is free: the step from 1.25 moves it by h·dX1 = (0, 1.25, 0).
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class HermiteSpline : public testing::QuietTest {};

TEST_F(HermiteSpline, FollowsTheWarpedHermiteCurveThenReleasesThePoint) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.25" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0" velocity="0 10 0"/>
  <UniformMass vertexMass="1"/>
  <HermiteSplineProjectiveConstraint indices="0" BeginTime="0" EndTime="1" X0="0 0 0"
      dX0="0 10 0" X1="5 0 0" dX1="0 5 0" SX0="1 0" SX1="0 2"/>
</Node>)");
  // Powers of two: every value above is exact in binary, and so is SOFA's arithmetic on them.
  const double expected_x[][2] = {{0, 0},
                                  {0.05615234375, 0.531005859375},
                                  {0.78125, 1.171875},
                                  {2.96630859375, 0.384521484375},
                                  {5, 0}};
  for (int n = 0; n < 5; ++n) {
    simulation.Step();
    const auto x = simulation.position(0);
    EXPECT_EQ(x[0], expected_x[n][0]) << "t = " << 0.25 * n;
    EXPECT_EQ(x[1], expected_x[n][1]) << "t = " << 0.25 * n;
    EXPECT_EQ(x[2], 0.0);
    if (n == 2) {
      EXPECT_EQ(simulation.velocity(0)[0], 5.625);
      EXPECT_EQ(simulation.velocity(0)[1], 0.3125);
    }
  }
  EXPECT_EQ(simulation.velocity(0)[0], 0.0);
  EXPECT_EQ(simulation.velocity(0)[1], 5.0);
  simulation.Step();  // from t = 1.25: outside the window, free
  EXPECT_EQ(simulation.position(0)[0], 5.0);
  EXPECT_EQ(simulation.position(0)[1], 1.25);
}

TEST_F(HermiteSpline, RejectsAnEmptyTimeWindow) {
  try {
    LoadScene(R"(<Node name="root">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>
  <HermiteSplineProjectiveConstraint indices="0" X1="1 0 0"/>
</Node>)");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("'EndTime' equals 'BeginTime'"));
  }
}

}  // namespace
}  // namespace fluxion
