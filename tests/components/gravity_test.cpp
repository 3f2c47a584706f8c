// SOFA's Gravity component (components/gravity.h): it sets the gravity of its node and subtree,
// overriding the root node's `gravity` there. Checked against free fall under symplectic Euler,
// whose first step from rest is exactly v₁ = g·h, x₁ = x₀ + g·h² (SOFA's EulerExplicitSolver:
// v ← v + h·f/m, x ← x + h·v with f = m·g).
#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

constexpr double kH = 0.01;  // exactly the dt below; g·h and g·h² are then single roundings

// Two falling points: one in node "moon" (which may hold a Gravity), one in its child "rock",
// and one in the sibling "earth", which keeps the root's gravity.
std::string Scene(const std::string& moon_gravity) {
  return R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="moon">
    )" + moon_gravity +
         R"(
    <MechanicalObject position="0 0 0"/>
    <UniformMass vertexMass="2"/>
    <Node name="rock">
      <MechanicalObject position="1 0 0"/>
      <UniformMass vertexMass="4"/>
    </Node>
  </Node>
  <Node name="earth">
    <MechanicalObject position="2 0 0"/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>)";
}

double FirstStepVelocityY(const std::string& moon_gravity, const std::string& object) {
  Simulation simulation = LoadScene(Scene(moon_gravity));
  simulation.Step();
  const int index = simulation.FindObject(object);
  EXPECT_GE(index, 0) << object;
  return simulation.velocity(index)[1];
}

class GravityComponent : public testing::QuietTest {};

TEST_F(GravityComponent, SetsTheGravityOfItsNodeAndSubtree) {
  const std::string gravity = R"(<Gravity gravity="0 -1.62 0"/>)";
  // Exact: one multiplication (g·h) per velocity, m·g/m = g exactly for masses that are powers of
  // two.
  EXPECT_EQ(FirstStepVelocityY(gravity, "root/moon/MechanicalObject"), -1.62 * kH);
  EXPECT_EQ(FirstStepVelocityY(gravity, "root/moon/rock/MechanicalObject"), -1.62 * kH);
  EXPECT_EQ(FirstStepVelocityY(gravity, "root/earth/MechanicalObject"), -9.81 * kH);
}

TEST_F(GravityComponent, WithoutItTheRootGravityApplies) {
  EXPECT_EQ(FirstStepVelocityY("", "root/moon/MechanicalObject"), -9.81 * kH);
  EXPECT_EQ(FirstStepVelocityY("", "root/moon/rock/MechanicalObject"), -9.81 * kH);
}

TEST_F(GravityComponent, DefaultsToZeroAsInSofa) {
  EXPECT_EQ(FirstStepVelocityY("<Gravity/>", "root/moon/MechanicalObject"), 0.0);
  EXPECT_EQ(FirstStepVelocityY("<Gravity/>", "root/earth/MechanicalObject"), -9.81 * kH);
}

TEST_F(GravityComponent, PositionFollowsTheFreeFallRecursion) {
  Simulation simulation = LoadScene(Scene(R"(<Gravity gravity="0 -1.62 0"/>)"));
  simulation.Step();
  const double v1 = -1.62 * kH;
  EXPECT_EQ(simulation.position(0)[1], 0.0 + kH * v1);  // x₁ = x₀ + h·v₁
}

TEST_F(GravityComponent, RefusesAGravityThatIsNotThreeNumbers) {
  try {
    LoadScene(Scene(R"(<Gravity gravity="0 -1.62"/>)"), "moon.scn");
    FAIL() << "expected a SceneError";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1u);
    EXPECT_EQ(error.diagnostics()[0].Format(),
              "moon.scn:4: Gravity 'gravity' has 2 numbers (expected 3, as in SOFA)");
  }
}

TEST_F(GravityComponent, IsListedAsAContextComponent) {
  const ComponentInfo* info = testing::TestHost().FindComponent("Gravity");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->spec.kind, ComponentKind::kContext);
  EXPECT_EQ(info->origin, "built-in");
}

}  // namespace
}  // namespace fluxion
