// Inline scenes shared by the implicit solver tests: SOFA's fixed point + spring + mass scene
// (sofa-notes §2.1), a one-dimensional undamped oscillator and the benchmark's cloth.
#pragma once

#include <cstdio>
#include <ostream>
#include <string>

#include "fluxion/errors.h"
#include "support/scene_text.h"
#include "support/test_support.h"

namespace fluxion::testing {

/// The two linear solvers every implicit solver is checked with.
enum class Linear { kCg, kLdl };

inline const char* LinearName(Linear linear) { return linear == Linear::kCg ? "CG" : "LDL"; }
inline void PrintTo(Linear linear, std::ostream* out) { *out << LinearName(linear); }

/// SOFA's CGLinearSolver of the ODE solver tests, or the direct solver.
inline std::string LinearSolverXml(Linear linear) {
  return linear == Linear::kCg
             ? R"(<CGLinearSolver iterations="3000" tolerance="1e-12" threshold="1e-12"/>)"
             : R"(<SparseLDLSolver/>)";
}

/// ODESolverSpringTest::prepareScene(K, m, l0 = 1): a fixed point at y = 2, a mass m at y = 1 on a
/// spring of stiffness K and rest length 1, gravity −10 along y, step h. Object 1 is massDof.
inline std::string SofaSpringScene(const std::string& solver_xml, double k, double m, double h,
                                   Linear linear) {
  return R"(<Node name="root" gravity="0 -10 0" dt=")" + Exact(h) + R"(">
  <DefaultAnimationLoop/>
  )" + solver_xml +
         "\n  " + LinearSolverXml(linear) + R"(
  <Node name="FixedPointNode">
    <MechanicalObject name="fixedPoint" template="Vec3d" position="0 2 0" velocity="0 0 0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="MassNode">
    <MechanicalObject name="massDof" template="Vec3d" position="0 1 0" velocity="0 0 0"/>
    <UniformMass totalMass=")" +
         Exact(m) + R"("/>
  </Node>
  <SpringForceField spring="0 0 )" +
         Exact(k) + R"( 0 1" object1="@FixedPointNode/fixedPoint" object2="@MassNode/massDof"/>
</Node>)";
}

/// Rest length of the oscillator's spring: the mass sits at kOscillatorRest + x, so the spring
/// stays longer than 0 for |x| < kOscillatorRest and its force −ω²·x is exactly linear.
inline constexpr double kOscillatorRest = 2.0;

/// An undamped 1-DOF oscillator (Vec1d, m = 1, k = ω², no gravity) starting at displacement x0
/// with velocity v0. Object 1 is the mass; its position is kOscillatorRest + x.
inline std::string OscillatorScene(const std::string& solver_xml, double omega, double h, double x0,
                                   double v0, Linear linear) {
  return R"(<Node name="root" gravity="0 0 0" dt=")" + Exact(h) + R"(">
  )" + solver_xml +
         "\n  " + LinearSolverXml(linear) + R"(
  <Node name="Anchor">
    <MechanicalObject name="anchor" template="Vec1d" position="0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="Body">
    <MechanicalObject name="body" template="Vec1d" position=")" +
         Exact(kOscillatorRest + x0) + R"(" velocity=")" + Exact(v0) + R"("/>
    <UniformMass vertexMass="1"/>
  </Node>
  <SpringForceField spring="0 0 )" +
         Exact(omega * omega) + " 0 " + Exact(kOscillatorRest) +
         R"(" object1="@Anchor/anchor" object2="@Body/body"/>
</Node>)";
}

/// A cloth of n × n points in the xz-plane (RegularGridTopology, springs on its edges and one
/// diagonal per quad, total mass 1) held at two corners, falling under gravity, with an implicit
/// Euler step: the benchmark's cloth (tools/benchmarks/solver_benchmark.cpp).
struct ImplicitCloth {
  int n = 8;
  double dt = 0.01;
  double rayleigh_stiffness = 0.0, rayleigh_mass = 0.0;
  double stiffness = 100.0, damping = 0.1;  // MeshSpringForceField's linesStiffness, linesDamping
  std::string linear_solver = "<SparseLDLSolver/>";
};
inline std::string ClothScene(const ImplicitCloth& cloth) {
  const std::string n = std::to_string(cloth.n);
  return R"(<Node name="root" gravity="0 -9.81 0" dt=")" + Exact(cloth.dt) + R"(">
  <EulerImplicitSolver rayleighStiffness=")" +
         Exact(cloth.rayleigh_stiffness) + R"(" rayleighMass=")" + Exact(cloth.rayleigh_mass) +
         R"("/>
  )" + cloth.linear_solver +
         R"(
  <Node name="cloth">
    <RegularGridTopology n=")" +
         n + " 1 " + n + R"(" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 )" +
         std::to_string(cloth.n - 1) + R"("/>
    <MeshSpringForceField linesStiffness=")" +
         Exact(cloth.stiffness) + R"(" linesDamping=")" + Exact(cloth.damping) + R"("/>
  </Node>
</Node>)";
}

/// The diagnostics of the SceneError that loading `xml` throws, one per line; empty (and a test
/// failure) when the scene loads.
inline std::string SceneErrorText(const std::string& xml) {
  try {
    (void)LoadScene(xml);
  } catch (const SceneError& error) {
    std::string text;
    for (const SceneDiagnostic& d : error.diagnostics()) text += d.Format() + "\n";
    return text;
  }
  ADD_FAILURE() << "the scene loaded, expected a SceneError";
  return {};
}

/// A spring compressed to half its rest length is unstable sideways (its transverse stiffness is
/// ks·(d − L0)/d = −ks): with h = 1 every implicit system matrix (M + h²K, M + h²β·K, 4M/h² + K)
/// is indefinite and the LDLᵀ factorisation of the first step fails.
inline std::string CompressedSpringScene(const std::string& solver_xml) {
  return R"(<Node name="root" gravity="0 0 0" dt="1">
  )" + solver_xml +
         R"(
  <SparseLDLSolver/>
  <MechanicalObject position="0 0 0  0 0.5 0" velocity="0 0 0  0.5 0 0"/>
  <FixedProjectiveConstraint indices="0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 1 10000 0 1"/>
</Node>)";
}

/// Steps CompressedSpringScene(`solver_xml`) once: the step must be rejected (NumericalError whose
/// message contains `reason`) and leave positions, velocities and time exactly as they were.
inline void ExpectFailedFactorisationLeavesTheStateUntouched(const std::string& solver_xml,
                                                             const std::string& reason) {
  Simulation simulation = LoadScene(CompressedSpringScene(solver_xml));
  const State before = simulation.solver_nodes()[0].state;
  try {
    simulation.Step();
    ADD_FAILURE() << "the step was accepted";
  } catch (const NumericalError& error) {
    EXPECT_NE(std::string(error.what()).find(reason), std::string::npos) << error.what();
  }
  const State& after = simulation.solver_nodes()[0].state;
  EXPECT_EQ(after.x, before.x);
  EXPECT_EQ(after.v, before.v);
  EXPECT_EQ(after.time, before.time);
  EXPECT_EQ(simulation.time(), 0.0);
}

}  // namespace fluxion::testing
