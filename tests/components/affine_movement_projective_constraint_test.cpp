// SOFA's AffineMovementProjectiveConstraint (components/affine_movement_projective_constraint.cpp).
//
// R = rotation of 90° about z, T = (1, 0, 0): x₀ = (1, 0, 0) goes to x_f = R·x₀ + T = (1, 1, 0)
// over [0, 1]; h = 0.25. Positions follow the time the step started at (SOFA's node time):
// after the step tₙ → tₙ₊₁ the point is at x₀ + (x_f − x₀)·tₙ for 0 < tₙ ≤ 1, at x_f after,
// and unmoved at tₙ = 0. Its velocity stays zero and gravity never moves it (it is held).
// A second point, x₀ = (0, 2, 0), goes to R·x₀ + T = (−1, 0, 0).
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using testing::LoadScene;

class AffineMovement : public testing::QuietTest {};

std::vector<double> Values(Eigen::Map<const Vector> values) {
  return {values.data(), values.data() + values.size()};
}

TEST_F(AffineMovement, MovesPointsToTheAffineImageOverTime) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.25" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="1 0 0  0 2 0  5 5 5"/>
  <UniformMass vertexMass="1"/>
  <AffineMovementProjectiveConstraint indices="0 1" beginConstraintTime="0" endConstraintTime="1"
      rotation="[0 -1 0,1 0 0,0 0 1]" translation="1 0 0"/>
</Node>)");
  EXPECT_THAT(Values(simulation.position(0)), ElementsAre(1, 0, 0, 0, 2, 0, 5, 5, 5));
  // Multiples of 1/4: exact.
  const double t_start[] = {0, 0.25, 0.5, 0.75, 1.0, 1.25};
  for (const double t : t_start) {
    simulation.Step();
    const double s = t > 1.0 ? 1.0 : t;
    const auto x = Values(simulation.position(0));
    EXPECT_EQ(x[0], 1.0) << t;
    EXPECT_EQ(x[1], s) << t;
    EXPECT_EQ(x[3], -s) << t;
    EXPECT_EQ(x[4], 2.0 - 2.0 * s) << t;
    EXPECT_EQ(x[2], 0.0) << t;
    EXPECT_EQ(simulation.velocity(0)[1], 0.0) << t;
  }
}

TEST_F(AffineMovement, RejectsARotationThatIsNotThreeByThree) {
  try {
    LoadScene(R"(<Node name="root">
  <EulerExplicitSolver/>
  <MechanicalObject position="1 0 0"/>
  <UniformMass vertexMass="1"/>
  <AffineMovementProjectiveConstraint indices="0" rotation="[1 0,0 1]"/>
</Node>)");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("'rotation' has 4 numbers (expected 9"));
  }
}

}  // namespace
}  // namespace fluxion
