// A point resting on a PlaneForceField or on top of a SphereForceField settles where the penalty
// force balances its weight: depth m·g/k (here 1·10/1000 = 0.01). Implicit Euler (dissipative)
// with SOFA's tangent stiffness, checked after the motion has died out.
#include <gmock/gmock.h>

#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

double RestingHeight(const std::string& load, double start_y) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
  <MechanicalObject position="0.3 )" +
                                    std::to_string(start_y) + R"( 0"/>
  <UniformMass vertexMass="1"/>
  )" + load + R"(
</Node>)");
  for (int step = 0; step < 3000; ++step) simulation.Step();
  EXPECT_LT(std::abs(simulation.velocity(0)[1]), 1e-9);
  return simulation.position(0)[1];
}

class ContactRest : public testing::QuietTest {};

TEST_F(ContactRest, OnAPlane) {
  EXPECT_NEAR(
      RestingHeight(R"(<PlaneForceField normal="0 1 0" d="0" stiffness="1000" damping="5"/>)", 0.2),
      -0.01, 1e-9);
}

TEST_F(ContactRest, OnTopOfASphere) {
  // Center (0.3, −1, 0), radius 1: the top is y = 0; the point sits 0.01 inside.
  EXPECT_NEAR(
      RestingHeight(
          R"(<SphereForceField center="0.3 -1 0" radius="1" stiffness="1000" damping="5"/>)", 0.1),
      -0.01, 1e-9);
}

}  // namespace
}  // namespace fluxion
