// Methods with history (AB-2, Howe's modified Euler with each velocity estimate): the principal
// characteristic root, measured from the recurrence of a long run of the oscillator
// x'' = −x − c·x' (ω = 1, Φ = h), against the roots of the methods' characteristic polynomials
// derived here from their difference equations (seed 002, Howe: eq. 4, Table 1, eqs. 15–16), and
// Howe's Table 2 error coefficients. Nothing below is computed by the solvers' code.
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "oscillator.h"

namespace fluxion {
namespace {

using papers::Closest;
using papers::PolynomialRoots;
using papers::PositionRun;
using papers::PrincipalRootFromRun;
using papers::SolverUnderTest;
using Complex = std::complex<double>;

const SolverUnderTest kAb2{"<AdamsBashforth2Solver/>"};
SolverUnderTest ModifiedEuler(const std::string& estimate) {
  return {R"(<ModifiedEulerSolver velocityEstimate=")" + estimate + R"("/>)"};
}

// The continuous eigenvalue of x'' = −x − c·x' (upper half-plane), c = 2ζ.
Complex Lambda(double c) { return {-c / 2, std::sqrt(1 - c * c / 4)}; }

// AB-2 on y' = A·y, per eigenvalue μ = λh of A: z² − (1 + 3μ/2)z + μ/2 = 0.
std::vector<Complex> Ab2Roots(double h, double c) {
  const Complex mu = Lambda(c) * h;
  return PolynomialRoots({1.0, -(1.0 + 1.5 * mu), 0.5 * mu});
}

// Modified Euler, eq. 4 with A = −D − c·V̂, D_{n+1} − D_n = h·V_{n+½}; with V_{n+½} = W·zⁿ and
// D_n = h·W·zⁿ/(z − 1), each Table 1 estimate gives (multiplied out):
//   euler        (z − 1)² + h²z + hc(z − 1) = 0
//   ab2          z(z − 1)² + h²z² + (hc/2)(3z − 1)(z − 1) = 0
//   trapezoidal  (z − 1)² + h²z + (hc/2)(z² − 1) = 0
//   predictor    z²(z − 1)² + h²z³ + (hc/8)(15z² − 10z + 3)(z − 1) = 0
// (predictor: V̂_n = V_{n−½} + (7/8)(V_{n−½} − V_{n−3/2}) − (3/8)(V_{n−3/2} − V_{n−5/2}), since
// h·A_{n−1} = V_{n−½} − V_{n−3/2}.)
std::vector<Complex> ModifiedEulerRoots(const std::string& estimate, double h, double c) {
  const double hh = h * h, hc = h * c;
  if (estimate == "euler") return PolynomialRoots({1.0, -2.0 + hh + hc, 1.0 - hc});
  if (estimate == "ab2")  // z³ − 2z² + z + h²z² + (hc/2)(3z² − 4z + 1)
    return PolynomialRoots({1.0, -2.0 + hh + 1.5 * hc, 1.0 - 2.0 * hc, 0.5 * hc});
  if (estimate == "trapezoidal") return PolynomialRoots({1.0 + hc / 2, -2.0 + hh, 1.0 - hc / 2});
  // predictor: z⁴ − 2z³ + z² + h²z³ + (hc/8)(15z³ − 25z² + 13z − 3)
  return PolynomialRoots(
      {1.0, -2.0 + hh + 15 * hc / 8, 1.0 - 25 * hc / 8, 13 * hc / 8, -3 * hc / 8});
}

// Roots from a recurrence fitted to ~10³ samples of a decaying oscillation: round-off in the
// samples (relative 1e-16, amplified by the fit's conditioning ~1/sin²Ψ and by the decay)
// stays below 1e-10; the polynomial roots are exact to round-off.
constexpr double kRootTolerance = 1e-9;

class PapersMultistep : public testing::QuietTest {};

TEST_F(PapersMultistep, AdamsBashforth2StartsWithAnEulerStep) {
  // Howe §4: "the startup problem associated with AB-2 … is solved by using Euler integration for
  // the first step". From (x, v) = (1, 0), a = −x, h = 0.1, by hand:
  const double h = 0.1;
  Simulation simulation = testing::LoadScene(papers::OscillatorScene(kAb2, h, 1, 0));
  simulation.Step();  // Euler: x1 = x0 + h·v0, v1 = v0 + h·a0
  const double x1 = 1.0, v1 = -h, a0 = -1.0, a1 = -x1;
  EXPECT_DOUBLE_EQ(simulation.position(0)[1], x1);
  EXPECT_DOUBLE_EQ(simulation.velocity(0)[1], v1);
  simulation.Step();  // AB-2 on both integrations
  EXPECT_DOUBLE_EQ(simulation.position(0)[1], x1 + h * (1.5 * v1 - 0.5 * 0.0));
  EXPECT_DOUBLE_EQ(simulation.velocity(0)[1], v1 + h * (1.5 * a1 - 0.5 * a0));
}

TEST_F(PapersMultistep, ModifiedEulerStartsWithAHalfStepAndReportsItsEstimate) {
  // Howe §4: "the first step which computes y_{1/2} from y_0 uses a step equal to h/2"; then eq. 4,
  // with the reported integer-step velocity the Table 1 estimate. From (1, 0), A = −D, h = 0.1:
  const double h = 0.1, a0 = -1.0;
  const double v_half = 0.0 + 0.5 * h * a0, d1 = 1.0 + h * v_half, a1 = -d1;
  const double v_3half = v_half + h * a1, d2 = d1 + h * v_3half;
  struct Case {
    std::string estimate;
    double v1, v2;  // the estimates V̂_1, V̂_2 (the start-up takes V_{−½} = V_0 − (h/2)A_0)
  };
  for (const Case& c :
       {Case{"euler", v_half, v_3half},
        Case{"ab2", 1.5 * v_half - 0.5 * (0.0 - 0.5 * h * a0), 1.5 * v_3half - 0.5 * v_half},
        Case{"predictor", v_half + h * (0.875 * a0 - 0.375 * a0),
             v_3half + h * (0.875 * a1 - 0.375 * a0)},
        Case{"trapezoidal", v_half + 0.5 * h * a1, v_3half + 0.5 * h * -d2}}) {
    Simulation simulation =
        testing::LoadScene(papers::OscillatorScene(ModifiedEuler(c.estimate), h, 1, 0));
    simulation.Step();
    EXPECT_NEAR(simulation.position(0)[1], d1, 1e-15) << c.estimate;
    EXPECT_NEAR(simulation.velocity(0)[1], c.v1, 1e-15) << c.estimate;
    simulation.Step();
    EXPECT_NEAR(simulation.position(0)[1], d2, 1e-15) << c.estimate;
    EXPECT_NEAR(simulation.velocity(0)[1], c.v2, 1e-15) << c.estimate;
  }
}

TEST_F(PapersMultistep, AdamsBashforth2PrincipalRoot) {
  // Undamped and Howe's ζ = 0.25; the parasitic root (≈ μ/2) dies out within the skipped steps.
  struct Case {
    double h, c;
  };
  for (const Case& k : {Case{0.1, 0.0}, Case{0.5, 0.0}, Case{0.25, 0.5}}) {
    const Complex measured = PrincipalRootFromRun(PositionRun(kAb2, k.h, 600, k.c), 100);
    const Complex expected = Closest(Ab2Roots(k.h, k.c), std::exp(Lambda(k.c) * k.h));
    EXPECT_NEAR(std::abs(measured - expected), 0.0, kRootTolerance)
        << "h = " << k.h << " c = " << k.c;
  }
}

TEST_F(PapersMultistep, ModifiedEulerPrincipalRootForEachEstimate) {
  // Howe's step-response case (ζ = 0.25, ω_n·h = 0.25) and a lightly damped one (ζ = 0.05,
  // ω_n·h = 0.5). The damping is f = −c·v with B = c·I declared, so the trapezoidal estimate is
  // exactly eqs. 15–16.
  struct Case {
    double h, c;
  };
  for (const std::string estimate : {"euler", "ab2", "trapezoidal", "predictor"}) {
    for (const Case& k : {Case{0.25, 0.5}, Case{0.5, 0.1}}) {
      const Complex measured =
          PrincipalRootFromRun(PositionRun(ModifiedEuler(estimate), k.h, 400, k.c), 100);
      const Complex expected =
          Closest(ModifiedEulerRoots(estimate, k.h, k.c), std::exp(Lambda(k.c) * k.h));
      EXPECT_NEAR(std::abs(measured - expected), 0.0, kRootTolerance)
          << estimate << " h = " << k.h << " c = " << k.c;
    }
  }
}

TEST_F(PapersMultistep, ModifiedEulerHasNoNumericalDampingAtAnyStableStep) {
  // Howe §5: with no damping the modified Euler roots lie on the unit circle for every h below
  // the stability limit Φ = 2, whatever the velocity estimate. |z|² = q is fitted from 2000 steps;
  // round-off leaves it exact to ~1e-14.
  for (const std::string estimate : {"euler", "ab2", "trapezoidal", "predictor"}) {
    for (double phi : {0.05, 0.1, 0.5, 1.0, 1.5, 1.9, 1.99}) {
      const Complex z = PrincipalRootFromRun(PositionRun(ModifiedEuler(estimate), phi, 2000), 10);
      EXPECT_NEAR(std::abs(z), 1.0, 1e-12) << estimate << " Φ = " << phi;
      // Leapfrog's angle: cos Ψ = 1 − Φ²/2.
      EXPECT_NEAR(std::arg(z), std::acos(1 - phi * phi / 2), 1e-9) << estimate << " Φ = " << phi;
    }
  }
}

TEST_F(PapersMultistep, HoweTable2MethodsWithHistory) {
  // e_λ = (λ* − λ)/λ ≈ −e_I (λh)^k (eq. 12) at Φ = 0.01 (λ = j), and k from Φ = 0.02 vs 0.01.
  struct Row {
    SolverUnderTest solver;
    double e_i;
    int k;
  };
  const Complex lambda(0, 1);
  for (const Row& row : {Row{kAb2, 5.0 / 12, 2}, Row{ModifiedEuler("predictor"), 1.0 / 24, 2},
                         Row{ModifiedEuler("euler"), 1.0 / 24, 2}}) {
    auto e_lambda = [&](double phi) {
      const Complex z = PrincipalRootFromRun(PositionRun(row.solver, phi, 2000), 50);
      return papers::RootError(z, lambda, phi);
    };
    const Complex e_i = -e_lambda(0.01) / std::pow(lambda * 0.01, row.k);
    EXPECT_LE(std::abs(e_i - row.e_i), 0.05 * row.e_i) << row.solver.element << " " << e_i;
    EXPECT_NEAR(std::log2(std::abs(e_lambda(0.02)) / std::abs(e_lambda(0.01))), row.k, 0.05)
        << row.solver.element;
  }
}

}  // namespace
}  // namespace fluxion
