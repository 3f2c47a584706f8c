// SOFA's RestShapeSpringsForceField (components/rest_shape_springs_force_field.cpp): each point is
// pulled back to its rest position, f = −k·(x − x0) on the active axes. One symplectic Euler step
// from rest, m = 1, h = 0.5, no gravity: v = −h·k·(x − x0) exactly for these numbers.
#include <gmock/gmock.h>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using testing::LoadScene;

std::vector<double> FirstStepVelocity(const std::string& springs) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="1 1 1  2 2 2" rest_position="0 0 0  2 1 2"/>
  <UniformMass vertexMass="1"/>
  )" + springs + "\n</Node>");
  simulation.Step();
  const auto v = simulation.velocity(0);
  return {v.data(), v.data() + v.size()};
}

class RestShapeSprings : public testing::QuietTest {};

TEST_F(RestShapeSprings, PullsEveryPointBack) {
  // Default stiffness 100: v = −0.5·100·(x − x0).
  EXPECT_THAT(FirstStepVelocity("<RestShapeSpringsForceField/>"),
              ElementsAre(-50, -50, -50, 0, -50, 0));
}

TEST_F(RestShapeSprings, ChosenPointsStiffnessesAndDirections) {
  EXPECT_THAT(FirstStepVelocity(R"(<RestShapeSpringsForceField points="1" stiffness="4"/>)"),
              ElementsAre(0, 0, 0, 0, -2, 0));
  EXPECT_THAT(FirstStepVelocity(
                  R"(<RestShapeSpringsForceField stiffness="2 4" activeDirections="1 0 1"/>)"),
              ElementsAre(-1, 0, -1, 0, 0, 0));
}

}  // namespace
}  // namespace fluxion
