// SOFA's PointProjectiveConstraint (components/point_projective_constraint.cpp): the point is put
// on the target when the simulation starts and stays there, velocity zero; the other point falls
// freely (symplectic Euler, 5 steps of 0.1 under g = −10: y = −10·0.01·15 = −1.5).
#include <gmock/gmock.h>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using testing::LoadScene;

class PointConstraint : public testing::QuietTest {};

std::vector<double> Values(Eigen::Map<const Vector> values) {
  return {values.data(), values.data() + values.size()};
}

TEST_F(PointConstraint, PointIsPutOnTheTargetAndStays) {
  for (const char* solver :
       {"<EulerExplicitSolver/>",
        R"(<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/><SparseLDLSolver/>)"}) {
    Simulation simulation = LoadScene(std::string(R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  )") + solver + R"(
  <MechanicalObject position="1 2 3  0 0 0" velocity="7 7 7  0 0 0"/>
  <UniformMass vertexMass="1"/>
  <PointProjectiveConstraint indices="0" point="4 5 6"/>
</Node>)");
    EXPECT_THAT(Values(simulation.position(0)), ElementsAre(4, 5, 6, 0, 0, 0)) << solver;
    EXPECT_THAT(Values(simulation.velocity(0)), ElementsAre(0, 0, 0, 0, 0, 0)) << solver;
    simulation.Run(5);
    EXPECT_THAT(Values(simulation.position(0)), ElementsAre(4, 5, 6, 0, DoubleNear(-1.5, 1e-14), 0))
        << solver;
    EXPECT_THAT(Values(simulation.velocity(0)), ElementsAre(0, 0, 0, 0, DoubleNear(-5, 1e-14), 0))
        << solver;
  }
}

TEST_F(PointConstraint, FixAllPutsEveryPointOnTheTarget) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="1 2 3  0 0 0"/>
  <UniformMass vertexMass="1"/>
  <PointProjectiveConstraint fixAll="1" point="4 5 6"/>
</Node>)");
  simulation.Run(3);
  EXPECT_THAT(Values(simulation.position(0)), ElementsAre(4, 5, 6, 4, 5, 6));
}

}  // namespace
}  // namespace fluxion
