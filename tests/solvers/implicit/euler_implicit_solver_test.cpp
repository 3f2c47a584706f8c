// EulerImplicitSolver: SOFA's other Backward tests (sofa-notes §2.2), its options against
// hand-written recursions, a damped oscillator against the exact solution, failure handling and
// parameter validation.
#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "implicit_test_scenes.h"

namespace fluxion {
namespace {

using fluxion::testing::Exact;
using fluxion::testing::Linear;
using fluxion::testing::LoadScene;
using fluxion::testing::SofaSpringScene;
using ::testing::HasSubstr;

// Same round-off argument as in sofa_spring_recursion_test.cpp: a few ulps per step, stable
// recursions, ≤ 2001 steps.
constexpr double kRelativeTolerance = 1e-12;

class EulerImplicitSolverTest : public fluxion::testing::QuietTest {};

TEST_F(EulerImplicitSolverTest, DeclaresItsTraits) {
  const ComponentInfo* entry = fluxion::testing::TestHost().FindComponent("EulerImplicitSolver");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->traits.order, 1);
  EXPECT_EQ(entry->traits.flags, kImplicitMethod | kNeedsLinearSolver);
  EXPECT_EQ(entry->traits.force_evaluations, 1);
  EXPECT_EQ(entry->traits.linear_solves, 1);
}

// SOFA's SpringSolverDynamic_test (scenes/EulerImplicitSpringDynamicTest.xml): the mass hangs at
// its equilibrium y* = 1 − m·g/K = 0 minus 1, so y(t) = cos(√(K/m)·t). SOFA's scene has dt = 0.1
// but the test animates with 0.001; Fluxion steps with the root's dt, so dt = 0.001 here. SOFA's
// tolerance 0.01 covers backward Euler's numerical damping, 1 − exp(−ω²h·t/2) ≈ 0.01 at t = 2.
TEST_F(EulerImplicitSolverTest, SpringSolverDynamicFollowsTheCosine) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 -10 0" dt="0.001">
  <RequiredPlugin pluginName="Sofa.Component.ODESolver.Backward"/>
  <DefaultAnimationLoop/>
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver template="GraphScattered" iterations="3000" tolerance="1e-9" threshold="1e-9"/>
  <Node name="fixedPointNode">
    <MechanicalObject template="Vec3d" position="0 2 0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="MassNode">
    <MechanicalObject template="Vec3d" position="0 1 0"/>
    <UniformMass totalMass="10"/>
  </Node>
  <SpringForceField object1="@fixedPointNode" object2="@MassNode" spring="0 0 100 0 1"/>
</Node>)");
  const double omega = std::sqrt(100.0 / 10.0);
  while (true) {
    const double t = simulation.time();
    ASSERT_NEAR(simulation.position(1)[1], std::cos(omega * t), 0.01) << "t = " << t;
    if (t >= 2.0) break;
    simulation.Step();
  }
}

// Steps with dt = 1 until the state stops moving (SOFA's EulerImplicitSolverStatic_test: max
// |Δx| and |Δv| ≤ 1e-4 between steps, at most 100 steps); returns the number of steps.
int StepUntilStatic(Simulation& simulation) {
  for (int step = 1; step <= 100; ++step) {
    const Vector x = simulation.solver_nodes()[0].state.x;
    const Vector v = simulation.solver_nodes()[0].state.v;
    simulation.Step();
    const double dx = (simulation.solver_nodes()[0].state.x - x).cwiseAbs().maxCoeff();
    const double dv = (simulation.solver_nodes()[0].state.v - v).cwiseAbs().maxCoeff();
    if (dx <= 1e-4 && dv <= 1e-4) return step;
  }
  return 100;
}

// EulerImplicitSolverStatic_test, case 1: a string of two particles, the first fixed; the second
// settles at −m·g/K = −9.81/1000 below its rest position (SOFA checks 1e-4).
TEST_F(EulerImplicitSolverTest, StaticStringSettlesUnderGravity) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="1">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="25" tolerance="1e-5" threshold="1e-5"/>
  <Node name="string_1">
    <MechanicalObject position="0 1 0  0 0 0"/>
    <UniformMass vertexMass="1"/>
    <SpringForceField spring="0 1 1000 0.1 1"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
</Node>)");
  ASSERT_LT(StepUntilStatic(simulation), 100) << "not static after 100 steps";
  const auto x = simulation.position(0);
  EXPECT_NEAR(x[3], 0.0, 1e-4);
  EXPECT_NEAR(x[4], -0.00981, 1e-4);
  EXPECT_NEAR(x[5], 0.0, 1e-4);
}

// EulerImplicitSolverStatic_test, case 2: two free unit masses 3 apart on a spring of rest length
// 1, no gravity: they end 1 apart around their centre of mass y = 0.5, the child at the origin.
TEST_F(EulerImplicitSolverTest, StaticPairSettlesAroundItsCentreOfMass) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt="1">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="25" tolerance="1e-5" threshold="1e-5"/>
  <MechanicalObject name="DOF" position="0 2 0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 0 1000 0.1 1" object1="@/DOF" object2="@childNode/childDof"/>
  <Node name="childNode">
    <MechanicalObject name="childDof" position="0 -1 0"/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>)");
  ASSERT_LT(StepUntilStatic(simulation), 100) << "not static after 100 steps";
  const auto child = simulation.position(1);
  EXPECT_NEAR(child[0], 0.0, 1e-4);
  EXPECT_NEAR(child[1], 0.0, 1e-4);
  EXPECT_NEAR(child[2], 0.0, 1e-4);
  EXPECT_NEAR(simulation.position(0)[1], 1.0, 1e-4);
}

std::string DampedParticleScene(bool implicit_damping) {
  return std::string(R"(<Node name="root" gravity="0 0 0" dt="0.02">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver iterations="25" tolerance="1e-15" threshold="1e-15"/>
  <MechanicalObject position="0 0 0" velocity="1 1 1"/>
  <UniformMass totalMass="1"/>
  <UniformVelocityDampingForceField implicit=")") +
         (implicit_damping ? "1" : "0") + R"("/>
</Node>)";
}

// EulerImplicitSolver_withDamping_test (pins SOFA PR #4848): an explicit drag f = −c·v with no B
// matrix. Without a B·v term in b, v_{n+1} = (1 − h·c/m)·v_n, so after N steps
// x_N = h·Σ_{k=1..N} (1 − hc)^k = (1 − hc)(1 − (1 − hc)^N)/c  ≈ 9.913 for N = 2500 (SOFA checks
// ≈ v0·m/c = 10 within 0.1). The closed form is compared to 1e-9 relative (2500 steps of
// round-off).
TEST_F(EulerImplicitSolverTest, ExplicitDragFollowsTheDiscreteDecay) {
  Simulation simulation = LoadScene(DampedParticleScene(false));
  for (int step = 0; step < 2500; ++step) simulation.Step();
  const double h = 0.02, c = 0.1, q = 1 - h * c;
  const double expected = q * (1 - std::pow(q, 2500)) / c;
  for (int axis = 0; axis < 3; ++axis) {
    EXPECT_NEAR(simulation.position(0)[axis], 10.0, 0.1);
    EXPECT_NEAR(simulation.position(0)[axis], expected, 1e-9 * expected);
  }
}

// With implicit="1" the drag provides B = c·I, which enters A only: (m + h·c)·Δv = −h·c·v_n, so
// v_N = v_0·(m/(m + h·c))^N (a B·v term in b would count the drag twice).
TEST_F(EulerImplicitSolverTest, ImplicitDragEntersTheMatrixOnly) {
  Simulation simulation = LoadScene(DampedParticleScene(true));
  for (int step = 0; step < 100; ++step) simulation.Step();
  const double expected = std::pow(1.0 / (1.0 + 0.02 * 0.1), 100);
  for (int axis = 0; axis < 3; ++axis)
    EXPECT_NEAR(simulation.velocity(0)[axis], expected, kRelativeTolerance);
}

// Undamped 1-DOF oscillator with Rayleigh mass damping rM: ẍ + rM·ẋ + ω²x = 0, x(0) = 1,
// v(0) = 0, exact x(t) = e^{−ζωt}(cos ω_d t + (ζω/ω_d) sin ω_d t), ζ = rM/(2ω), ω_d = ω√(1 − ζ²).
//
// Tolerance (first order). In z = (ωx, v), ż = A·z with A = [[0, ω], [−ω, −rM]]; on this linear
// system the solver's step is exactly backward Euler, z_{n+1} = (I − hA)⁻¹ z_n. A's symmetric part
// diag(0, −rM) is ≤ 0, so ‖(I − hA)⁻¹‖ ≤ 1 and ‖z(t)‖ ≤ ‖z_0‖. The local error
// (I − hA)⁻¹[z(t+h) − z(t) − h·ż(t+h)] is at most (h²/2)·‖A‖²·‖z_0‖, and the propagated errors
// are not amplified, so ‖e_n‖ ≤ n·(h²/2)·‖A‖²·‖z_0‖ = (t_n·h/2)·‖A‖²·‖z_0‖ with
// ‖A‖² ≤ ‖A‖_F² = 2ω² + rM², and |x_n − x(t_n)| ≤ ‖e_n‖/ω. Round-off adds a few ulps of the
// positions (≈ 2) per step: n·1e-15.
TEST_F(EulerImplicitSolverTest, RayleighMassDampedOscillatorIsFirstOrderAccurate) {
  const double omega = 2.0, r_m = 0.5, h = 1e-3;
  Simulation simulation = LoadScene(fluxion::testing::OscillatorScene(
      "<EulerImplicitSolver rayleighMass=\"" + Exact(r_m) + "\"/>", omega, h, 1.0, 0.0,
      Linear::kCg));
  const double zeta = r_m / (2 * omega), omega_d = omega * std::sqrt(1 - zeta * zeta);
  const double a_norm_squared = 2 * omega * omega + r_m * r_m;
  const double z0_norm = omega * 1.0;
  for (int n = 1; n <= 5000; ++n) {
    simulation.Step();
    const double t = n * h;
    const double exact = std::exp(-zeta * omega * t) *
                         (std::cos(omega_d * t) + zeta * omega / omega_d * std::sin(omega_d * t));
    const double bound = (t * h / 2) * a_norm_squared * z0_norm / omega + n * 1e-15;
    ASSERT_NEAR(simulation.position(1)[0] - fluxion::testing::kOscillatorRest, exact, bound)
        << "t = " << t;
  }
}

// The options, each against its recursion on SOFA's spring scene (K = 100, m = 10, h = 0.1),
// written from sofa-notes §1.2 in 1-D (K+ = K along the spring, f = −K(y − z0) − m·g):
//   τh-form:    D = (1 + τh·rm)·m + τh(τh + rk)·K,  Δv = h·(f − rm·m·v − (τh + rk)·K·v)/D
//   firstOrder: v_{n+1} = f/(m + τh·K)
//   then y += h·v_{n+1}, and v *= exp(−h·vdamping).
struct Variant {
  const char* name;
  const char* attributes;
  double tau, rm, rk, vdamping;
  bool first_order;
};

void PrintTo(const Variant& variant, std::ostream* out) { *out << variant.name; }

class EulerImplicitVariants : public fluxion::testing::QuietTest,
                              public ::testing::WithParamInterface<Variant> {};

TEST_P(EulerImplicitVariants, MatchesRecursion) {
  const Variant& c = GetParam();
  const double K = 100, m = 10, h = 0.1, g = 10, z0 = 1;
  Simulation simulation = LoadScene(SofaSpringScene(
      std::string("<EulerImplicitSolver ") + c.attributes + "/>", K, m, h, Linear::kLdl));
  double y = z0, v = 0;
  const double th = c.tau * h;
  do {
    ASSERT_NEAR(simulation.position(1)[1], y, kRelativeTolerance * std::max(1.0, std::abs(y)))
        << "t = " << simulation.time();
    simulation.Step();
    const double f = -K * (y - z0) - m * g;
    if (c.first_order) {
      v = f / (m + th * K);
    } else {
      const double D = (1 + th * c.rm) * m + th * (th + c.rk) * K;
      v = v + h * (f - c.rm * m * v - (th + c.rk) * K * v) / D;
    }
    y = y + h * v;
    v *= std::exp(-h * c.vdamping);
  } while (simulation.time() < 2.0);
}

INSTANTIATE_TEST_SUITE_P(
    Options, EulerImplicitVariants,
    ::testing::Values(Variant{"Trapezoidal", R"(trapezoidalScheme="1")", 0.5, 0, 0, 0, false},
                      Variant{"TrapezoidalWithRayleigh",
                              R"(trapezoidalScheme="1" rayleighMass="0.1" rayleighStiffness="0.1")",
                              0.5, 0.1, 0.1, 0, false},
                      Variant{"FirstOrder", R"(firstOrder="1")", 1, 0, 0, 0, true},
                      Variant{"FirstOrderTrapezoidal", R"(firstOrder="1" trapezoidalScheme="1")",
                              0.5, 0, 0, 0, true},
                      Variant{"VelocityDamping", R"(vdamping="2")", 1, 0, 0, 2, false},
                      Variant{"SolveConstraintHasNoEffect", R"(solveConstraint="1")", 1, 0, 0, 0,
                              false}),
    [](const ::testing::TestParamInfo<Variant>& param_info) {
      return std::string(param_info.param.name);
    });

// The squared residual P·[M(v_{n+1} − v_n) − h·f(x_{n+1}, v_{n+1})]: SOFA's spring scene is linear
// along y, where one linearised backward Euler step is exact, so the residual is round-off: a few
// ulps of its largest terms, h·(K·1 + m·g) = 20, squared.
TEST_F(EulerImplicitSolverTest, ResidualIsRoundOffOnALinearProblem) {
  Simulation simulation = LoadScene(
      SofaSpringScene(R"(<EulerImplicitSolver computeResidual="1"/>)", 100, 10, 0.1, Linear::kLdl));
  const Solver& solver = *simulation.solver_nodes()[0].solver;
  ASSERT_EQ(solver.OutputNames(), std::vector<std::string>{"residual"});
  double residual = 0.0;
  solver.ReadOutputs(&residual);
  EXPECT_EQ(residual, std::numeric_limits<double>::max());  // SOFA's value before any step
  const double bound = std::pow(kRelativeTolerance * 20.0, 2);
  for (int step = 0; step < 20; ++step) {
    simulation.Step();
    solver.ReadOutputs(&residual);
    EXPECT_LE(residual, bound) << "step " << step;
  }
}

// A tilted spring is geometrically nonlinear: the linearised step leaves a residual.
TEST_F(EulerImplicitSolverTest, ResidualIsPositiveOnANonlinearProblem) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 -10 0" dt="0.1">
  <EulerImplicitSolver computeResidual="1"/>
  <SparseLDLSolver/>
  <MechanicalObject position="0 0 0  1 1 0"/>
  <FixedProjectiveConstraint indices="0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 1 100 0 1"/>
</Node>)");
  simulation.Step();
  double residual = 0.0;
  simulation.solver_nodes()[0].solver->ReadOutputs(&residual);
  EXPECT_GT(residual, 1e-10);
  EXPECT_TRUE(std::isfinite(residual));
}

TEST_F(EulerImplicitSolverTest, NoOutputsWithoutComputeResidual) {
  Simulation simulation =
      LoadScene(SofaSpringScene("<EulerImplicitSolver/>", 100, 10, 0.1, Linear::kCg));
  EXPECT_TRUE(simulation.solver_nodes()[0].solver->OutputNames().empty());
}

// A CG stopped before its tolerance is a warning (the step is accepted), not a failure. The spring
// is tilted so that b is not an eigenvector of A and one CG iteration cannot solve the system.
TEST_F(EulerImplicitSolverTest, UnconvergedLinearSolveIsAWarning) {
  ExpectWarnings(2);  // the first of the three steps, then the summary when the run ends
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 -10 0" dt="0.01">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="1" tolerance="1e-12" threshold="1e-12"/>
  <MechanicalObject position="0 2 0  1 1 0"/>
  <FixedProjectiveConstraint indices="0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 1 100 0 1"/>
</Node>)");
  for (int step = 0; step < 3; ++step) simulation.Step();
  EXPECT_DOUBLE_EQ(simulation.time(), 0.03);
  EXPECT_TRUE(simulation.solver_nodes()[0].state.x.allFinite());
  ::testing::internal::CaptureStderr();
  simulation.Finish();
  EXPECT_THAT(::testing::internal::GetCapturedStderr(),
              ::testing::HasSubstr("2 more times like this (3 in all, the last at step 3 (t = "
                                   "0.03)); the worst: step "));
}

// A compressed spring makes A = M + h²K indefinite at h = 1 (implicit_test_scenes.h): the step is
// rejected and the state is left as it was.
TEST_F(EulerImplicitSolverTest, FailedFactorisationLeavesTheStateUntouched) {
  fluxion::testing::ExpectFailedFactorisationLeavesTheStateUntouched("<EulerImplicitSolver/>",
                                                                     "positive definite");
}

TEST_F(EulerImplicitSolverTest, RejectsNegativeCoefficients) {
  for (const char* field : {"rayleighStiffness", "rayleighMass", "vdamping"}) {
    const std::string text = fluxion::testing::SceneErrorText(SofaSpringScene(
        std::string("<EulerImplicitSolver ") + field + "=\"-0.1\"/>", 100, 10, 0.1, Linear::kCg));
    EXPECT_THAT(text, HasSubstr(field));
    EXPECT_THAT(text, HasSubstr(">= 0"));
  }
}

TEST_F(EulerImplicitSolverTest, WarnsThatFirstOrderIgnoresRayleighDamping) {
  ExpectWarnings(1);
  (void)LoadScene(SofaSpringScene(R"(<EulerImplicitSolver firstOrder="1" rayleighMass="0.1"/>)",
                                  100, 10, 0.1, Linear::kCg));
}

}  // namespace
}  // namespace fluxion
