// SOFA's LinearMovementProjectiveConstraint (components/linear_movement_projective_constraint.cpp).
//
// keyTimes 0 1 2, movements (0,0,0) (1,0,0) (1,2,0), relative to x₀ = (1, 0, 0); h = 0.25, g = −10
// along y, m = 1, symplectic Euler. m(t) = (t, 0, 0) on [0, 1] and (1, 2(t − 1), 0) on [1, 2].
// SOFA projects after the solver with its node's time still at the step's start tₙ, so after the
// step tₙ → tₙ₊₁ the point is at x₀ + m(tₙ) with the segment's velocity: exactly on the key-framed
// path, one step behind. From t = 2 (the last key) on the point is free: the step from t = 2 starts
// from v = (0, 2, 0) and falls: v = (0, 2 − 2.5, 0), y = 1.5 + 0.25·(−0.5) = 1.375.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using testing::LoadScene;

class LinearMovement : public testing::QuietTest {};

std::vector<double> Values(Eigen::Map<const Vector> values) {
  return {values.data(), values.data() + values.size()};
}

TEST_F(LinearMovement, FollowsTheKeyFramedPathThenIsReleased) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.25" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="1 0 0"/>
  <UniformMass vertexMass="1"/>
  <LinearMovementProjectiveConstraint indices="0" keyTimes="0 1 2"
      movements="0 0 0  1 0 0  1 2 0"/>
</Node>)");
  // Every number below is a multiple of 1/8 reached by exact binary arithmetic.
  EXPECT_THAT(Values(simulation.position(0)), ElementsAre(1, 0, 0));
  EXPECT_THAT(Values(simulation.velocity(0)), ElementsAre(1, 0, 0));
  const double path_x[] = {1, 1.25, 1.5, 1.75, 2, 2, 2, 2};  // x₀ + m(tₙ), tₙ = n/4
  const double path_y[] = {0, 0, 0, 0, 0, 0.5, 1.0, 1.5};
  for (int n = 0; n < 8; ++n) {
    simulation.Step();
    EXPECT_THAT(Values(simulation.position(0)), ElementsAre(path_x[n], path_y[n], 0)) << n;
    EXPECT_THAT(Values(simulation.velocity(0)), ElementsAre(n < 4 ? 1 : 0, n < 4 ? 0 : 2, 0)) << n;
  }
  simulation.Step();  // from t = 2: released
  EXPECT_THAT(Values(simulation.position(0)), ElementsAre(2, 1.375, 0));
  EXPECT_THAT(Values(simulation.velocity(0)), ElementsAre(0, -0.5, 0));
}

// Absolute movements (relativeMovements = 0) are the positions themselves; a linked point on a
// spring feels the driven point (an implicit solver with the held rows projected).
TEST_F(LinearMovement, AbsoluteMovementsAreThePositions) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.25" gravity="0 0 0">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <SparseLDLSolver/>
  <MechanicalObject position="7 7 7  0 3 0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 1 10 0 1"/>
  <LinearMovementProjectiveConstraint indices="0" keyTimes="0 1" movements="0 0 0  4 0 0"
      relativeMovements="0"/>
</Node>)");
  EXPECT_THAT(Values(simulation.position(0)), ::testing::ElementsAre(0, 0, 0, 0, 3, 0));
  simulation.Run(3);  // after the step from t = 0.5: m(0.5) = (2, 0, 0)
  EXPECT_EQ(simulation.position(0)[0], 2.0);
  EXPECT_EQ(simulation.velocity(0)[0], 4.0);
  EXPECT_NE(simulation.position(0)[3], 0.0);  // the spring pulled the free point
}

TEST_F(LinearMovement, RejectsMovementsThatDoNotMatchTheKeyTimes) {
  try {
    LoadScene(R"(<Node name="root">
  <EulerExplicitSolver/>
  <MechanicalObject position="1 0 0"/>
  <UniformMass vertexMass="1"/>
  <LinearMovementProjectiveConstraint keyTimes="0 1" movements="0 0 0  1 0"/>
</Node>)");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("'movements' has 5 numbers (expected 6"));
  }
}

// More movements than key times: SOFA reads them as vectors along the key times and never reaches
// the extra ones (its TopologicalChanges benchmark writes "0 0 0   0 0 0" per key on Vec3): the
// first 3 per key time, with a warning. keyTimes 0 1, movements (0,0,0) then (2,0,0): after the
// step from t = 0.5 (h = 0.25, three steps) the point is at x₀ + m(0.5) = (1, 0, 0).
TEST_F(LinearMovement, ExtraMovementsAfterTheLastKeyTimeAreIgnored) {
  ExpectWarnings(1);
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.25" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>
  <LinearMovementProjectiveConstraint indices="0" keyTimes="0 1"
      movements="0 0 0   2 0 0   9 9 9   9 9 9"/>
</Node>)");
  simulation.Run(3);
  EXPECT_THAT(Values(simulation.position(0)), ElementsAre(1, 0, 0));
}

}  // namespace
}  // namespace fluxion
