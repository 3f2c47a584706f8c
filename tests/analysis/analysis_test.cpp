// The analyzer against the papers' closed forms, computed here independently of the code:
// Hoffmann's r and Ψ of the transition matrix on the harmonic oscillator (seed 000), Howe's
// characteristic-root error e_λ ≈ −e_I (λh)^k and Table 2 (seed 002).
#include <cmath>
#include <complex>
#include <numbers>

#include "analysis.h"
#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "support/test_support.h"

namespace fluxion::analysis {
namespace {

using Complex = std::complex<double>;
constexpr double kPi = std::numbers::pi;

// The acceptance bounds: r and Ψ to 1e-6 of the closed forms, stability limits to ±0.01,
// e_I within 5 %. The measurement itself is far better (round-off for the transition matrix, a
// recurrence fit on exact data): these bounds leave room for nothing but a wrong method.
constexpr double kRootTolerance = 1e-6;
constexpr double kLimitTolerance = 0.01;
constexpr double kCoefficientTolerance = 0.05;

// The build tree's plugins plus the test double of tests/analysis/test_plugins.
const Host& AnalysisHost() {
  // Never destroyed: analyzers made in tests may outlive any scope.
  static const Host* host = [] {
    HostOptions options;
    options.default_plugin_directories = false;
    options.plugin_directories = {fluxion::testing::PluginDirectory(),
                                  FLUXION_ANALYSIS_TEST_PLUGIN_DIR};
    return new Host(options);
  }();
  return *host;
}

Analyzer Make(SolverChoice solver, AnalyzerOptions options = {}) {
  return Analyzer(AnalysisHost(), std::move(solver), options);
}

AnalyzerOptions Damped(double zeta) {
  AnalyzerOptions options;
  options.zeta = zeta;
  return options;
}

AnalyzerOptions ByRecurrence() {
  AnalyzerOptions options;
  options.force_recurrence = true;
  return options;
}

bool Available(const std::string& name) { return AnalysisHost().FindComponent(name) != nullptr; }

// Roots of z² − b·z + c = 0 (complex coefficients).
std::pair<Complex, Complex> QuadraticRoots(Complex b, Complex c) {
  const Complex d = std::sqrt(b * b - 4.0 * c);
  return {(b + d) / 2.0, (b - d) / 2.0};
}

// Eigenvalues of a real 2×2 matrix [a b; c d]: z² − (a + d)z + (ad − bc) = 0.
std::pair<Complex, Complex> Eigenvalues(double a, double b, double c, double d) {
  return QuadraticRoots(a + d, a * d - b * c);
}

class AnalysisTest : public fluxion::testing::QuietTest {};

// --- Hoffmann's False Euler (symplectic Euler, SOFA's default EulerExplicitSolver) -------------

TEST_F(AnalysisTest, FalseEulerHasUnitRadiusAndHoffmannsAngle) {
  const Analyzer analyzer = Make({"EulerExplicitSolver", {{"symplectic", "1"}}});
  EXPECT_EQ(analyzer.measurement(), Measurement::kTransitionMatrix);
  for (const double phi : {0.1, 0.5, 1.0, 1.414, 1.9}) {
    const TransitionPoint point = analyzer.Measure(phi);
    ASSERT_TRUE(point.ok) << point.message;
    // Hoffmann: r = 1, tan Ψ = Φ√(1−Φ²/4)/(1−Φ²/2) (the quadrant of (1−Φ²/2, Φ√…) for Φ > √2).
    const double psi = std::atan2(phi * std::sqrt(1.0 - phi * phi / 4.0), 1.0 - phi * phi / 2.0);
    EXPECT_NEAR(point.spectral_radius, 1.0, kRootTolerance) << "Φ = " << phi;
    EXPECT_NEAR(point.psi, psi, kRootTolerance) << "Φ = " << phi;
    EXPECT_NEAR(point.frequency_ratio(), psi / phi, kRootTolerance);
    EXPECT_NEAR(point.amplitude_error(), 0.0, kRootTolerance);
  }
  // The values Hoffmann prints, to his three decimals.
  EXPECT_NEAR(analyzer.Measure(1.0).psi, 1.047, 5e-4);
  EXPECT_NEAR(analyzer.Measure(1.414).psi, 1.570, 5e-4);
}

TEST_F(AnalysisTest, FalseEulerSummaryMatchesItsClosedForm) {
  const Summary summary = Make({"EulerExplicitSolver", {}}).Summarize();
  ASSERT_TRUE(summary.stability_limit.has_value());
  EXPECT_NEAR(*summary.stability_limit, 2.0, kLimitTolerance);  // Hoffmann: stable for Φ < 2
  // Howe's convention on the closed form: Ψ = 2·asin(Φ/2), so λ*h = iΨ and
  // e_λ = Ψ/Φ − 1 = Φ²/24 + O(Φ⁴) = −e_I (iΦ)^k  ⇒  k = 2 and e_I = lim (Ψ/Φ − 1)/Φ².
  // The root is second-order accurate although the method is first order (its eigenvectors,
  // i.e. the positions it reports, are off by O(h)): the global order says 1.
  const double phi = 1e-3;
  const double closed_form_coefficient = (2.0 * std::asin(phi / 2.0) / phi - 1.0) / (phi * phi);
  ASSERT_TRUE(summary.root_error_order.has_value());
  EXPECT_EQ(*summary.root_error_order, 2);
  ASSERT_TRUE(summary.error_coefficient.has_value());
  EXPECT_NEAR(*summary.error_coefficient, closed_form_coefficient,
              kCoefficientTolerance * closed_form_coefficient);
  ASSERT_TRUE(summary.global_order.has_value());
  EXPECT_NEAR(*summary.global_order, 1.0, 0.15);
  EXPECT_TRUE(summary.preserves_amplitude);
  ASSERT_TRUE(summary.area_preserving.has_value());
  EXPECT_TRUE(*summary.area_preserving);  // det T = 1: symplectic
}

// --- Hoffmann's Standard Euler (forward Euler, EulerExplicitSolver symplectic=0) ---------------

TEST_F(AnalysisTest, StandardEulerGrowsAsHoffmannSays) {
  const Analyzer analyzer = Make({"EulerExplicitSolver", {{"symplectic", "0"}}});
  for (const double phi : {0.1, 0.5, 1.0, 2.0, 5.0}) {
    const TransitionPoint point = analyzer.Measure(phi);
    ASSERT_TRUE(point.ok) << point.message;
    // z = 1 + iΦ: r² = 1 + Φ², Ψ = atan Φ.
    EXPECT_NEAR(point.spectral_radius * point.spectral_radius, 1.0 + phi * phi, kRootTolerance);
    EXPECT_NEAR(point.psi, std::atan(phi), kRootTolerance);
  }
}

TEST_F(AnalysisTest, StandardEulerSummaryIsHoweTableTwosEuler) {
  const Summary summary = Make({"EulerExplicitSolver", {{"symplectic", "0"}}}).Summarize();
  ASSERT_TRUE(summary.stability_limit.has_value());
  EXPECT_EQ(*summary.stability_limit, 0.0);  // unstable for every Φ > 0
  ASSERT_TRUE(summary.root_error_order.has_value());
  EXPECT_EQ(*summary.root_error_order, 1);
  ASSERT_TRUE(summary.error_coefficient.has_value());
  EXPECT_NEAR(*summary.error_coefficient, 0.5, kCoefficientTolerance * 0.5);  // Howe, Table 2
  EXPECT_FALSE(summary.preserves_amplitude);
  ASSERT_TRUE(summary.area_preserving.has_value());
  EXPECT_FALSE(*summary.area_preserving);  // det T = 1 + Φ²
}

TEST_F(AnalysisTest, DampingRatioEntersBothEulers) {
  // With ζ, a = −x − 2ζv. Forward Euler: T = [1 Φ; −Φ 1−2ζΦ]. Symplectic Euler (v first):
  // T = [1−Φ² Φ(1−2ζΦ); −Φ 1−2ζΦ]. The principal root is the one with Im z ≥ 0.
  const double zeta = 0.25;
  for (const double phi : {0.25, 0.8, 1.5}) {
    const auto forward = Eigenvalues(1.0, phi, -phi, 1.0 - 2.0 * zeta * phi);
    const auto symplectic =
        Eigenvalues(1.0 - phi * phi, phi * (1.0 - 2.0 * zeta * phi), -phi, 1.0 - 2.0 * zeta * phi);
    const TransitionPoint f =
        Make({"EulerExplicitSolver", {{"symplectic", "0"}}}, Damped(zeta)).Measure(phi);
    const TransitionPoint s = Make({"EulerExplicitSolver", {}}, Damped(zeta)).Measure(phi);
    ASSERT_TRUE(f.ok && s.ok);
    EXPECT_NEAR(f.spectral_radius, std::max(std::abs(forward.first), std::abs(forward.second)),
                kRootTolerance);
    EXPECT_NEAR(f.psi, std::abs(std::arg(forward.first)), kRootTolerance);
    EXPECT_NEAR(s.spectral_radius,
                std::max(std::abs(symplectic.first), std::abs(symplectic.second)), kRootTolerance);
    EXPECT_NEAR(s.psi, std::abs(std::arg(symplectic.first)), kRootTolerance);
  }
}

// --- The recurrence measurement (methods with history) -----------------------------------------

TEST_F(AnalysisTest, RecurrenceFitRecoversKnownRoots) {
  // s_n = Re/Im of a·z₁ⁿ + b·z₂ⁿ + c·z₃ⁿ on three channels, z₁,₂ = 0.9·e^{±0.3i}, z₃ = −0.2.
  const Complex z1 = std::polar(0.9, 0.3);
  std::vector<std::vector<double>> samples;
  for (int n = 0; n < 40; ++n) {
    const Complex oscillating = std::pow(z1, n);
    const double decaying = std::pow(-0.2, n);
    samples.push_back({oscillating.real() + decaying, oscillating.imag() - 2.0 * decaying,
                       2.0 * oscillating.real() - oscillating.imag() + 0.5 * decaying});
  }
  double residual = 0.0;
  int order = 0;
  const std::vector<Complex> roots = FitRecurrence(samples, 8, 1e-9, residual, order);
  EXPECT_EQ(order, 3);
  EXPECT_LT(residual, 1e-9);
  ASSERT_EQ(roots.size(), 3u);
  auto has = [&](Complex expected) {
    for (const Complex& root : roots)
      if (std::abs(root - expected) < 1e-10) return true;
    return false;
  };
  EXPECT_TRUE(has(z1));
  EXPECT_TRUE(has(std::conj(z1)));
  EXPECT_TRUE(has(-0.2));
}

TEST_F(AnalysisTest, RecurrenceAgreesWithTheTransitionMatrix) {
  // Forced onto a one-step method, the long-run fit must find the same roots.
  const Analyzer recurrence = Make({"EulerExplicitSolver", {}}, ByRecurrence());
  EXPECT_EQ(recurrence.measurement(), Measurement::kRecurrence);
  for (const double phi : {0.05, 0.7, 1.9}) {
    const TransitionPoint point = recurrence.Measure(phi);
    ASSERT_TRUE(point.ok) << point.message;
    const double psi = std::atan2(phi * std::sqrt(1.0 - phi * phi / 4.0), 1.0 - phi * phi / 2.0);
    EXPECT_NEAR(point.spectral_radius, 1.0, kRootTolerance);
    EXPECT_NEAR(point.psi, psi, kRootTolerance);
    EXPECT_EQ(point.recurrence_order, 2);
  }
}

TEST_F(AnalysisTest, AdamsBashforthRootsAndHoweCoefficient) {
  // The test double has history: the analyzer must measure it by recurrence.
  const Analyzer analyzer = Make({"AnalysisTestAdamsBashforth2Solver", {}});
  EXPECT_EQ(analyzer.measurement(), Measurement::kRecurrence);
  for (const double phi : {0.1, 0.3, 0.6, 1.0}) {
    // Each mode μ = ±iω: z² − (1 + 3/2·μh)·z + 1/2·μh = 0; the principal root is the one near
    // e^{iΦ}.
    const auto [principal, spurious] =
        QuadraticRoots(1.0 + 1.5 * Complex(0, phi), 0.5 * Complex(0, phi));
    const TransitionPoint point = analyzer.Measure(phi);
    ASSERT_TRUE(point.ok) << point.message;
    EXPECT_NEAR(point.spectral_radius, std::max(std::abs(principal), std::abs(spurious)),
                kRootTolerance)
        << "Φ = " << phi;
    EXPECT_NEAR(point.psi, std::arg(principal), kRootTolerance) << "Φ = " << phi;
  }
  const Summary summary = analyzer.Summarize();
  ASSERT_TRUE(summary.root_error_order.has_value());
  EXPECT_EQ(*summary.root_error_order, 2);
  ASSERT_TRUE(summary.error_coefficient.has_value());
  EXPECT_NEAR(*summary.error_coefficient, 5.0 / 12.0, kCoefficientTolerance * 5.0 / 12.0);  // Howe
  ASSERT_TRUE(summary.stability_limit.has_value());
  EXPECT_EQ(*summary.stability_limit, 0.0);  // |z| = 1 + Φ⁴/4 + …: unstable on undamped modes
  EXPECT_FALSE(summary.area_preserving.has_value());
}

// --- SOFA's solvers, when their plugins are on the path -----------------------------------------

TEST_F(AnalysisTest, RungeKutta4StabilityLimitIsTwoRootTwo) {
  if (!Available("RungeKutta4Solver"))
    GTEST_SKIP() << "RungeKutta4Solver is not on the plugin path";
  const Analyzer analyzer = Make({"RungeKutta4Solver", {}});
  for (const double phi : {0.5, 1.5, 2.5}) {
    // R(iΦ) = 1 − Φ²/2 + Φ⁴/24 + i(Φ − Φ³/6); the roots are R and R̄, so Ψ = |arg R| ∈ [0, π].
    const Complex r(1.0 - phi * phi / 2.0 + std::pow(phi, 4) / 24.0, phi - std::pow(phi, 3) / 6.0);
    const TransitionPoint point = analyzer.Measure(phi);
    ASSERT_TRUE(point.ok) << point.message;
    EXPECT_NEAR(point.spectral_radius, std::abs(r), kRootTolerance);
    EXPECT_NEAR(point.psi, std::abs(std::arg(r)), kRootTolerance);
  }
  const std::optional<double> limit = analyzer.StabilityLimit();
  ASSERT_TRUE(limit.has_value());
  EXPECT_NEAR(*limit, 2.0 * std::sqrt(2.0), kLimitTolerance);
}

TEST_F(AnalysisTest, NewmarkAverageAccelerationIsTheTrapezoidalRule) {
  if (!Available("NewmarkImplicitSolver"))
    GTEST_SKIP() << "NewmarkImplicitSolver is not on the plugin path";
  const Analyzer analyzer = Make({"NewmarkImplicitSolver", {{"gamma", "0.5"}, {"beta", "0.25"}}});
  for (const double phi : {0.05, 0.5, 1.0, 3.0, 8.0}) {
    const TransitionPoint point = analyzer.Measure(phi);
    ASSERT_TRUE(point.ok) << point.message;
    EXPECT_NEAR(point.spectral_radius, 1.0, kRootTolerance) << "Φ = " << phi;
    EXPECT_NEAR(point.psi, 2.0 * std::atan(phi / 2.0), kRootTolerance) << "Φ = " << phi;
  }
  const Summary summary = analyzer.Summarize();
  EXPECT_FALSE(summary.stability_limit.has_value());  // unconditionally stable
  ASSERT_TRUE(summary.error_coefficient.has_value());
  EXPECT_NEAR(*summary.error_coefficient, -1.0 / 12.0, kCoefficientTolerance / 12.0);  // Howe
  EXPECT_TRUE(summary.preserves_amplitude);
}

// --- Input errors -----------------------------------------------------------------------------

TEST_F(AnalysisTest, UnknownSolverOrParameterIsRejected) {
  EXPECT_THROW(Make({"EulerExplicitSolverr", {}}), ConfigError);
  EXPECT_THROW(Make({"SparseLDLSolver", {}}), ConfigError);  // a component, not an ODE solver
  EXPECT_THROW(Make({"EulerExplicitSolver", {{"symplectik", "0"}}}), SceneError);
  EXPECT_THROW(Make({"EulerExplicitSolver", {{"symplectic", "maybe"}}}), SceneError);
}

TEST_F(AnalysisTest, OscillatorSceneIsTheDocumentedOne) {
  const Analyzer analyzer = Make({"EulerExplicitSolver", {}}, Damped(0.5));
  const std::string xml = analyzer.OscillatorXml(0.5);
  EXPECT_NE(xml.find("<SpringForceField spring=\"0 1  1 0 0\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("dampingCoefficient=\"1\""), std::string::npos) << xml;  // c = 2ζ·m·ω₀
  EXPECT_EQ(xml.find("SparseLDLSolver"), std::string::npos) << xml;
  EXPECT_NEAR(std::abs(ExactRoot(1.0, 0.0) - Complex(0, 1)), 0.0, 1e-15);
}

}  // namespace
}  // namespace fluxion::analysis
