// The one-step methods' transition matrices on the undamped oscillator (m = 1, k = 1, Φ = h),
// measured by stepping the basis states once, against the papers' closed forms:
// Hoffmann (seed 000) §§5, 7–11, Fazarinc (seed 003) APP7, Howe (seed 002) Table 2.
// Every expected value below is computed here from the paper's formula, not from the solvers.
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "oscillator.h"

namespace fluxion {
namespace {

using papers::OneStepMatrix;
using papers::SolverUnderTest;
using papers::Spectrum;
using papers::SpectrumOf;

// r and Ψ come from a 2×2 matrix of once-stepped basis states: the only error is round-off
// (~1e-16 per entry), so the brief's 1e-6 leaves a wide margin; closed forms are exact.
constexpr double kTolerance = 1e-6;

const SolverUnderTest kFalseEuler{"<SymplecticEulerSolver/>"};
const SolverUnderTest kStandardEuler{R"(<EulerExplicitSolver symplectic="0"/>)"};
const SolverUnderTest kStandardHeun{"<StandardHeunSolver/>"};
const SolverUnderTest kFalseHeun{"<FalseHeunSolver/>"};
const SolverUnderTest kSemiFalseHeun{"<SemiFalseHeunSolver/>"};
const SolverUnderTest kMidpoint{"<MidpointSolver/>"};
const SolverUnderTest kVelocityVerlet{"<VelocityVerletSolver/>"};
const SolverUnderTest kPositionVerlet{"<PositionVerletSolver/>"};
const SolverUnderTest kForestRuth{"<ForestRuthSolver/>"};
const SolverUnderTest kTrapezoidal{"<TrapezoidalSolver/>", true};

// Hoffmann §7 (False Euler) and §6 (Damped Euler with D = Φ/2): r = 1 and
// tan Ψ = Φ·√(1 − Φ²/4)/(1 − Φ²/2), Ψ in (0, π).
double FalseEulerPsi(double phi) {
  return std::atan2(phi * std::sqrt(1 - phi * phi / 4), 1 - phi * phi / 2);
}

class PapersOneStep : public testing::QuietTest {};

TEST_F(PapersOneStep, HoffmannFalseEulerIsHarmonicWithHisAngle) {
  for (double phi : {0.01, 0.1, 0.5, 1.0, 1.414, 1.9, 1.99}) {
    const Spectrum s = SpectrumOf(OneStepMatrix(kFalseEuler, phi));
    ASSERT_TRUE(s.complex_pair) << "Φ = " << phi;
    EXPECT_NEAR(s.r, 1.0, kTolerance) << "Φ = " << phi;
    EXPECT_NEAR(s.psi, FalseEulerPsi(phi), kTolerance) << "Φ = " << phi;
  }
  // Hoffmann's printed values (3 decimals): Φ = 1 → Ψ = 1.047, Φ = 1.414 → Ψ = 1.570.
  EXPECT_NEAR(SpectrumOf(OneStepMatrix(kFalseEuler, 1.0)).psi, 1.047, 5e-4);
  EXPECT_NEAR(SpectrumOf(OneStepMatrix(kFalseEuler, 1.414)).psi, 1.570, 5e-4);
}

TEST_F(PapersOneStep, HoffmannFalseEulerIsStableUpToPhiTwo) {
  // Stable (r = 1) just below Φ = 2, unstable just above: a real root beyond −1.
  EXPECT_NEAR(SpectrumOf(OneStepMatrix(kFalseEuler, 1.999)).r, 1.0, kTolerance);
  for (double phi : {2.001, 2.1, 3.0}) {
    const Spectrum s = SpectrumOf(OneStepMatrix(kFalseEuler, phi));
    EXPECT_FALSE(s.complex_pair) << "Φ = " << phi;
    // z² − (2 − Φ²)z + 1 = 0: dominant root (2 − Φ²)/2 − √(((2 − Φ²)/2)² − 1).
    const double p = 1 - phi * phi / 2;
    EXPECT_NEAR(s.r, -(p - std::sqrt(p * p - 1)), kTolerance) << "Φ = " << phi;
    EXPECT_GT(s.r, 1.0) << "Φ = " << phi;
  }
}

TEST_F(PapersOneStep, HoffmannVerletEqualsFalseEuler) {
  // §8: Verlet's characteristic equation is False Euler's (both Sachs's Verlet forms).
  for (const SolverUnderTest& verlet : {kVelocityVerlet, kPositionVerlet}) {
    for (double phi : {0.1, 0.5, 1.0, 1.414, 1.9}) {
      const Spectrum s = SpectrumOf(OneStepMatrix(verlet, phi));
      ASSERT_TRUE(s.complex_pair) << verlet.element << " Φ = " << phi;
      EXPECT_NEAR(s.r, 1.0, kTolerance) << verlet.element << " Φ = " << phi;
      EXPECT_NEAR(s.psi, FalseEulerPsi(phi), kTolerance) << verlet.element << " Φ = " << phi;
    }
    EXPECT_GT(SpectrumOf(OneStepMatrix(verlet, 2.01)).r, 1.0) << verlet.element;
  }
}

TEST_F(PapersOneStep, HoffmannStandardEulerAlwaysGrows) {
  // §5: z = 1 ± jΦ, r² = 1 + Φ², Ψ = atan Φ.
  for (double phi : {0.01, 0.1, 0.5, 1.0, 2.0}) {
    const Spectrum s = SpectrumOf(OneStepMatrix(kStandardEuler, phi));
    EXPECT_NEAR(s.r * s.r, 1 + phi * phi, kTolerance) << "Φ = " << phi;
    EXPECT_NEAR(s.psi, std::atan(phi), kTolerance) << "Φ = " << phi;
  }
}

TEST_F(PapersOneStep, HoffmannDampedEulerWithDEqualsHalfPhiIsHarmonic) {
  // §6: Standard Euler on v' = −(2D·v + y): r² = 1 − 2DΦ + Φ², z = (1 − DΦ) ± jΦ√(1 − D²); with
  // D = Φ/2 the oscillation is harmonic with False Euler's angle.
  const SolverUnderTest damped_euler{R"(<EulerExplicitSolver symplectic="0"/>)"};
  for (double phi : {0.1, 0.5, 1.0, 1.414}) {
    for (double d : {0.1, phi / 2}) {
      const Spectrum s = SpectrumOf(OneStepMatrix(damped_euler, phi, 2 * d));
      EXPECT_NEAR(s.r * s.r, 1 - 2 * d * phi + phi * phi, kTolerance) << "Φ = " << phi;
      EXPECT_NEAR(s.psi, std::atan2(phi * std::sqrt(1 - d * d), 1 - d * phi), kTolerance) << phi;
    }
    EXPECT_NEAR(SpectrumOf(OneStepMatrix(damped_euler, phi, phi)).psi, FalseEulerPsi(phi),
                kTolerance);
  }
}

TEST_F(PapersOneStep, HoffmannStandardHeunAndSachsMidpoint) {
  // §9: z = (1 − Φ²/2) ± jΦ, r² = 1 + Φ⁴/4, tan Ψ = Φ/(1 − Φ²/2). Sachs's midpoint method has
  // the same stability polynomial 1 + z + z²/2, hence the same closed forms.
  for (const SolverUnderTest& solver : {kStandardHeun, kMidpoint}) {
    for (double phi : {0.01, 0.1, 0.5, 1.0, 1.5, 2.5}) {
      const Spectrum s = SpectrumOf(OneStepMatrix(solver, phi));
      EXPECT_NEAR(s.r * s.r, 1 + std::pow(phi, 4) / 4, kTolerance) << solver.element << phi;
      EXPECT_NEAR(s.psi, std::atan2(phi, 1 - phi * phi / 2), kTolerance) << solver.element << phi;
    }
  }
}

TEST_F(PapersOneStep, HoffmannFalseHeun) {
  // §10, characteristic equation z² − 2(1 − 3Φ²/4 + Φ⁴/4)z + (1 − Φ²/2) = 0 for every Φ; while
  // its roots are a complex pair (p² < q) r² = q = 1 − Φ²/2 (a damped oscillation). Beyond, real
  // roots in (0, 1) up to Φ = √2, where one reaches z = 1; monotonically unstable after.
  for (double phi : {0.01, 0.1, 0.5, 1.0, 1.2, 1.3, 1.4, 1.5, 2.0}) {
    const Eigen::Matrix2d transition = OneStepMatrix(kFalseHeun, phi);
    const double p = 1 - 0.75 * phi * phi + std::pow(phi, 4) / 4;
    const double q = 1 - phi * phi / 2;
    EXPECT_NEAR(transition.trace(), 2 * p, kTolerance) << "Φ = " << phi;
    EXPECT_NEAR(transition.determinant(), q, kTolerance) << "Φ = " << phi;
    const Spectrum s = SpectrumOf(transition);
    EXPECT_EQ(s.complex_pair, p * p < q) << "Φ = " << phi;
    if (p * p < q) {
      EXPECT_NEAR(s.r * s.r, 1 - phi * phi / 2, kTolerance) << "Φ = " << phi;
    } else {
      EXPECT_NEAR(s.r, p + std::sqrt(p * p - q), kTolerance) << "Φ = " << phi;
      EXPECT_EQ(s.r < 1, phi < std::sqrt(2.0)) << "Φ = " << phi;
    }
  }
}

TEST_F(PapersOneStep, HoffmannSemiFalseHeun) {
  // §11: z² − 2(1 − Φ²/2)z + (1 − Φ⁴/4) = 0, z = (1 − Φ²/2) ± jΦ√(1 − Φ²/2), r² = 1 − Φ⁴/4 for
  // Φ < √2 (complex pair). Beyond, real roots; a root reaches −1 at Φ⁴ + 4Φ² − 16 = 0.
  for (double phi : {0.01, 0.1, 0.5, 1.0, 1.3, 1.4}) {
    const Spectrum s = SpectrumOf(OneStepMatrix(kSemiFalseHeun, phi));
    ASSERT_TRUE(s.complex_pair) << "Φ = " << phi;
    EXPECT_NEAR(s.r * s.r, 1 - std::pow(phi, 4) / 4, kTolerance) << "Φ = " << phi;
    EXPECT_NEAR(s.psi, std::atan2(phi * std::sqrt(1 - phi * phi / 2), 1 - phi * phi / 2),
                kTolerance)
        << "Φ = " << phi;
  }
  const double limit = std::sqrt(2 * (std::sqrt(5.0) - 1));  // 1.5723
  EXPECT_LT(SpectrumOf(OneStepMatrix(kSemiFalseHeun, limit - 1e-3)).r, 1.0);
  EXPECT_GT(SpectrumOf(OneStepMatrix(kSemiFalseHeun, limit + 1e-3)).r, 1.0);
}

TEST_F(PapersOneStep, FazarincTrapezoidalHasNoAmplitudeError) {
  // APP7 with a = b = ½: B = 1 (r = 1) and tan(ΩΔt) = ωΔt/(1 − ω²Δt²/4); the position from
  // (s, v) = (0, 1) is (v(0)/ω)·sin(ΩΔt) after one step, and cos(ΩΔt) from (1, 0).
  for (double phi : {0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 50.0}) {
    const Eigen::Matrix2d transition = OneStepMatrix(kTrapezoidal, phi);
    const Spectrum s = SpectrumOf(transition);
    const double psi = std::atan2(phi, 1 - phi * phi / 4);
    EXPECT_NEAR(s.r, 1.0, kTolerance) << "Φ = " << phi;
    EXPECT_NEAR(s.psi, psi, kTolerance) << "Φ = " << phi;
    EXPECT_NEAR(transition(0, 0), std::cos(psi), kTolerance) << "Φ = " << phi;
    EXPECT_NEAR(transition(0, 1), std::sin(psi), kTolerance) << "Φ = " << phi;
  }
  // Eq. 20 as printed, tan(ΩΔt) = ωΔt/√(1 − ω²Δt²/4), disagrees with APP7 (documented in the
  // plugin): at Φ = 1 it gives 0.857 where the derivation, and the solver, give 0.927.
  const double printed = std::atan(1.0 / std::sqrt(0.75));
  EXPECT_GT(std::abs(SpectrumOf(OneStepMatrix(kTrapezoidal, 1.0)).psi - printed), 0.05);
}

TEST_F(PapersOneStep, TrapezoidalMapsEachModeByTheCayleyTransform) {
  // Fazarinc eq. 21 / Howe's trapezoidal integration with damping: each mode λ of
  // x'' = −x − c·x' is mapped to z = (1 + λh/2)/(1 − λh/2); damping enters implicitly, so the
  // method stays stable for every h.
  for (double c : {0.2, 1.0}) {
    for (double h : {0.1, 1.0, 10.0}) {
      const std::complex<double> mu = std::complex<double>(-c / 2, std::sqrt(1 - c * c / 4)) * h;
      const std::complex<double> z = (1.0 + mu / 2.0) / (1.0 - mu / 2.0);
      const Spectrum s = SpectrumOf(OneStepMatrix(kTrapezoidal, h, c));
      EXPECT_NEAR(s.r, std::abs(z), kTolerance) << "c = " << c << " h = " << h;
      EXPECT_NEAR(s.psi, std::arg(z), kTolerance) << "c = " << c << " h = " << h;
    }
  }
}

TEST_F(PapersOneStep, ForestRuthIsHarmonicBelowItsLimit) {
  // A symmetric composition of symplectic steps: r = 1 on the undamped oscillator while stable,
  // and a fourth-order frequency error: (Ψ − Φ)/Φ⁵ tends to a constant.
  for (double phi : {0.1, 0.5, 1.0, 1.5}) {
    const Spectrum s = SpectrumOf(OneStepMatrix(kForestRuth, phi));
    ASSERT_TRUE(s.complex_pair) << "Φ = " << phi;
    EXPECT_NEAR(s.r, 1.0, kTolerance) << "Φ = " << phi;
  }
  const double ratio = (SpectrumOf(OneStepMatrix(kForestRuth, 0.1)).psi - 0.1) /
                       (SpectrumOf(OneStepMatrix(kForestRuth, 0.05)).psi - 0.05);
  EXPECT_NEAR(std::log2(ratio), 5.0, 0.1);  // local phase error O(Φ⁵) ⇔ fourth order
  EXPECT_GT(SpectrumOf(OneStepMatrix(kForestRuth, 1.6)).r, 1.0);
}

// Howe's e_I from the principal root at small Φ: e_λ = (λ* − λ)/λ ≈ −e_I (λh)^k (eq. 12), with
// λ = j (ω = 1) and λ* = ln(z)/h. At Φ = 0.01 the next term of the expansion is ≈ Φ·(2/3)/(1/2)
// relative for Euler and smaller for the others, so 5 % (the brief's tolerance) is ample.
std::complex<double> MeasuredErrorCoefficient(const SolverUnderTest& solver, double phi, int k) {
  const std::complex<double> lambda(0, 1);
  const std::complex<double> e_lambda =
      papers::RootError(SpectrumOf(OneStepMatrix(solver, phi)).z, lambda, phi);
  return -e_lambda / std::pow(lambda * phi, k);
}

TEST_F(PapersOneStep, HoweTable2OneStepMethods) {
  struct Row {
    SolverUnderTest solver;
    double e_i;
    int k;
  };
  for (const Row& row : {Row{kStandardEuler, 0.5, 1}, Row{kTrapezoidal, -1.0 / 12, 2}}) {
    const std::complex<double> e_i = MeasuredErrorCoefficient(row.solver, 0.01, row.k);
    EXPECT_LE(std::abs(e_i - row.e_i), 0.05 * std::abs(row.e_i)) << row.solver.element << e_i;
    // The order k: e_λ scales as Φ^k between Φ = 0.02 and 0.01.
    const double k = std::log2(
        std::abs(papers::RootError(SpectrumOf(OneStepMatrix(row.solver, 0.02)).z, {0, 1}, 0.02)) /
        std::abs(papers::RootError(SpectrumOf(OneStepMatrix(row.solver, 0.01)).z, {0, 1}, 0.01)));
    EXPECT_NEAR(k, row.k, 0.05) << row.solver.element;
  }
}

}  // namespace
}  // namespace fluxion
