// SOFA's DiagonalVelocityDampingForceField (components/diagonal_velocity_damping_force_field.cpp):
// f = −c∘v per axis, the last coefficient vector serving the later points. From v0 = (1, 1, 1),
// m = 1, h = 0.125, c = (2, 4, 0): symplectic Euler gives v1 = v0 − h·c∘v0 = (0.75, 0.5, 1);
// implicit Euler, which sees B = diag(c), solves (1 + h·c)·v1 = v0: v1 = (0.8, 2/3, 1).
#include <gmock/gmock.h>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using testing::LoadScene;

std::vector<double> FirstStepVelocity(const std::string& solver) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.125" gravity="0 0 0">
  )" + solver + R"(
  <MechanicalObject position="0 0 0  1 0 0" velocity="1 1 1  1 1 1"/>
  <UniformMass vertexMass="1"/>
  <DiagonalVelocityDampingForceField dampingCoefficient="2 4 0"/>
</Node>)");
  simulation.Step();
  const auto v = simulation.velocity(0);
  return {v.data(), v.data() + v.size()};
}

class DiagonalVelocityDamping : public testing::QuietTest {};

TEST_F(DiagonalVelocityDamping, ExplicitDrag) {
  EXPECT_THAT(FirstStepVelocity("<EulerExplicitSolver/>"), ElementsAre(0.75, 0.5, 1, 0.75, 0.5, 1));
}

TEST_F(DiagonalVelocityDamping, ImplicitSolversSeeTheDampingMatrix) {
  const double e = 1e-14;
  EXPECT_THAT(FirstStepVelocity(R"(<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver iterations="50" tolerance="1e-30" threshold="1e-30"/>)"),
              ElementsAre(DoubleNear(0.8, e), DoubleNear(2.0 / 3, e), DoubleNear(1, e),
                          DoubleNear(0.8, e), DoubleNear(2.0 / 3, e), DoubleNear(1, e)));
}

}  // namespace
}  // namespace fluxion
