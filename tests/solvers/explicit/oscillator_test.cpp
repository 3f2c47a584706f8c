// RungeKutta2Solver, RungeKutta4Solver and CentralDifferenceSolver on the undamped linear
// oscillator x'' = −ω²x (unit mass, stiffness ω²), against closed forms that do not come from our
// code:
//  - accuracy against the exact solution cos(ωt), with error bounds derived from each method's
//    stability function R(iΦ), Φ = ωh (a linear method's one-step map is R(hA));
//  - stability: the one-step transition matrix, built by stepping the basis states, against R;
//  - energy: CentralDifference (symplectic Euler) keeps a modified energy exactly and shows no
//    drift; RK4 loses energy monotonically by the factor |R(iΦ)|² every step (Sachs, seed 001:
//    "Runge-Kutta ... decrease[s] the total energy", "orbital decay"); RK2 gains it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "explicit_test_scenes.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using fluxion::testing::LoadScene;
using fluxion::testing::OscillatorScene;

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
const std::string kRk2 = "<RungeKutta2Solver/>";
const std::string kRk4 = "<RungeKutta4Solver/>";
const std::string kCentralDifference = "<CentralDifferenceSolver/>";

// Round-off bound for a run of n steps of a neutrally stable (or contracting) linear recursion:
// each step rounds a handful (≤ 8) of O(1) quantities by at most ε/2 each, and an error made at
// one step is not amplified by later ones (|λ| ≤ 1, the eigenvectors nearly orthogonal for the
// small Φ used), so errors add up at most linearly: ≤ 8·n·ε/2 per unit amplitude; we allow 8·n·ε.
double RoundOff(long steps) { return 8.0 * static_cast<double>(steps) * kEpsilon; }

// ---------------------------------------------------------------------------------------------
// Accuracy against cos(ωt).
//
// From x(0) = 1, v(0) = 0 a linear method gives x_n = Re R(iΦ)ⁿ = ρⁿ cos(nθ) with
// R(iΦ) = ρ·e^{iθ}, while the exact solution is cos(nΦ). Hence
//   |x_n − cos(nΦ)| ≤ |ρⁿ − 1| + n·|θ − Φ|           (amplitude error + phase error)
// and, with the leading terms of ρ and θ for each method, after N = T/h steps (N·Φ = ωT):
//   RK4: R = e^{iΦ}(1 − iΦ⁵/120 + O(Φ⁶)), ρ = 1 − Φ⁶/144:  bound ωT·(Φ⁴/120 + Φ⁵/144)   (4th order)
//   RK2: R = e^{iΦ}(1 + iΦ³/6 + O(Φ⁴)),   ρ = 1 + Φ⁴/8:    bound ωT·(Φ²/6 + Φ³/8)      (2nd order)
//   CentralDifference, leapfrog start (below): x_n = cos(nθ), cos θ = 1 − Φ²/2,
//        θ = Φ + Φ³/24 + O(Φ⁵):                           bound ωT·Φ²/24              (2nd order)
// The terms left out are a relative O(Φ²) smaller (checked: < Φ² for Φ ≤ 0.1), so the bound is
// multiplied by (1 + Φ²); round-off adds RoundOff(N). The phase error is also *reached*: near the
// end of the run there is a sample with |sin(nΦ)| ≈ 1, where the error is ≈ n·|θ − Φ|; so the
// observed maximum must also exceed half the bound (the method is not more accurate than its
// order).
// ---------------------------------------------------------------------------------------------

constexpr double kOmega = 2.0 * std::numbers::pi;  // period 1 s
constexpr double kStep = 0.01;                     // Φ = ωh ≈ 0.063
constexpr long kSteps = 1000;                      // T = 10 s, ten periods

// Largest |x_n − expected(n)| over the run from (x0, v0).
template <class Expected>
double MaxError(const std::string& solver, double x0, double v0, Expected expected) {
  Simulation simulation = LoadScene(OscillatorScene(solver, kOmega, kStep, x0, v0));
  double error = 0.0;
  for (long n = 1; n <= kSteps; ++n) {
    simulation.Step();
    error = std::max(error, std::abs(simulation.position(1)[0] - expected(n)));
  }
  return error;
}

double Cosine(long n) { return std::cos(kOmega * kStep * static_cast<double>(n)); }

class ExplicitOscillatorAccuracy : public fluxion::testing::QuietTest {
 protected:
  static constexpr double kPhi = kOmega * kStep;
  static constexpr double kOmegaT = kOmega * kStep * kSteps;

  void ExpectErrorOfOrder(const std::string& solver, double v0, double leading_bound) {
    const double bound = leading_bound * (1.0 + kPhi * kPhi) + RoundOff(kSteps);
    const double error = MaxError(solver, 1.0, v0, Cosine);
    EXPECT_LE(error, bound) << solver;
    EXPECT_GE(error, 0.5 * leading_bound) << solver;
  }
};

TEST_F(ExplicitOscillatorAccuracy, RungeKutta4IsFourthOrder) {
  ExpectErrorOfOrder(kRk4, 0.0, kOmegaT * (std::pow(kPhi, 4) / 120 + std::pow(kPhi, 5) / 144));
}

TEST_F(ExplicitOscillatorAccuracy, RungeKutta2IsSecondOrder) {
  ExpectErrorOfOrder(kRk2, 0.0, kOmegaT * (std::pow(kPhi, 2) / 6 + std::pow(kPhi, 3) / 8));
}

// Leapfrog start: the velocity is the half-step velocity v(−h/2) = v(0) − (h/2)·a(0), here
// +(h/2)·ω² for x(0) = 1. Then x_1 = 1 − Φ²/2 = cos θ and x_n = cos(nθ) exactly.
TEST_F(ExplicitOscillatorAccuracy, CentralDifferenceIsSecondOrderFromLeapfrogStart) {
  ExpectErrorOfOrder(kCentralDifference, 0.5 * kStep * kOmega * kOmega,
                     kOmegaT * std::pow(kPhi, 2) / 24);
}

// Plain start v(0) = 0, as a scene gives it: bit for bit symplectic Euler, whose solution is
//   x_n = cos(nθ) − Φ/(2·√(1 − Φ²/4))·sin(nθ),   cos θ = 1 − Φ²/2
// (x_0 = 1 and x_1 = 1 − Φ² fix the two constants of the recursion x_{n+1} − 2cos θ·x_n + x_{n−1}
// = 0). The O(Φ) sine term is the start-up error that makes positions first-order accurate from
// such a start. The solver must follow this closed form to round-off.
TEST_F(ExplicitOscillatorAccuracy, CentralDifferenceFollowsSymplecticEulerClosedForm) {
  const double theta = std::acos(1.0 - kPhi * kPhi / 2.0);
  const double offset = kPhi / (2.0 * std::sqrt(1.0 - kPhi * kPhi / 4.0));
  const double error = MaxError(kCentralDifference, 1.0, 0.0, [&](long n) {
    return std::cos(theta * static_cast<double>(n)) -
           offset * std::sin(theta * static_cast<double>(n));
  });
  EXPECT_LE(error, RoundOff(kSteps));
}

// ---------------------------------------------------------------------------------------------
// Stability: the one-step transition matrix on the oscillator with ω = 1 and h = Φ.
//
// Columns: the state (x, v) after one step from (1, 0) and from (0, 1). For a linear method it is
// R(hA), A = [0 1; −ω² 0]; since (hA)² = −Φ²·I:
//   RK4: R(hA) = α·I + (β/Φ)·hA,  α = 1 − Φ²/2 + Φ⁴/24,  β = Φ − Φ³/6,  |λ|² = α² + β²
//        = 1 − Φ⁶/72 + Φ⁸/576, which crosses 1 at Φ = 2√2 (Φ² = 8).
//   RK2: R(hA) = (1 − Φ²/2)·I + hA,  |λ|² = 1 + Φ⁴/4.
//   CentralDifference (r = 0): [x; v] ← [1 − Φ², h; −ω²h, 1]·[x; v]: det = 1, trace = 2 − Φ², so
//        for Φ < 2 the eigenvalues are a complex pair with |λ| = 1, and one |λ| > 1 for Φ > 2.
//   CentralDifference (r > 0): [1 − hdω², hc; −dω², c] with c = (2 − rh)/(2 + rh),
//        d = 2h/(2 + rh): det = c < 1 and |trace| ≤ 1 + det exactly when Φ ≤ 2.
// Entries are formed by a few operations on O(1) numbers: 1e-12 is round-off with a wide margin.
// ---------------------------------------------------------------------------------------------

constexpr double kMatrixTolerance = 1e-12;

struct Transition {
  double xx, xv, vx, vv;  // row (x or v) then column (basis state (1,0) or (0,1))

  double trace() const { return xx + vv; }
  double det() const { return xx * vv - xv * vx; }
  // Square of the spectral radius.
  double RadiusSquared() const {
    const double half = trace() / 2.0, discriminant = half * half - det();
    if (discriminant < 0.0) return det();  // complex pair: |λ|² = λ·conj(λ) = det
    const double largest = std::abs(half) + std::sqrt(discriminant);
    return largest * largest;
  }
};

Transition StepBasis(const std::string& solver, double phi) {
  const double omega = 1.0, h = phi;
  Simulation from_x = LoadScene(OscillatorScene(solver, omega, h, 1.0, 0.0));
  Simulation from_v = LoadScene(OscillatorScene(solver, omega, h, 0.0, 1.0));
  from_x.Step();
  from_v.Step();
  return {from_x.position(1)[0], from_v.position(1)[0], from_x.velocity(1)[0],
          from_v.velocity(1)[0]};
}

using ExplicitOscillatorStability = fluxion::testing::QuietTest;

TEST_F(ExplicitOscillatorStability, RungeKutta4LimitIsTwoRootTwo) {
  const double limit = 2.0 * std::numbers::sqrt2;
  for (const double phi : {0.5, 1.0, 2.0, limit - 1e-3, limit + 1e-3}) {
    const Transition m = StepBasis(kRk4, phi);
    const double alpha = 1 - phi * phi / 2 + std::pow(phi, 4) / 24;
    const double beta = phi - std::pow(phi, 3) / 6;
    EXPECT_NEAR(m.xx, alpha, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_NEAR(m.vv, alpha, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_NEAR(m.xv, beta, kMatrixTolerance) << "Φ = " << phi;  // (β/Φ)·h with ω = 1
    EXPECT_NEAR(m.vx, -beta, kMatrixTolerance) << "Φ = " << phi;
    const double closed_form = 1 - std::pow(phi, 6) / 72 + std::pow(phi, 8) / 576;
    EXPECT_NEAR(m.RadiusSquared(), closed_form, kMatrixTolerance) << "Φ = " << phi;
    if (phi < limit) {
      EXPECT_LE(m.RadiusSquared(), 1.0) << "Φ = " << phi;
    } else {
      EXPECT_GT(m.RadiusSquared(), 1.0) << "Φ = " << phi;
    }
  }
}

TEST_F(ExplicitOscillatorStability, RungeKutta2GrowsForEveryStep) {
  for (const double phi : {0.1, 0.5, 1.0, 2.0}) {
    const Transition m = StepBasis(kRk2, phi);
    EXPECT_NEAR(m.xx, 1 - phi * phi / 2, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_NEAR(m.vv, 1 - phi * phi / 2, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_NEAR(m.xv, phi, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_NEAR(m.vx, -phi, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_NEAR(m.RadiusSquared(), 1 + std::pow(phi, 4) / 4, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_GT(m.RadiusSquared(), 1.0) << "Φ = " << phi;
  }
}

TEST_F(ExplicitOscillatorStability, CentralDifferenceHasUnitRadiusBelowTwo) {
  for (const double phi : {0.5, 1.0, 1.9, 1.999, 2.001}) {
    const Transition m = StepBasis(kCentralDifference, phi);
    EXPECT_NEAR(m.xx, 1 - phi * phi, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_NEAR(m.xv, phi, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_NEAR(m.vx, -phi, kMatrixTolerance) << "Φ = " << phi;
    EXPECT_NEAR(m.vv, 1.0, kMatrixTolerance) << "Φ = " << phi;
    if (phi < 2.0) {
      EXPECT_NEAR(m.RadiusSquared(), 1.0, kMatrixTolerance) << "Φ = " << phi;
    } else {
      EXPECT_GT(m.RadiusSquared(), 1.0 + 1e-3) << "Φ = " << phi;
    }
  }
}

TEST_F(ExplicitOscillatorStability, DampedCentralDifferenceLimitIsStillTwo) {
  const double r = 0.5;
  const std::string solver = "<CentralDifferenceSolver rayleighMass=\"0.5\"/>";
  for (const double phi : {1.0, 1.999, 2.001}) {
    const Transition m = StepBasis(solver, phi);
    const double c = (2 - r * phi) / (2 + r * phi);
    EXPECT_NEAR(m.det(), c, kMatrixTolerance) << "Φ = " << phi;
    if (phi < 2.0) {
      EXPECT_LT(m.RadiusSquared(), 1.0) << "Φ = " << phi;
    } else {
      EXPECT_GT(m.RadiusSquared(), 1.0) << "Φ = " << phi;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Energy over 10⁵ steps, ω = 1, Φ = h = 0.2, from x = 1, v = 0 (E_0 = ½).
// ---------------------------------------------------------------------------------------------

using ExplicitOscillatorEnergy = fluxion::testing::QuietTest;

constexpr long kLongRun = 100000;
constexpr long kWindow = kLongRun / 10;
constexpr double kEnergyPhi = 0.2;

// Symplectic Euler, v_{n+1} = v_n − hω²x_n, x_{n+1} = x_n + h·v_{n+1}, conserves exactly
//   H̃ = ½v² + ½ω²x² − ½hω²·x·v   (check: its matrix Q satisfies MᵀQM = Q for the step matrix M).
// So E = ½v² + ½ω²x² = H̃ + ½hω²xv, and since ω|x·v| ≤ E:  H̃/(1 + Φ/2) ≤ E ≤ H̃/(1 − Φ/2) —
// a bounded oscillation of relative width ≈ Φ and no drift. The window means of E differ only by
// the window means of ½hω²xv; with x_n = A·cos(nθ + φ) and v_n = (x_n − x_{n−1})/h, x·v is a
// constant plus (A²/h)·sin(θ/2)·sin(2nθ + ψ), whose mean over W samples is at most
// (A²/h)·sin(θ/2)/(W·sin θ). Hence |Ē_last − Ē_first| ≤ ω²A²/(2W·cos(θ/2)), A² = 1/(1 − Φ²/4).
// The band on E is reached (where ω|x| = |v|), so its test allows only round-off beyond it.
TEST_F(ExplicitOscillatorEnergy, CentralDifferenceEnergyOscillatesWithoutDrift) {
  const double omega = 1.0, h = kEnergyPhi, phi = kEnergyPhi;
  Simulation simulation = LoadScene(OscillatorScene(kCentralDifference, omega, h, 1, 0));
  const auto modified = [&](double energy) {
    return energy - 0.5 * h * omega * omega * simulation.position(1)[0] * simulation.velocity(1)[0];
  };
  const double e0 = simulation.KineticEnergy() + simulation.PotentialEnergy();
  const double h0 = modified(e0);
  double e_min = e0, e_max = e0, first_sum = 0.0, last_sum = 0.0, worst_drift = 0.0;
  for (long n = 1; n <= kLongRun; ++n) {
    simulation.Step();
    const double e = simulation.KineticEnergy() + simulation.PotentialEnergy();
    e_min = std::min(e_min, e);
    e_max = std::max(e_max, e);
    worst_drift = std::max(worst_drift, std::abs(modified(e) - h0));
    if (n <= kWindow) first_sum += e;
    if (n > kLongRun - kWindow) last_sum += e;
  }
  EXPECT_LE(worst_drift, RoundOff(kLongRun) * h0) << "the modified energy must be conserved";
  EXPECT_LE(e_max / e_min, (1 + phi / 2) / (1 - phi / 2) * (1 + RoundOff(kLongRun)));
  const double theta = std::acos(1 - phi * phi / 2);
  const double amplitude_squared = 1 / (1 - phi * phi / 4);
  const double mean_bound = omega * omega * amplitude_squared /
                            (2.0 * static_cast<double>(kWindow) * std::cos(theta / 2));
  EXPECT_LE(std::abs(last_sum - first_sum) / static_cast<double>(kWindow),
            mean_bound + RoundOff(kLongRun) * e0);
}

// RK4's step is R(hA) = α·I + (β/Φ)·hA; in the coordinates (ωx, v), where E = ½|(ωx, v)|², hA is
// Φ times a rotation generator, so every step multiplies E by exactly α² + β² = |R(iΦ)|² =
// 1 − Φ⁶/72 + Φ⁸/576 < 1 (8.9e-7 per step here): E decreases at every step, and after N steps
// E_N = |R|^{2N}·E_0 (a 8.5 % loss over this run). Per-step ratios hold to a few ε; over the run
// round-off adds up linearly (RoundOff).
void ExpectEnergyFactorPerStep(const std::string& solver, double factor, long steps) {
  const double omega = 1.0, h = kEnergyPhi;
  Simulation simulation = LoadScene(OscillatorScene(solver, omega, h, 1, 0));
  const double e0 = simulation.KineticEnergy() + simulation.PotentialEnergy();
  double previous = e0;
  for (long n = 1; n <= steps; ++n) {
    simulation.Step();
    const double e = simulation.KineticEnergy() + simulation.PotentialEnergy();
    ASSERT_NEAR(e / previous, factor, kMatrixTolerance) << "step " << n;
    if (factor < 1) {
      ASSERT_LT(e, previous) << "step " << n;
    }
    previous = e;
  }
  EXPECT_NEAR(previous / e0, std::pow(factor, static_cast<double>(steps)),
              RoundOff(steps) * std::max(1.0, std::pow(factor, static_cast<double>(steps))));
}

TEST_F(ExplicitOscillatorEnergy, RungeKutta4EnergyDecaysMonotonically) {
  const double phi = kEnergyPhi;
  ExpectEnergyFactorPerStep(kRk4, 1 - std::pow(phi, 6) / 72 + std::pow(phi, 8) / 576, kLongRun);
}

// RK2 (explicit midpoint) multiplies E by 1 + Φ⁴/4 every step: the energy grows without bound.
TEST_F(ExplicitOscillatorEnergy, RungeKutta2EnergyGrows) {
  const double phi = kEnergyPhi;
  ExpectEnergyFactorPerStep(kRk2, 1 + std::pow(phi, 4) / 4, kWindow);
}

}  // namespace
}  // namespace fluxion
