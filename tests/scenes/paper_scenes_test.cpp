// The papers' example scenes (scenes/hoffmann_*, sachs_*, howe_*, fazarinc_*), loaded from their
// files as scene-runner would and run with their own solver, against the papers' exact solutions
// (with error bounds derived from each method's local error and h, never fitted to the output) and
// against the closed forms of the methods' discrete maps (to rounding).
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "fluxion/text.h"
#include "support/test_support.h"

namespace {

using fluxion::Simulation;
using fluxion::testing::GallerySceneText;
using fluxion::testing::LoadScene;

constexpr double kEps = 2.220446049250313e-16;

Simulation Load(const std::string& name) { return LoadScene(GallerySceneText(name), name); }

// Rounding allowance for a run of n steps of a linear map whose iterates stay O(scale): each step
// adds a few ulps (≤ 8 operations, each ≤ ½ ulp, here 4·eps·scale), and the map propagates old
// errors with norm ≤ kappa (the condition number of its eigenvector basis, for |z| ≤ 1), so the
// accumulated error is ≤ n·kappa·4·eps·scale; a factor 4 covers the closed form's own evaluation
// (cos, sin, pow of n·Ψ, each within a few ulps of n·Ψ's rounding, n·Ψ·eps).
double Rounding(int n, double kappa, double scale) { return 16.0 * (n + 1) * kappa * kEps * scale; }

// A parameter in a test name, "0.38" as "0_38" (gtest names hold letters, digits and '_' only).
std::string CaseName(double value) {
  std::string name = fluxion::FormatReal(value);
  for (char& c : name)
    if (c == '.') c = '_';
  return name;
}

// --- Hoffmann: False (symplectic) Euler on y'' = −y, y0 = 1, v0 = 0, h = Φ ----------------------
// The map: v_{n+1} = v_n − h·y_n, y_{n+1} = y_n + h·v_{n+1}, i.e. A = [[1 − h², h], [−h, 1]],
// det A = 1, trace A = 2 − h²: for Φ < 2 the roots are e^{±jΨ}, cos Ψ = 1 − Φ²/2 (Hoffmann's
// tan Ψ = Φ·√(1 − Φ²/4)/(1 − Φ²/2)). Then y_n = C·cos nΨ + D·sin nΨ with y_0 = 1 → C = 1, and
// y_1 = 1 − h² = cos Ψ − h²/2 → D·sin Ψ = −h²/2: y_n = cos nΨ − (h²/(2 sin Ψ))·sin nΨ.
struct HoffmannCase {
  const char* scene;
  double phi;
};
void PrintTo(const HoffmannCase& c, std::ostream* out) { *out << c.scene; }

class HoffmannOscillator : public ::testing::TestWithParam<HoffmannCase> {};

TEST_P(HoffmannOscillator, FollowsTheClosedFormOfFalseEuler) {
  const HoffmannCase param = GetParam();
  Simulation simulation = Load(param.scene);
  const double h = param.phi;
  const double psi = std::atan2(h * std::sqrt(1 - h * h / 4), 1 - h * h / 2);  // Hoffmann's tan Ψ
  const double d = -h * h / (2 * std::sin(psi));
  // Amplitude of the closed form: √(1 + D²); eigenvector condition number of A ~ 1/sin Ψ.
  const double scale = std::sqrt(1 + d * d);
  const double kappa = 2 / std::sin(psi);
  ASSERT_DOUBLE_EQ(simulation.position(0)[1], 1.0);
  for (int n = 1; n <= 200; ++n) {
    simulation.Step();
    const double closed = std::cos(n * psi) + d * std::sin(n * psi);
    ASSERT_NEAR(simulation.position(0)[1], closed, Rounding(n, kappa, scale)) << "n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Phi, HoffmannOscillator,
                         ::testing::Values(HoffmannCase{"hoffmann_oscillator_phi0.5.scn", 0.5},
                                           HoffmannCase{"hoffmann_oscillator_phi1.9.scn", 1.9}),
                         [](const ::testing::TestParamInfo<HoffmannCase>& test) {
                           return "Phi" + CaseName(test.param.phi);
                         });

// At Φ = 0.5 the run also stays near the exact y = cos t: from the closed form above,
// |y_n − cos nΦ| ≤ |cos nΨ − cos nΦ| + |D| ≤ n·|Ψ − Φ| + h²/(2 sin Ψ), where Ψ − Φ = Φ³/24 + O(Φ⁵)
// is the method's phase error per step (first order in the amplitude D = O(h), second order, per
// unit time, in the phase). Both terms are bounds, not estimates, so no margin is fitted.
TEST(HoffmannOscillatorExact, StaysWithinTheFalseEulerErrorBoundOfCosT) {
  Simulation simulation = Load("hoffmann_oscillator_phi0.5.scn");
  const double h = 0.5;
  const double psi = std::acos(1 - h * h / 2);
  for (int n = 1; n <= 200; ++n) {
    simulation.Step();
    const double bound = n * std::abs(psi - h) + h * h / (2 * std::sin(psi)) + 1e-12;
    ASSERT_NEAR(simulation.position(0)[1], std::cos(n * h), bound) << "n = " << n;
  }
}

// --- Fazarinc: trapezoidal rule a = b = ½ on s'' = −ω²s, s(0) = 1, v(0) = 0, ω = 1
// ---------------- Eqs. 15–16 with a = b = ½: (I − hJ/2)·u_{n+1} = (I + hJ/2)·u_n, J = [[0, 1],
// [−1, 0]]; the Cayley transform of the skew J is the rotation by θ = 2·atan(h/2) (eigenvalues (1 +
// jh/2)/(1 − jh/2)), so s_n = cos nθ and v_n = −sin nθ exactly: no amplitude error (B = 1 in eq.
// 17) and tan θ = h/(1 − h²/4). (Eq. 20 prints √(1 − ω²Δt²/4) in the denominator; eq. 17 with a = b
// = ½ gives 1 − ω²Δt²/4, as here.) The rotation is orthogonal (kappa = 1); the Newton step of
// TrapezoidalSolver solves the linear system exactly up to rounding.
struct FazarincCase {
  const char* scene;
  double wdt;
};
void PrintTo(const FazarincCase& c, std::ostream* out) { *out << c.scene; }

class FazarincOscillator : public ::testing::TestWithParam<FazarincCase> {};

TEST_P(FazarincOscillator, IsARotationByTwiceAtanHalfWdt) {
  const FazarincCase param = GetParam();
  Simulation simulation = Load(param.scene);
  const double h = param.wdt;
  const double theta = 2 * std::atan(h / 2);
  for (int n = 1; n <= 500; ++n) {
    simulation.Step();
    ASSERT_NEAR(simulation.position(0)[1], std::cos(n * theta), Rounding(n, 1, 1)) << "n = " << n;
    ASSERT_NEAR(simulation.velocity(0)[1], -std::sin(n * theta), Rounding(n, 1, 1)) << "n = " << n;
  }
}

// Against Newton's exact s = cos ωt: |cos nθ − cos nh| ≤ n·|θ − h|, θ − h = −h³/12 + O(h⁵) the
// trapezoidal rule's phase error per step (second order).
TEST_P(FazarincOscillator, StaysWithinItsPhaseErrorOfTheExactSolution) {
  const FazarincCase param = GetParam();
  Simulation simulation = Load(param.scene);
  const double h = param.wdt;
  const double theta = 2 * std::atan(h / 2);
  for (int n = 1; n <= 500; ++n) {
    simulation.Step();
    const double bound = std::min(2.0, n * std::abs(theta - h)) + Rounding(n, 1, 1);
    ASSERT_NEAR(simulation.position(0)[1], std::cos(n * h), bound) << "n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Wdt, FazarincOscillator,
                         ::testing::Values(FazarincCase{"fazarinc_oscillator_wdt1.scn", 1.0},
                                           FazarincCase{"fazarinc_oscillator_wdt0.38.scn", 0.38}),
                         [](const ::testing::TestParamInfo<FazarincCase>& test) {
                           return "Wdt" + CaseName(test.param.wdt);
                         });

// --- Sachs: the bead in water, v' = −v/τ, τ = 0.5, x0 = 2, v0 = 3, h = 0.1, midpoint -----------
// Midpoint on this linear system (z = −h/τ): v_{n+1} = R·v_n, R = 1 + z + z²/2, and
// x_{n+1} = x_n + h·(1 − h/(2τ))·v_n. Since 1 − R = (h/τ)(1 − h/(2τ)), summing gives exactly
// x_n = x0 + v0·τ·(1 − Rⁿ): the exact x(t) = x0 + v0·τ·(1 − e^{−t/τ}) with e^{z} replaced by R.
// Error bound against the exact solution: e^{z} − R is the Taylor remainder z³/6·e^{ξ}, ξ ∈ (z, 0),
// so |R − e^{z}| ≤ |z|³/6 (third-order local error of a second-order method), and
// |Rⁿ − e^{nz}| ≤ n·|R − e^{z}|·max(R, e^{z})^{n−1}; hence
// |x_n − x(t_n)| ≤ v0·τ·n·|z|³/6·max(R, e^{z})^{n−1} and |v_n − v(t_n)| ≤ v0·(same).
TEST(SachsBeadInWater, MatchesTheMidpointClosedFormAndTheExactSolution) {
  Simulation simulation = Load("sachs_bead_in_water.scn");
  const double tau = 0.5, x0 = 2, v0 = 3, h = 0.1;
  const double z = -h / tau;
  const double r = 1 + z + z * z / 2;
  const double growth = std::max(r, std::exp(z));
  for (int n = 1; n <= 40; ++n) {
    simulation.Step();
    const double x = simulation.position(0)[0];
    const double v = simulation.velocity(0)[0];
    const double rn = std::pow(r, n);
    ASSERT_NEAR(x, x0 + v0 * tau * (1 - rn), Rounding(n, 1, x0 + v0 * tau)) << "n = " << n;
    ASSERT_NEAR(v, v0 * rn, Rounding(n, 1, v0)) << "n = " << n;
    const double t = n * h;
    const double local = n * std::pow(std::abs(z), 3) / 6 * std::pow(growth, n - 1);
    ASSERT_NEAR(x, x0 + v0 * tau * (1 - std::exp(-t / tau)), v0 * tau * local + 1e-12);
    ASSERT_NEAR(v, v0 * std::exp(-t / tau), v0 * local + 1e-12);
  }
}

// --- Howe: unit step response, ζ = 0.25, ω_n = 1, h = 0.25, modified Euler, trapezoidal damping --
// Eqs. 15–16: V_{n+½} = C1·V_{n−½} + C2·(u − x_n), x_{n+1} = x_n + h·V_{n+½}, C1 = (1 − ζh)/(1 +
// ζh), C2 = h/(1 + ζh); start-up (Howe §4): V_½ = V_0 + (h/2)·A_0 = h/2, so x_0 = 0, x_1 = h²/2.
// Hence x_{n+1} = (1 + C1 − h·C2)·x_n − C1·x_{n−1} + h·C2 (u = 1), whose fixed point is 1 and whose
// roots z, z̄ satisfy z·z̄ = C1, z + z̄ = 1 + C1 − h·C2: x_n = 1 + Re(a·zⁿ), with a fixed by x_0, x_1.
// The exact response is x(t) = 1 + Re(α·e^{λt}), λ = −ζ + j√(1 − ζ²), α = −1 − jζ/√(1 − ζ²), so
// |x_n − x(t_n)| ≤ |a − α|·|z|ⁿ + |α|·|zⁿ − wⁿ| ≤ |a − α|·|z|ⁿ + |α|·n·|z − w|·max(|z|, |w|)^{n−1}
// with w = e^{λh}; z − w = O(h³) (second order, Howe's e_λ) and a − α = O(h²) (start-up), both
// computed from the closed forms, not from the run.
TEST(HoweStepResponse, FollowsEquations15And16AndTheExactStepResponse) {
  Simulation simulation = Load("howe_step_response.scn");
  const double zeta = 0.25, h = 0.25;
  const double c1 = (1 - zeta * h) / (1 + zeta * h), c2 = h / (1 + zeta * h);
  const double p = 1 + c1 - h * c2;  // z + z̄
  const std::complex<double> z{p / 2, std::sqrt(c1 - p * p / 4)};
  // a from x_0 − 1 = Re(a) = −1 and x_1 − 1 = Re(a·z) = h²/2 − 1.
  const double re_a = -1;
  const double im_a =
      -(h * h / 2 - 1 - re_a * z.real()) / z.imag();  // Re(a z) = Re a·Re z − Im a·Im z
  const std::complex<double> a{re_a, im_a};
  const double wd = std::sqrt(1 - zeta * zeta);
  const std::complex<double> lambda{-zeta, wd};
  const std::complex<double> alpha{-1, -zeta / wd};
  const std::complex<double> w = std::exp(lambda * h);
  const double growth = std::max(std::abs(z), std::abs(w));
  std::vector<double> x{simulation.position(0)[1]};
  for (int n = 1; n <= 80; ++n) {
    simulation.Step();
    x.push_back(simulation.position(0)[1]);
    // The discrete closed form (|z| < 1: kappa from the non-orthogonal eigenbasis, ≤ 2/sin arg z).
    const double closed = 1 + (a * std::pow(z, n)).real();
    ASSERT_NEAR(x[n], closed, Rounding(n, 2 / std::sin(std::arg(z)), 2)) << "n = " << n;
    if (n >= 2) {
      ASSERT_NEAR(x[n], p * x[n - 1] - c1 * x[n - 2] + h * c2, Rounding(1, 1, 2)) << "n = " << n;
    }
    const double exact = 1 + (alpha * std::exp(lambda * (n * h))).real();
    const double bound = std::abs(a - alpha) * std::pow(std::abs(z), n) +
                         std::abs(alpha) * n * std::abs(z - w) * std::pow(growth, n - 1) + 1e-12;
    ASSERT_NEAR(x[n], exact, bound) << "n = " << n;
  }
}

// --- Sachs: the damped pendulum as a stiff spring rod -----------------------------------------
// No closed form (nonlinear). Checks: (1) the rod stays rigid to its static bound: the tension is
// at most m·(g + L·ω_max²) with ω_max² ≤ 2g(1 − cos θ0)/L (energy), so the stretch ≤ that / k,
// doubled for the rod mode's overshoot from rest (a step load on an undamped spring overshoots ×2);
// (2) Sachs's damping B removes energy: the total energy of the swing at the end is below
// its start, and the swing decays.
TEST(SachsDampedPendulum, KeepsItsRodRigidAndLosesEnergy) {
  Simulation simulation = Load("sachs_damped_pendulum.scn");
  const double g = 9.8, length = 1, k = 1e4, theta0 = 1;
  const double max_tension = g + length * 2 * g * (1 - std::cos(theta0)) / length;
  const double max_stretch = 2 * max_tension / k;
  auto energy = [&](const Simulation& s) {
    const auto& q = s.position(0);
    const auto& v = s.velocity(0);
    const double r = std::sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5]);
    return 0.5 * (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]) + g * q[4] +
           0.5 * k * (r - length) * (r - length);
  };
  const double e0 = energy(simulation);
  for (int n = 1; n <= 5000; ++n) {
    simulation.Step();
    const auto& q = simulation.position(0);
    const double r = std::sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5]);
    ASSERT_LE(std::abs(r - length), max_stretch) << "n = " << n;
  }
  const double e_end = energy(simulation);
  EXPECT_LT(e_end, e0);
  // After 5 s with B = 0.5 the swing energy above the bottom (−g·L) has decayed by about
  // e^{−B t} = e^{−2.5}; require at least half of that decay.
  EXPECT_LT(e_end + g * length, (e0 + g * length) * std::exp(-0.5 * 0.5 * 5));
}

}  // namespace
