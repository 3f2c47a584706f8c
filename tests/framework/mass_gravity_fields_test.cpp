// Gravity and UniformMass changed between steps (Simulation::SetComponentField; fluxion-view's
// panel, a SofaPython3 controller): set before the first step, the root's or a Gravity
// component's `gravity`, UniformMass's `totalMass` or `vertexMass` give the trajectory of the XML
// with that value, bit for bit, with an explicit and with implicit solvers (assembled M for a
// direct linear solver, matrix-free for CG), so the change reaches the weight, M and the solvers'
// caches of M; changed mid-run they act from the next step as the hand recursion says; bad
// values and dt are refused with one message.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion::internal {
namespace {

using fluxion::testing::LoadScene;

class MassGravityFields : public fluxion::testing::QuietTest {};

// The solver blocks compared: symplectic Euler; implicit Euler with an assembled direct solver
// (M in the factorised matrix); implicit Euler with matrix-free CG (M applied as a product).
const char* const kSolvers[] = {
    R"(<EulerExplicitSolver/>)",
    R"(<EulerImplicitSolver rayleighStiffness="0.01" rayleighMass="0.1"/>
  <SparseLDLSolver/>)",
    R"(<EulerImplicitSolver rayleighStiffness="0.01" rayleighMass="0.1"/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-20"/>)",
};

// An 8 × 8 cloth of springs held at two corners (scenes/cloth_grid.scn), with the root's
// `gravity` attribute or, when `component` is set, a Gravity component named "g" in the root,
// and a UniformMass given by `mass` (e.g. totalMass="1").
std::string Cloth(const char* solver, const std::string& gravity, const std::string& mass,
                  bool component = false) {
  const std::string root_gravity = component ? "0 0 0" : gravity;
  const std::string gravity_component =
      component ? "<Gravity name=\"g\" gravity=\"" + gravity + "\"/>" : "";
  return R"(<Node name="root" gravity=")" + root_gravity + R"(" dt="0.002">
  )" + gravity_component +
         solver + R"(
  <Node name="cloth">
    <RegularGridTopology name="grid" n="8 1 8" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs" template="Vec3d"/>
    <UniformMass name="mass" )" +
         mass + R"(/>
    <FixedProjectiveConstraint indices="0 7"/>
    <MeshSpringForceField linesStiffness="200" linesDamping="0.5"/>
  </Node>
</Node>)";
}

// `changed` after the field was set and `written` (the XML with the value) ran the same steps:
// equal bit for bit, positions, velocities and energies; and not what `unchanged` gives.
void ExpectSameRun(Simulation& changed, Simulation& written, Simulation& unchanged) {
  constexpr int kSteps = 40;
  changed.Run(kSteps);
  written.Run(kSteps);
  unchanged.Run(kSteps);
  const auto x = changed.position(0), expected = written.position(0), plain = unchanged.position(0);
  const auto v = changed.velocity(0), expected_v = written.velocity(0);
  ASSERT_EQ(x.size(), 8 * 8 * 3);
  int different = 0;
  for (Index k = 0; k < x.size(); ++k) {
    EXPECT_EQ(x[k], expected[k]) << k;
    EXPECT_EQ(v[k], expected_v[k]) << k;
    different += x[k] != plain[k];
  }
  EXPECT_EQ(changed.KineticEnergy(), written.KineticEnergy());
  EXPECT_EQ(changed.PotentialEnergy(), written.PotentialEnergy());
  EXPECT_GT(different, 100);  // the change did act
}

// g = (0.5, −3, 1) set before the first step over a scene written with (0, −9.81, 0): the XML
// with (0.5, −3, 1), including the axes where g was 0 at load.
TEST_F(MassGravityFields, GravitySetBeforeTheFirstStepIsTheXmlValue) {
  const double gravity[3] = {0.5, -3.0, 1.0};
  for (const char* solver : kSolvers) {
    for (const bool component : {false, true}) {
      SCOPED_TRACE(std::string(solver) + (component ? " Gravity component" : " root attribute"));
      const std::string mass = "totalMass=\"1\"";
      Simulation changed = LoadScene(Cloth(solver, "0 -9.81 0", mass, component));
      Simulation written = LoadScene(Cloth(solver, "0.5 -3 1", mass, component));
      Simulation unchanged = LoadScene(Cloth(solver, "0 -9.81 0", mass, component));
      changed.SetComponentField(component ? "root/g" : "root", "gravity", gravity);
      ExpectSameRun(changed, written, unchanged);
    }
  }
}

// totalMass = 3 (each point 3/64 kg, computed as the build computes it) and vertexMass = 0.05
// set before the first step over a scene written with totalMass="1": the XML with the value.
TEST_F(MassGravityFields, UniformMassSetBeforeTheFirstStepIsTheXmlValue) {
  struct Case {
    const char* field;
    double value;
    const char* xml;
  };
  for (const char* solver : kSolvers) {
    for (const Case& c : {Case{"totalMass", 3.0, "totalMass=\"3\""},
                          Case{"vertexMass", 0.05, "vertexMass=\"0.05\""}}) {
      SCOPED_TRACE(std::string(solver) + " " + c.field);
      Simulation changed = LoadScene(Cloth(solver, "0 -9.81 0", "totalMass=\"1\""));
      Simulation written = LoadScene(Cloth(solver, "0 -9.81 0", c.xml));
      Simulation unchanged = LoadScene(Cloth(solver, "0 -9.81 0", "totalMass=\"1\""));
      const double value[1] = {c.value};
      changed.SetComponentField("root/cloth/mass", c.field, value);
      ExpectSameRun(changed, written, unchanged);
    }
  }
}

// A free point of 2 kg at rest at the origin under g₁ = (0, −10, 0), symplectic Euler with
// h = 0.01 (v ← v + h·g, x ← x + h·v); at step 20 the root's gravity becomes g₂ = (3, −1, 0):
// from step 21 on the velocity grows by h·g₂ per step (x(t) changes slope exactly as g does).
TEST_F(MassGravityFields, GravityChangedMidRunActsFromTheNextStep) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 -10 0" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="bead">
    <MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass vertexMass="2"/>
  </Node>
</Node>)");
  constexpr double kH = 0.01;
  double g[3] = {0.0, -10.0, 0.0}, x[3] = {0, 0, 0}, v[3] = {0, 0, 0};
  for (int n = 0; n < 50; ++n) {
    if (n == 20) {
      g[0] = 3.0, g[1] = -1.0, g[2] = 0.0;
      simulation.SetComponentField("root", "gravity", g);
      // v after the 20 steps under g₁: exactly 20·h·g₁ (to round-off).
      EXPECT_NEAR(simulation.velocity(0)[1], 20 * kH * -10.0, 1e-13);
      EXPECT_EQ(simulation.velocity(0)[0], 0.0);
    }
    simulation.Step();
    for (int a = 0; a < 3; ++a) {
      v[a] += kH * g[a];
      x[a] += kH * v[a];
    }
  }
  // Round-off only: the solver forms a = (m·g)·(1/m).
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(simulation.position(0)[a], x[a], 1e-14) << a;
    EXPECT_NEAR(simulation.velocity(0)[a], v[a], 1e-14) << a;
  }
  // The closed form: v = 20·h·g₁ + 30·h·g₂, x_x = h²·3·(1 + … + 30) = 3·h²·465.
  EXPECT_NEAR(simulation.velocity(0)[0], 30 * kH * 3.0, 1e-13);
  EXPECT_NEAR(simulation.velocity(0)[1], 20 * kH * -10.0 + 30 * kH * -1.0, 1e-13);
  EXPECT_NEAR(simulation.position(0)[0], 3.0 * kH * kH * 465.0, 1e-13);
}

// A free point pushed by F = (1, −2, 0), no gravity, 2 kg; at step 25 its vertexMass becomes
// 0.5 kg. Symplectic and implicit Euler (no Rayleigh damping, a direct solver) both give, for a
// constant force and no stiffness, v ← v + h·F/m, x ← x + h·v: the hand recursion with the new m
// from step 26 on, to round-off (the implicit one only if the factorised M changed too). The
// kinetic energy is ½·m·|v|² with the new mass.
TEST_F(MassGravityFields, UniformMassChangedMidRunActsFromTheNextStep) {
  const char* const undamped_implicit =
      R"(<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <SparseLDLSolver/>)";
  for (const char* solver : {kSolvers[0], undamped_implicit}) {
    for (const char* field : {"vertexMass", "totalMass"}) {  // one point: the same number
      SCOPED_TRACE(std::string(solver) + " " + field);
      Simulation simulation = LoadScene(std::string(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  )") + solver + R"(
  <Node name="bead">
    <MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass name="mass" vertexMass="2"/>
    <ConstantForceField forces="1 -2 0"/>
  </Node>
</Node>)");
      constexpr double kH = 0.01, kForce[3] = {1.0, -2.0, 0.0};
      double m = 2.0, x[3] = {0, 0, 0}, v[3] = {0, 0, 0};
      for (int n = 0; n < 50; ++n) {
        if (n == 25) {
          m = 0.5;
          const double value[1] = {m};
          simulation.SetComponentField("root/bead/mass", field, value);
        }
        simulation.Step();
        for (int a = 0; a < 3; ++a) {
          v[a] += kH * kForce[a] / m;
          x[a] += kH * v[a];
        }
      }
      for (int a = 0; a < 3; ++a) {
        EXPECT_NEAR(simulation.position(0)[a], x[a], 1e-13) << a;
        EXPECT_NEAR(simulation.velocity(0)[a], v[a], 1e-13) << a;
      }
      // v_x = 25·h/2 + 25·h/0.5 = 0.625: the new mass acted (2 kg throughout gives 0.25).
      EXPECT_NEAR(simulation.velocity(0)[0], 0.625, 1e-13);
      EXPECT_NEAR(simulation.KineticEnergy(), 0.5 * 0.5 * (v[0] * v[0] + v[1] * v[1]), 1e-13);
    }
  }
}

TEST_F(MassGravityFields, WhatCanChangeIsListed) {
  Simulation simulation = LoadScene(Cloth(kSolvers[0], "0 -9.81 0", "totalMass=\"1\"", true));
  EXPECT_EQ(simulation.RuntimeFields("root"), (std::vector<std::string>{"gravity"}));
  EXPECT_EQ(simulation.RuntimeFields("root/g"), (std::vector<std::string>{"gravity"}));
  EXPECT_EQ(simulation.RuntimeFields("root/cloth/mass"),
            (std::vector<std::string>{"vertexMass", "totalMass"}));
}

// Refused values leave the scene as it was: the run equals the unchanged one.
TEST_F(MassGravityFields, BadValuesAndDtAreRefusedWithOneMessage) {
  Simulation simulation = LoadScene(Cloth(kSolvers[1], "0 -9.81 0", "totalMass=\"1\""));
  Simulation unchanged = LoadScene(Cloth(kSolvers[1], "0 -9.81 0", "totalMass=\"1\""));
  const auto refused = [&](const char* component, const char* field,
                           std::vector<double> values) -> std::string {
    try {
      simulation.SetComponentField(component, field, values);
    } catch (const UsageError& error) {
      return error.what();
    }
    return "accepted";
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(refused("root/cloth/mass", "totalMass", {-1.0}),
            "root/cloth/mass.totalMass: is -1 (expected a finite mass >= 0 [kg])");
  EXPECT_EQ(refused("root/cloth/mass", "vertexMass", {nan}),
            "root/cloth/mass.vertexMass: is nan (expected a finite mass >= 0 [kg])");
  EXPECT_EQ(refused("root/cloth/mass", "vertexMass", {1.0, 2.0}),
            "root/cloth/mass.vertexMass: has 2 numbers (expected one)");
  EXPECT_EQ(refused("root", "gravity", {0.0, -9.81}),
            "root.gravity: has 2 numbers (expected 3, a vector in world coordinates)");
  EXPECT_EQ(refused("root", "gravity", {0.0, nan, 0.0}), "root.gravity: expected finite numbers");
  EXPECT_EQ(refused("root", "dt", {0.001}),
            "root.dt cannot be changed while the simulation runs (the step clock t0 + n·dt and "
            "the multistep solvers' history assume one dt for the whole run: set dt in the "
            "scene, or scene-runner's --dt)");
  simulation.Run(20);
  unchanged.Run(20);
  for (Index k = 0; k < simulation.position(0).size(); ++k)
    EXPECT_EQ(simulation.position(0)[k], unchanged.position(0)[k]) << k;
}

}  // namespace
}  // namespace fluxion::internal
