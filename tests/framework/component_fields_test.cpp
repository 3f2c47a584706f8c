// Simulation::SetComponentField (fluxion/simulation.h): a ConstantForceField's load changed
// between steps, as a SofaPython3 controller changes it, acts from the next step on; fields no
// component declared changeable are refused with what can be changed.
#include <cmath>
#include <vector>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion::internal {
namespace {

using fluxion::testing::LoadScene;

// One point of mass m = 2 kg, at rest at the origin, no gravity, semi-implicit Euler with
// h = 0.01: v ← v + h·F/m, x ← x + h·v.
constexpr double kMass = 2.0, kStep = 0.01;
const char* const kScene = R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="bead">
    <MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass vertexMass="2"/>
    <ConstantForceField name="load" forces="0 0 0"/>
  </Node>
</Node>)";

class ComponentFields : public fluxion::testing::QuietTest {};

// F(t_n) = (cos 3t_n, −1, 0) set before each step: the trajectory of the hand recursion of the
// solver with that load, to round-off.
TEST_F(ComponentFields, ConstantForceChangedEachStepIsTheTimeDependentLoad) {
  Simulation simulation = LoadScene(kScene);
  double x[3] = {0, 0, 0}, v[3] = {0, 0, 0};
  for (int n = 0; n < 50; ++n) {
    const double force[3] = {std::cos(3.0 * n * kStep), -1.0, 0.0};
    simulation.SetComponentField("root/bead/load", "forces", force);
    simulation.Step();
    for (int axis = 0; axis < 3; ++axis) {
      v[axis] += kStep * ((0.0 + force[axis]) / kMass);
      x[axis] += kStep * v[axis];
    }
  }
  const auto position = simulation.position(0);
  // Round-off only: the solver may form a as f·(1/m) where the recursion divides, a few ulps of
  // |x| ≤ 0.1 over 50 steps.
  constexpr double kRoundOff = 1e-14;
  for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(position[axis], x[axis], kRoundOff) << axis;
  EXPECT_GT(std::abs(position[1]), 0.01);  // the load did act: x_y ≈ −t²/(2m) = −0.0625
}

// totalForce and force are changeable too, whichever field the scene gave.
TEST_F(ComponentFields, EveryForceFieldOfConstantForceFieldCanChange) {
  Simulation simulation = LoadScene(kScene);
  EXPECT_EQ(simulation.RuntimeFields("root/bead/load"),
            (std::vector<std::string>{"forces", "force", "totalForce"}));
  const double total[3] = {0.0, 4.0, 0.0};
  simulation.SetComponentField("root/bead/load", "totalForce", total);
  simulation.Step();
  EXPECT_EQ(simulation.velocity(0)[1], kStep * (4.0 / kMass));
}

TEST_F(ComponentFields, FieldsThatCannotChangeAreRefusedNamingThoseThatCan) {
  Simulation simulation = LoadScene(kScene);
  const double one[1] = {1.0};
  try {
    simulation.SetComponentField("root/bead/load", "indices", one);
    FAIL() << "indices accepted";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "root/bead/load.indices cannot be changed while the simulation runs (fields "
                 "that can: forces, force, totalForce)");
  }
  EXPECT_THROW(simulation.SetComponentField("root/bead/UniformMass", "vertexMass", one),
               UsageError);
  try {
    simulation.SetComponentField("root/bead/load", "forces", one);
    FAIL() << "one number accepted for a Vec3 force";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "root/bead/load.forces: has 1 numbers (expected 3 or 3: one vector per index)");
  }
}

}  // namespace
}  // namespace fluxion::internal
