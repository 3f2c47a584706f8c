// NewmarkImplicitSolver: the trapezoidal rule's analytic properties (unit amplification, phase
// 2·atan(ωh/2)), the undamped oscillator against cos(ωt), SOFA's B(1) quirk, history handling,
// failure handling and parameter validation. SOFA's own cases are in sofa_spring_recursion_test.
#include <gmock/gmock.h>

#include <cmath>
#include <string>

#include "fluxion/text.h"
#include "implicit_test_scenes.h"

namespace fluxion {
namespace {

using fluxion::testing::CompressedSpringScene;
using fluxion::testing::Exact;
using fluxion::testing::ExpectFailedFactorisationLeavesTheStateUntouched;
using fluxion::testing::Linear;
using fluxion::testing::LoadScene;
using fluxion::testing::OscillatorScene;
using ::testing::HasSubstr;

class NewmarkImplicitSolverTest : public fluxion::testing::QuietTest {};

TEST_F(NewmarkImplicitSolverTest, DeclaresItsTraits) {
  const ComponentInfo* entry = fluxion::testing::TestHost().FindComponent("NewmarkImplicitSolver");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->traits.order, 2);
  EXPECT_EQ(entry->traits.flags, kImplicitMethod | kNeedsLinearSolver | kHasHistory);
  EXPECT_EQ(entry->traits.linear_solves, 1);
}

// Undamped oscillator ẍ = −ω²x, x(0) = 1, v(0) = 0, exact x = cos(ωt).
//
// Tolerance (second order). With γ = ½, β = ¼ Newmark is the trapezoidal rule; on this linear
// system (and a_0 = −ω²x_0, which the solver computes) its one-step map in z = (ωx, v) is the
// Cayley transform of a skew matrix: a rotation by Ψ = 2·atan(Φ/2), Φ = ωh, instead of Φ. So z_n
// stays on the exact circle ‖z‖ = ‖z_0‖ = ω and only its phase lags, by n(Φ − Ψ) ≤ nΦ³/12 (since
// atan u ≥ u − u³/3). Hence |x_n − cos(ωt_n)| ≤ ‖z_0‖/ω · n(Φ − Ψ) ≤ t_n·ω³·h²/12. Round-off adds
// a few ulps of the positions (≈ 2) per step: n·1e-15.
class NewmarkOscillator : public fluxion::testing::QuietTest,
                          public ::testing::WithParamInterface<Linear> {};

TEST_P(NewmarkOscillator, FollowsTheCosineWithSecondOrderPhaseError) {
  const double omega = 2.0, h = 0.01;
  Simulation simulation =
      LoadScene(OscillatorScene("<NewmarkImplicitSolver/>", omega, h, 1.0, 0.0, GetParam()));
  for (int n = 1; n <= 1000; ++n) {
    simulation.Step();
    const double t = n * h;
    const double bound = t * std::pow(omega, 3) * h * h / 12 + n * 1e-15;
    ASSERT_NEAR(simulation.position(1)[0] - fluxion::testing::kOscillatorRest, std::cos(omega * t),
                bound)
        << "t = " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(LinearSolvers, NewmarkOscillator,
                         ::testing::Values(Linear::kCg, Linear::kLdl),
                         [](const ::testing::TestParamInfo<Linear>& param_info) {
                           return std::string(fluxion::testing::LinearName(param_info.param));
                         });

// One step from (x, v), returned as (x_1, v_1): a fresh scene each time, so a_0 = −ω²x.
Eigen::Vector2d OneStep(double omega, double h, double x, double v) {
  Simulation simulation =
      LoadScene(OscillatorScene("<NewmarkImplicitSolver/>", omega, h, x, v, Linear::kLdl));
  simulation.Step();
  return {simulation.position(1)[0] - fluxion::testing::kOscillatorRest, simulation.velocity(1)[0]};
}

// The 2×2 transition matrix T (columns: one step from (1, 0) and from (0, 1)). Its eigenvalues are
// λ = e^{±iΨ}·|λ|: |λ|² = det T and cos Ψ = tr T/(2|λ|). The trapezoidal rule has |λ| = 1 exactly
// and Ψ = 2·atan(Φ/2) (seed 003: tan(ΩΔt) form; Hoffmann's z-transform analysis). Round-off in T
// is a few ulps of the positions (≈ 3), hence 1e-12.
class NewmarkAmplification : public fluxion::testing::QuietTest,
                             public ::testing::WithParamInterface<double> {};

TEST_P(NewmarkAmplification, HasUnitModulusAndTrapezoidalPhase) {
  const double omega = 2.0, h = GetParam(), phi = omega * h;
  Eigen::Matrix2d T;
  T.col(0) = OneStep(omega, h, 1.0, 0.0);
  T.col(1) = OneStep(omega, h, 0.0, 1.0);
  const double det = T(0, 0) * T(1, 1) - T(0, 1) * T(1, 0), trace = T.trace();
  ASSERT_GT(4 * det - trace * trace, 0.0) << "real eigenvalues: not an oscillation";
  const double modulus = std::sqrt(det);
  const double phase = std::atan2(std::sqrt(4 * det - trace * trace), trace);
  EXPECT_NEAR(modulus, 1.0, 1e-12);
  EXPECT_NEAR(phase, 2 * std::atan(phi / 2), 1e-12);
}

// Named by Φ = ωh with the point spelt out: Phi0p01, Phi0p1, Phi1, Phi5.
INSTANTIATE_TEST_SUITE_P(StepSizes, NewmarkAmplification, ::testing::Values(0.01, 0.1, 1.0, 5.0),
                         [](const ::testing::TestParamInfo<double>& param_info) {
                           std::string name = "Phi" + FormatReal(param_info.param);
                           for (char& c : name)
                             if (c == '.') c = 'p';
                           return name;
                         });

// SOFA's quirk: with a damping matrix B (UniformVelocityDampingForceField implicit="1", B = c),
// the v-term of b holds 1·B·v although f already holds −c·v. For a free unit mass (K = 0) the
// recursion of sofa-notes §1.3 is, with γ = ½, β = ¼ (β ≠ ½, so the a_n-term is there):
//   a_{n+1} = (−c·v_n − h(1−γ)·c·a_n − c·v_n)/(m + hγ·c),   a_0 = −c·v_0/m,
//   x_{n+1} = x_n + h·v_n + h²(½−β)·a_n + h²β·a_{n+1},   v_{n+1} = v_n + h(1−γ)·a_n + hγ·a_{n+1}.
TEST_F(NewmarkImplicitSolverTest, DampingMatrixEntersTheVelocityTermTwice) {
  const double c = 0.5, h = 0.1, m = 1.0, gamma = 0.5, beta = 0.25;
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt=")" + Exact(h) +
                                    R"(">
  <NewmarkImplicitSolver/>
  <SparseLDLSolver/>
  <MechanicalObject template="Vec1d" position="0" velocity="1"/>
  <UniformMass vertexMass="1"/>
  <UniformVelocityDampingForceField dampingCoefficient=")" +
                                    Exact(c) + R"(" implicit="1"/>
</Node>)");
  double x = 0.0, v = 1.0, a = -c * v / m;
  for (int n = 1; n <= 50; ++n) {
    simulation.Step();
    const double a1 = (-c * v - h * (1 - gamma) * c * a - c * v) / (m + h * gamma * c);
    x = x + h * v + h * h * (0.5 - beta) * a + h * h * beta * a1;
    v = v + h * (1 - gamma) * a + h * gamma * a1;
    a = a1;
    ASSERT_NEAR(simulation.position(0)[0], x, 1e-12) << "step " << n;
    ASSERT_NEAR(simulation.velocity(0)[0], v, 1e-12) << "step " << n;
  }
}

// A compressed spring makes the system matrix indefinite at h = 1 (implicit_test_scenes.h).
TEST_F(NewmarkImplicitSolverTest, FailedFactorisationLeavesTheStateUntouched) {
  ExpectFailedFactorisationLeavesTheStateUntouched("<NewmarkImplicitSolver/>", "positive definite");
}

// The stored acceleration is committed by accepted steps only: good, rejected, good gives the
// same state as good, good.
TEST_F(NewmarkImplicitSolverTest, RejectedStepKeepsTheStoredAcceleration) {
  Simulation interrupted = LoadScene(CompressedSpringScene("<NewmarkImplicitSolver/>"));
  Simulation reference = LoadScene(CompressedSpringScene("<NewmarkImplicitSolver/>"));
  const SolverNode& a = interrupted.solver_nodes()[0];
  const SolverNode& b = reference.solver_nodes()[0];
  State sa = a.state, sb = b.state;
  const double small = 1e-3, large = 1.0;
  ASSERT_TRUE(a.solver->Step(*a.system, small, sa).accepted());
  ASSERT_FALSE(a.solver->Step(*a.system, large, sa).accepted());
  ASSERT_TRUE(a.solver->Step(*a.system, small, sa).accepted());
  ASSERT_TRUE(b.solver->Step(*b.system, small, sb).accepted());
  ASSERT_TRUE(b.solver->Step(*b.system, small, sb).accepted());
  EXPECT_EQ(sa.x, sb.x);
  EXPECT_EQ(sa.v, sb.v);
}

TEST_F(NewmarkImplicitSolverTest, RejectsInvalidCoefficients) {
  const struct {
    const char* attribute;
    const char* field;
    const char* expected;
  } cases[] = {{R"(beta="0")", "beta", "> 0"},
               {R"(beta="-0.25")", "beta", "> 0"},
               {R"(gamma="-0.5")", "gamma", ">= 0"},
               {R"(rayleighStiffness="-1")", "rayleighStiffness", ">= 0"},
               {R"(rayleighMass="-1")", "rayleighMass", ">= 0"},
               {R"(vdamping="-1")", "vdamping", ">= 0"}};
  for (const auto& c : cases) {
    const std::string text = fluxion::testing::SceneErrorText(fluxion::testing::SofaSpringScene(
        std::string("<NewmarkImplicitSolver ") + c.attribute + "/>", 100, 10, 0.1, Linear::kCg));
    EXPECT_THAT(text, HasSubstr(c.field)) << c.attribute;
    EXPECT_THAT(text, HasSubstr(c.expected)) << c.attribute;
  }
}

}  // namespace
}  // namespace fluxion
