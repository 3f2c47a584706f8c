// Simulation::SetComponentField (fluxion/simulation.h): a ConstantForceField's load changed
// between steps, as a SofaPython3 controller changes it, acts from the next step on; a
// MeshSpringForceField's, StiffSpringForceField's stiffness or damping changed between steps
// (fluxion-view's panel) is the XML's value from then on, for an implicit solver too; fields no
// component declared changeable are refused with what can be changed.
#include <cmath>
#include <string>
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
  try {
    simulation.SetComponentField("root/bead/UniformMass", "separateGravity", one);
    FAIL() << "separateGravity accepted";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "root/bead/UniformMass.separateGravity cannot be changed while the simulation "
                 "runs (fields that can: vertexMass, totalMass)");
  }
  try {
    simulation.SetComponentField("root/bead/load", "forces", one);
    FAIL() << "one number accepted for a Vec3 force";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "root/bead/load.forces: has 1 numbers (expected 3 or 3: one vector per index)");
  }
}

// An 8 × 8 cloth of MeshSpringForceField springs (scenes/cloth_grid.scn) with linesStiffness S.
std::string Cloth(const char* stiffness) {
  return std::string(R"(<Node name="root" gravity="0 -9.81 0" dt="0.001">
  <EulerExplicitSolver/>
  <Node name="cloth">
    <RegularGridTopology name="grid" n="8 1 8" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs" template="Vec3d"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 7"/>
    <MeshSpringForceField linesStiffness=")") +
         stiffness + R"(" linesDamping="0.5"/>
  </Node>
</Node>)";
}

// linesStiffness = 250 set before the first step: the XML's linesStiffness="250", bit for bit
// (each spring's ks = s/L0 computed as the build computes it), not the scene's own 100.
TEST_F(ComponentFields, MeshSpringStiffnessSetBeforeTheFirstStepIsTheXmlValue) {
  Simulation changed = LoadScene(Cloth("100"));
  Simulation written = LoadScene(Cloth("250"));
  Simulation unchanged = LoadScene(Cloth("100"));
  const double stiffness[1] = {250.0};
  changed.SetComponentField("root/cloth/MeshSpringForceField", "linesStiffness", stiffness);
  changed.Run(40);
  written.Run(40);
  unchanged.Run(40);
  const auto x = changed.position(0), expected = written.position(0), plain = unchanged.position(0);
  ASSERT_EQ(x.size(), 8 * 8 * 3);
  int different = 0;
  for (Index k = 0; k < x.size(); ++k) {
    EXPECT_EQ(x[k], expected[k]) << k;
    different += x[k] != plain[k];
  }
  EXPECT_GT(different, 100);  // the change did act
}

// One spring from a fixed point to a 0.5 kg bead on the x axis (L0 = 2 from the rest positions,
// the bead leaving it at 0.5 m/s, no gravity): symplectic Euler, v ← v + h·f/m, x ← x + h·v with f
// = −ks·(x − L0), ks = s/L0. `stiffness` s is 40 N for 30 steps, then set to 90 N: the hand
// recursion with the changed ks from step 31 on, to round-off.
TEST_F(ComponentFields, MeshSpringStiffnessChangedMidRunActsFromTheNextStep) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="spring">
    <MeshTopology edges="0 1"/>
    <MechanicalObject name="dofs" position="0 0 0  2 0 0" velocity="0 0 0  0.5 0 0"/>
    <UniformMass vertexMass="0.5"/>
    <FixedProjectiveConstraint indices="0"/>
    <MeshSpringForceField name="springs" stiffness="40"/>
  </Node>
</Node>)");
  constexpr double kRest = 2.0, kBead = 0.5, kH = 0.01;
  double x = 2.0, v = 0.5, s = 40.0;
  for (int n = 0; n < 60; ++n) {
    if (n == 30) {
      s = 90.0;
      const double values[1] = {s};
      simulation.SetComponentField("root/spring/springs", "stiffness", values);
    }
    simulation.Step();
    v += kH * (-(s / kRest) * (x - kRest)) / kBead;
    x += kH * v;
  }
  EXPECT_NEAR(simulation.position(0)[3], x, 1e-14);
  EXPECT_NEAR(simulation.velocity(0)[3], v, 1e-13);
}

// A kind that had no springs at load gets none (refused, saying why); one value only.
TEST_F(ComponentFields, MeshSpringKindsWithoutSpringsAndWrongCountsAreRefused) {
  Simulation simulation = LoadScene(Cloth("100"));
  const double one[1] = {1.0}, two[2] = {1.0, 2.0};
  try {
    simulation.SetComponentField("root/cloth/MeshSpringForceField", "tetrahedraStiffness", one);
    FAIL() << "a kind without springs accepted";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "root/cloth/MeshSpringForceField.tetrahedraStiffness: no spring of this kind was "
                 "built (its stiffness and damping were 0 when the scene was loaded: expected a "
                 "kind that has springs)");
  }
  EXPECT_THROW(simulation.SetComponentField("root/cloth/MeshSpringForceField", "linesDamping", two),
               UsageError);
  const double negative[1] = {-1.0};
  EXPECT_THROW(
      simulation.SetComponentField("root/cloth/MeshSpringForceField", "stiffness", negative),
      UsageError);
}

// A chain of three StiffSpringForceField springs (L0 = 0.3 m) hanging from a fixed point, with
// `stiffness` and `damping` as written; implicit Euler with CG, so that the change must reach
// the assembled matrix (K and D), not only the force.
std::string Chain(const char* stiffness, const char* damping) {
  return std::string(R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerImplicitSolver rayleighStiffness="0.01" rayleighMass="0.1"/>
  <CGLinearSolver iterations="100" tolerance="1e-14" threshold="1e-20"/>
  <Node name="chain">
    <MechanicalObject name="dofs" position="0 0 0  0.3 0 0  0.6 0 0  0.9 0 0"/>
    <UniformMass vertexMass="0.2"/>
    <FixedProjectiveConstraint indices="0"/>
    <StiffSpringForceField name="springs" indices1="0 1 2" indices2="1 2 3" lengths="0.3"
                           stiffness=")") +
         stiffness + R"(" damping=")" + damping + R"("/>
  </Node>
</Node>)";
}

// Each of the two fields set before the first step: the XML with that value, bit for bit, and
// not the unchanged scene (one value for every spring; a list sets them in order, the last
// value repeated as in SOFA's per-spring lists).
TEST_F(ComponentFields, StiffSpringFieldsSetBeforeTheFirstStepAreTheXmlValues) {
  struct Case {
    const char* field;
    std::vector<double> values;
    const char* stiffness;
    const char* damping;
  };
  for (const Case& c :
       {Case{"stiffness", {800.0}, "800", "2"}, Case{"damping", {7.5}, "300", "7.5"},
        Case{"stiffness", {500.0, 900.0}, "500 900", "2"}}) {
    SCOPED_TRACE(c.field);
    Simulation changed = LoadScene(Chain("300", "2"));
    Simulation written = LoadScene(Chain(c.stiffness, c.damping));
    Simulation unchanged = LoadScene(Chain("300", "2"));
    EXPECT_EQ(changed.RuntimeFields("root/chain/springs"),
              (std::vector<std::string>{"stiffness", "damping"}));
    changed.SetComponentField("root/chain/springs", c.field, c.values);
    changed.Run(30);
    written.Run(30);
    unchanged.Run(30);
    const auto x = changed.position(0), expected = written.position(0),
               plain = unchanged.position(0);
    ASSERT_EQ(x.size(), 12);
    int different = 0;
    for (Index k = 0; k < x.size(); ++k) {
      EXPECT_EQ(x[k], expected[k]) << k;
      different += x[k] != plain[k];
    }
    EXPECT_GT(different, 3);  // the change did act
  }
}

// One spring from a fixed point to a 0.5 kg bead on the x axis (L0 = 2, the bead leaving at
// 0.5 m/s, no gravity, no damping), symplectic Euler: v ← v + h·f/m, x ← x + h·v with
// f = −ks·(x − L0), ks = 40 N/m for 30 steps, then 90 N/m (used as given: no scaling by L0,
// unlike MeshSpringForceField's). The hand recursion, to round-off.
TEST_F(ComponentFields, StiffSpringStiffnessChangedMidRunActsFromTheNextStep) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="spring">
    <MechanicalObject name="dofs" position="0 0 0  2 0 0" velocity="0 0 0  0.5 0 0"/>
    <UniformMass vertexMass="0.5"/>
    <FixedProjectiveConstraint indices="0"/>
    <StiffSpringForceField name="springs" spring="0 1 40 0 2"/>
  </Node>
</Node>)");
  constexpr double kRest = 2.0, kBead = 0.5, kH = 0.01;
  double x = 2.0, v = 0.5, ks = 40.0;
  for (int n = 0; n < 60; ++n) {
    if (n == 30) {
      ks = 90.0;
      const double values[1] = {ks};
      simulation.SetComponentField("root/spring/springs", "stiffness", values);
    }
    simulation.Step();
    v += kH * (-ks * (x - kRest)) / kBead;
    x += kH * v;
  }
  EXPECT_NEAR(simulation.position(0)[3], x, 1e-14);
  EXPECT_GT(std::abs(x - 2.0), 0.01);  // it moved
}

TEST_F(ComponentFields, StiffSpringWrongValuesAreRefused) {
  Simulation simulation = LoadScene(Chain("300", "2"));
  const double four[4] = {1, 2, 3, 4}, negative[1] = {-1};
  try {
    simulation.SetComponentField("root/chain/springs", "stiffness", four);
    FAIL() << "four values accepted for three springs";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "root/chain/springs.stiffness: has 4 values (expected 1 to 3, one per spring)");
  }
  EXPECT_THROW(simulation.SetComponentField("root/chain/springs", "damping", negative), UsageError);
}

}  // namespace
}  // namespace fluxion::internal
