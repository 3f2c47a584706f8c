// SOFA's PartialFixedProjectiveConstraint (components/partial_fixed_projective_constraint.cpp):
// only the fixed axes are projected out. A point under g = (0, −10, 0) and a force (1, 0, 0), m =
// 1, fixed along y only: after one symplectic Euler step (h = 0.5) x has moved by h²·1 = 0.25 and y
// not at all; the free point moves along both. Implicit Euler (projected matrix) agrees.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

std::vector<double> AfterOneStep(const std::string& solver, const std::string& constraint) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 -10 0">
  )" + solver + R"(
  <MechanicalObject position="0 0 0  5 0 0"/>
  <UniformMass vertexMass="1"/>
  <ConstantForceField force="1 0 0"/>
  )" + constraint + "\n</Node>");
  simulation.Step();
  const auto x = simulation.position(0);
  return {x.data(), x.data() + x.size()};
}

class PartialFixed : public testing::QuietTest {};

TEST_F(PartialFixed, OnlyTheFixedAxesStay) {
  EXPECT_THAT(
      AfterOneStep("<EulerExplicitSolver/>",
                   R"(<PartialFixedProjectiveConstraint indices="0" fixedDirections="0 1 0"/>)"),
      ElementsAre(0.25, 0, 0, 5.25, -2.5, 0));
  // Implicit Euler: x1 = x0 + h²·a for a constant force (no stiffness).
  EXPECT_THAT(
      AfterOneStep(R"(<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver iterations="20" tolerance="1e-30" threshold="1e-30"/>)",
                   R"(<PartialFixedProjectiveConstraint indices="0" fixedDirections="0 1 0"/>)"),
      ElementsAre(DoubleNear(0.25, 1e-15), 0, 0, DoubleNear(5.25, 1e-15), DoubleNear(-2.5, 1e-15),
                  0));
}

TEST_F(PartialFixed, DefaultFixesEveryAxis) {
  EXPECT_THAT(
      AfterOneStep("<EulerExplicitSolver/>", "<PartialFixedProjectiveConstraint fixAll=\"1\"/>"),
      ElementsAre(0, 0, 0, 5, 0, 0));
}

}  // namespace
}  // namespace fluxion
