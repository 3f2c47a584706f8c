// scenes/fazarinc_driven_mass.scn: Fazarinc's free mass driven by F = A·cos ωt (seed 003, §2.1,
// eqs. 6–10), A = 2 N, m = 0.5 kg, ω = 2 rad/s, h = 0.05 s, s(0) = −A/(mω²) = −1, v(0) = 0, so
// that Newton's answer (eq. 6) is v(t) = A/(mω)·sin ωt, s(t) = −A/(mω²)·cos ωt.
//   (a) with its TrapezoidalSolver the run is Fazarinc's eq. 10, recomputed here, to rounding;
//   (b) RungeKutta4Solver stays within the error bound derived from Simpson's rule;
//   (c) the trapezoidal run stays within the error bound derived from the trapezoid rule.
#include <cmath>
#include <limits>
#include <string>

#include "support/test_support.h"

namespace fluxion::internal {
namespace {

using fluxion::testing::LoadScene;
using fluxion::testing::QuietTest;

constexpr double kEps = std::numeric_limits<double>::epsilon();
// The scene's numbers (asserted against the loaded scene below).
constexpr double kA = 2.0, kMass = 0.5, kOmega = 2.0, kH = 0.05;
constexpr int kSteps = 400;  // t = 20 s, about 6.4 periods

// The scene with its solver replaced by `solver` (an explicit method needs no linear solver; the
// scene's SparseLDLSolver is left in place and unused).
Simulation LoadWith(const std::string& solver) {
  std::string text = fluxion::testing::GallerySceneText("fazarinc_driven_mass.scn");
  const std::string own = "<TrapezoidalSolver/>";
  const std::size_t at = text.find(own);
  EXPECT_NE(at, std::string::npos);
  if (at != std::string::npos) text.replace(at, own.size(), "<" + solver + "/>");
  return LoadScene(text, "fazarinc_driven_mass.scn");
}

double ExactVelocity(double t) { return kA / (kMass * kOmega) * std::sin(kOmega * t); }
double ExactPosition(double t) { return -kA / (kMass * kOmega * kOmega) * std::cos(kOmega * t); }

// Rounding allowance after n steps: each step adds a few ulps (≤ 8 operations, ½ ulp each) of
// quantities of size ≤ scale, and neither recursion amplifies old errors (v and s only accumulate
// increments; s adds h/2 of v's error per step, h·n ≤ 20 for these runs): 16·(n + 1)·eps·scale.
double Rounding(int n, double scale) { return 16.0 * (n + 1) * kEps * scale; }

using FazarincDrivenMass = QuietTest;

TEST_F(FazarincDrivenMass, SceneHoldsThePapersInitialConditions) {
  const Simulation simulation = LoadWith("TrapezoidalSolver");
  EXPECT_EQ(simulation.dt(), kH);
  EXPECT_EQ(simulation.position(0)[0], -kA / (kMass * kOmega * kOmega));  // eq. 6: s(0)
  EXPECT_EQ(simulation.velocity(0)[0], 0.0);                              // eq. 6: v(0)
  // F(0) = A: the system force at the start is A·cos 0.
  const SolverNode& node = simulation.solver_nodes().front();
  Vector f;
  node.system->ComputeForce(node.state, f);
  EXPECT_EQ(f[0], kA);
}

// (a) Eq. 10, for a force of time only:
//   v_{n+1} = v_n + (A·h/2m)·[cos ωt_{n+1} + cos ωt_n],   s_{n+1} = s_n + (h/2)·(v_{n+1} + v_n).
// TrapezoidalSolver's Newton step with J = M (K = 0) solves it in one linear solve; it stops before
// solving only if |g_n + g_{n+1}| ≤ 1e-9·(|g_n| + |g_{n+1}|), which the loop asserts never happens
// here, so the run is eq. 10 up to rounding. Time is accumulated as the solver does (t += h).
TEST_F(FazarincDrivenMass, TrapezoidalRunIsFazarincsEquationTen) {
  Simulation simulation = LoadWith("TrapezoidalSolver");
  double t = 0.0, v = 0.0, s = -kA / (kMass * kOmega * kOmega);
  for (int n = 1; n <= kSteps; ++n) {
    const double t_next = t + kH;
    const double c0 = std::cos(kOmega * t), c1 = std::cos(kOmega * t_next);
    ASSERT_GT(std::abs(c0 + c1), 1e-6 * (std::abs(c0) + std::abs(c1))) << "n = " << n;
    const double v_next = v + kA * kH / (2 * kMass) * (c1 + c0);
    s += kH / 2 * (v_next + v);
    v = v_next;
    t = t_next;
    simulation.Step();
    ASSERT_NEAR(simulation.velocity(0)[0], v, Rounding(n, 4.0)) << "n = " << n;
    ASSERT_NEAR(simulation.position(0)[0], s, Rounding(n, 4.0)) << "n = " << n;
  }
}

// (b) RK4 on a force of time only (stage times t_n, t_n + h/2 twice, t_n + h; a = F/m):
//   v_{n+1} = v_n + (h/6)·[a(t_n) + 4·a(t_n + h/2) + a(t_n + h)]         — Simpson's rule;
//   x_{n+1} = x_n + h·v_n + (h²/6)·[a(t_n) + 2·a(t_n + h/2)]             — (k2v, k3v, k4v
//   expanded).
// Velocity: Simpson's error on one step is −(h/2)⁵/90·a''''(ξ) = −h⁵/2880·a''''(ξ), and errors only
// add up: |v_n − v(t_n)| ≤ n·h⁵·max|a''''|/2880 = t_n·h⁴·A·ω⁴/(2880·m).
// Position: exactly, x(t_{n+1}) = x(t_n) + h·v(t_n) + ∫₀ʰ (h − τ)·a(t_n + τ) dτ. The rule
// Q(a) = (h²/6)·[a(0) + 2·a(h/2)] integrates 1, τ, τ² exactly (h²/2, h³/6, h⁴/12) and τ³ to h⁵/24
// instead of h⁵/20. Its Peano kernel for degree 2, K(σ) = I[(τ − σ)₊²] − Q[(τ − σ)₊²] =
// (h − σ)⁴/12 − (h²/3)·(h/2 − σ)₊², is ≥ 0 on [0, h] (for σ < h/2 it is ≥ 0 iff (h − σ)² ≥
// h·(h − 2σ), i.e. σ² ≥ 0), so the error is a'''(ξ)·(h⁵/20 − h⁵/24)/6 = a'''(ξ)·h⁵/720. With the
// velocity error carried by h·v_n:
//   |s_n − s(t_n)| ≤ n·h⁵·max|a'''|/720 + h·Σ_{k<n} |v_k − v(t_k)|
//                 ≤ t_n·h⁴·A·ω³/(720·m) + t_n²·h⁴·A·ω⁴/(5760·m)        (h·Σ t_k ≤ t_n²/2).
TEST_F(FazarincDrivenMass, RungeKutta4StaysWithinItsSimpsonBound) {
  Simulation simulation = LoadWith("RungeKutta4Solver");
  const double h4 = std::pow(kH, 4);
  for (int n = 1; n <= kSteps; ++n) {
    simulation.Step();
    const double t = simulation.time();
    const double v_bound = t * h4 * kA * std::pow(kOmega, 4) / (2880 * kMass) + Rounding(n, 4.0);
    const double s_bound = t * h4 * kA * std::pow(kOmega, 3) / (720 * kMass) +
                           t * t * h4 * kA * std::pow(kOmega, 4) / (5760 * kMass) +
                           Rounding(n, 4.0);
    ASSERT_NEAR(simulation.velocity(0)[0], ExactVelocity(t), v_bound) << "n = " << n;
    ASSERT_NEAR(simulation.position(0)[0], ExactPosition(t), s_bound) << "n = " << n;
  }
}

// (c) Eq. 10 against Newton's answer. Velocity: the trapezoid rule's error on one step is
// −h³/12·a''(ξ), so |v_n − v(t_n)| ≤ n·h³·max|a''|/12 = t_n·h²·A·ω²/(12·m). Position: exactly,
// s(t_{n+1}) − s(t_n) = (h/2)·(v(t_n) + v(t_{n+1})) − (h³/12)·v''(ξ) with |v''| = |a'| ≤ Aω/m,
// while eq. 10 adds (h/2)·(v_n + v_{n+1}), i.e. also (h/2)·(e_n + e_{n+1}) of the velocity errors:
//   |s_n − s(t_n)| ≤ t_n·h²·A·ω/(12·m) + (h²·A·ω²/(12·m))·Σ (h/2)·(t_k + t_{k+1})
//                 = t_n·h²·A·ω/(12·m) + t_n²·h²·A·ω²/(24·m).
TEST_F(FazarincDrivenMass, TrapezoidalRunStaysWithinTheTrapezoidRuleBound) {
  Simulation simulation = LoadWith("TrapezoidalSolver");
  const double h2 = kH * kH;
  for (int n = 1; n <= kSteps; ++n) {
    simulation.Step();
    const double t = simulation.time();
    const double v_bound = t * h2 * kA * kOmega * kOmega / (12 * kMass) + Rounding(n, 4.0);
    const double s_bound = t * h2 * kA * kOmega / (12 * kMass) +
                           t * t * h2 * kA * kOmega * kOmega / (24 * kMass) + Rounding(n, 4.0);
    ASSERT_NEAR(simulation.velocity(0)[0], ExactVelocity(t), v_bound) << "n = " << n;
    ASSERT_NEAR(simulation.position(0)[0], ExactPosition(t), s_bound) << "n = " << n;
  }
}

// (d) SOFA's Newmark on a load of time only: its right-hand side takes the force at the state's
// time t_n (SOFA's context time during a solve), so with K = B = 0 and no Rayleigh damping its
// linear system is m·a_{n+1} = F(t_n), and with γ = ½, β = ¼ (a_0 = F(0)/m):
//   x_{n+1} = x_n + h·v_n + (h²/4)·a_n + (h²/4)·a_{n+1},   v_{n+1} = v_n + (h/2)·(a_n + a_{n+1}).
// The load lags by one step, hence first order on time-dependent loads (plugins/newmark_implicit/
// README.md): checked against this hand recursion to rounding.
TEST_F(FazarincDrivenMass, NewmarkTakesTheLoadAtTheStartOfTheStepAsSofa) {
  Simulation simulation = LoadWith("NewmarkImplicitSolver");
  double t = 0.0, v = 0.0, s = -kA / (kMass * kOmega * kOmega);
  double a = kA / kMass;  // a_0 = F(0)/m
  for (int n = 1; n <= kSteps; ++n) {
    const double a_next = kA * std::cos(kOmega * t) / kMass;
    s = s + v * kH + a * (kH * kH * 0.25) + a_next * (kH * kH * 0.25);
    v = v + a * (kH * 0.5) + a_next * (kH * 0.5);
    a = a_next;
    t += kH;
    simulation.Step();
    ASSERT_NEAR(simulation.position(0)[0], s, Rounding(n, 4.0) * 10) << "n = " << n;
    ASSERT_NEAR(simulation.velocity(0)[0], v, Rounding(n, 4.0) * 10) << "n = " << n;
  }
}

}  // namespace
}  // namespace fluxion::internal
