// Observed order of convergence of SOFA's ODE solvers (EulerExplicitSolver in both modes, the
// implicit ones, RungeKutta2Solver, RungeKutta4Solver, CentralDifferenceSolver) on a nonlinear
// problem: a 2-D chain of four unit masses hanging from a fixed point by springs, released at rest
// from a horizontal, stretched configuration, so that it falls and swings (large rotations: the
// spring forces are nonlinear in x). No damping.
//
// Each solver runs to T = 1 s with h, h/2 and h/4; the error is the largest position error at T
// against a reference run of RungeKutta4Solver with h/64. Two successive error ratios give two
// observed orders p = log2(e(h)/e(h/2)), each asserted within ±0.15 of the expected order.
//
// Why h = 4 ms is in the asymptotic regime: the fastest mode of the chain has ω_max < 2·√(k/m)
// = 20 rad/s (springs of 100 N/m, masses of 1 kg; the tension adds less than that to the
// transverse stiffness), so ω_max·h ≤ 0.08 and the slow swing has ω·h ≈ 0.01. The observed
// order differs from the true one by the relative size of the next error term, O(ω_max·h) ≲ 0.1
// (forward Euler, whose error also grows like exp(ω²hT/2), is the slowest to settle: ≈ 1.04).
// The reference's own error is (1/16)⁴ ≈ 1.5e-5 of RK4's error at h/4 (~1e-10), and its
// round-off (16000 steps, ~1e-13) is 1e-3 of it, so it moves no observed order by more than 0.01.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "explicit_test_scenes.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using fluxion::testing::Exact;
using fluxion::testing::Fill;
using fluxion::testing::LoadScene;

constexpr double kStep = 4e-3;    // h
constexpr double kEndTime = 1.0;  // T
constexpr double kOrderTolerance = 0.15;
constexpr int kMasses = 4;
constexpr double kSpacing = 0.3;      // initial distance between neighbours [m]
constexpr double kRestLength = 0.25;  // springs start stretched by 5 cm
constexpr double kStiffness = 100.0;  // [N/m]
constexpr double kGravity = 10.0;     // [m/s²], unit masses

// The chain: point 0 fixed at the origin, points 1..4 on the x axis, all with unit mass; springs
// between neighbours. `velocities` holds 2 numbers per point (empty: at rest).
std::string ChainScene(const std::string& solver, double h, const std::vector<double>& velocities) {
  std::string position, velocity, springs;
  for (int i = 0; i <= kMasses; ++i) position += Exact(kSpacing * i) + " 0  ";
  for (const double value : velocities) velocity += Exact(value) + " ";
  for (int i = 0; i < kMasses; ++i)
    springs += std::to_string(i) + " " + std::to_string(i + 1) + " " + Exact(kStiffness) + " 0 " +
               Exact(kRestLength) + "  ";
  return Fill(R"(<Node name="root" gravity="0 -10 0" dt="{h}">
  {solver}
  <Node name="Chain">
    <MechanicalObject name="chain" template="Vec2d" position="{position}" velocity="{velocity}"/>
    <UniformMass vertexMass="1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="{springs}"/>
  </Node>
</Node>)",
              {{"h", Exact(h)},
               {"solver", solver},
               {"position", position},
               {"velocity", velocity.empty() ? std::string("0 0") : velocity},
               {"springs", springs}});
}

// The half-step velocity v(−h/2) = v(0) − (h/2)·a(0) of a leapfrog start, with a(0) from the
// initial geometry: every spring is stretched by s = spacing − L0 along x, so the inner masses
// feel no net spring force, the last one is pulled back by k·s, and all fall with g.
std::vector<double> LeapfrogStart(double h) {
  std::vector<double> velocities(2 * (kMasses + 1), 0.0);
  for (int i = 1; i <= kMasses; ++i) {
    const double ax = i == kMasses ? -kStiffness * (kSpacing - kRestLength) : 0.0;
    const double ay = -kGravity;
    velocities[2 * i] = -h / 2 * ax;
    velocities[2 * i + 1] = -h / 2 * ay;
  }
  return velocities;
}

// Positions of the chain at T after T/h steps (counted, so T is reached exactly).
Vector RunTo(const std::string& solver, double h, bool leapfrog_start) {
  Simulation simulation =
      LoadScene(ChainScene(solver, h, leapfrog_start ? LeapfrogStart(h) : std::vector<double>{}));
  const long steps = std::lround(kEndTime / h);
  for (long n = 0; n < steps; ++n) simulation.Step();
  return simulation.position(0);
}

struct OrderCase {
  const char* name;
  const char* solver;
  bool leapfrog_start;
  double expected_order;
};

void PrintTo(const OrderCase& c, std::ostream* os) { *os << c.name; }

class ExplicitConvergenceOrder : public fluxion::testing::QuietTest,
                                 public ::testing::WithParamInterface<OrderCase> {
 protected:
  static const Vector& Reference() {
    static const Vector reference = RunTo("<RungeKutta4Solver/>", kStep / 64, false);
    return reference;
  }
};

TEST_P(ExplicitConvergenceOrder, ObservedOrderMatches) {
  const OrderCase& c = GetParam();
  double errors[3];
  for (int level = 0; level < 3; ++level) {
    const Vector x = RunTo(c.solver, kStep / (1 << level), c.leapfrog_start);
    errors[level] = (x - Reference()).cwiseAbs().maxCoeff();
  }
  for (int level = 0; level < 2; ++level) {
    const double observed = std::log2(errors[level] / errors[level + 1]);
    EXPECT_NEAR(observed, c.expected_order, kOrderTolerance)
        << c.name << ": errors " << errors[level] << " (h/" << (1 << level) << ") and "
        << errors[level + 1] << " (h/" << (2 << level) << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(
    SofaExplicitSolvers, ExplicitConvergenceOrder,
    ::testing::Values(
        OrderCase{"EulerExplicitSymplectic", "<EulerExplicitSolver/>", false, 1.0},
        OrderCase{"EulerExplicitForward", "<EulerExplicitSolver symplectic=\"0\"/>", false, 1.0},
        OrderCase{"RungeKutta2", "<RungeKutta2Solver/>", false, 2.0},
        OrderCase{"RungeKutta4", "<RungeKutta4Solver/>", false, 4.0},
        // Leapfrog: second order when the velocity given is the half-step velocity v(−h/2).
        OrderCase{"CentralDifferenceLeapfrogStart", "<CentralDifferenceSolver/>", true, 2.0},
        // Started from v(0) itself (a(0) ≠ 0 here), CentralDifference is bit for bit symplectic
        // Euler: the O(h) start-up error makes its positions first-order accurate, as SOFA's.
        OrderCase{"CentralDifferencePlainStart", "<CentralDifferenceSolver/>", false, 1.0}),
    [](const ::testing::TestParamInfo<OrderCase>& test) { return std::string(test.param.name); });

// SOFA's implicit solvers on the same chain, with a direct linear solver so that the solves are
// exact: EulerImplicit (one linearised backward-Euler step) is first order; Newmark (γ = ½, β = ¼,
// one linearised solve of the average-acceleration rule) and VariationalSymplectic (Newton on the
// implicit midpoint, converged to 1e-13 relative) are second order.
INSTANTIATE_TEST_SUITE_P(
    SofaImplicitSolvers, ExplicitConvergenceOrder,
    ::testing::Values(
        OrderCase{"EulerImplicit", "<EulerImplicitSolver/><SparseLDLSolver/>", false, 1.0},
        OrderCase{"NewmarkImplicit", "<NewmarkImplicitSolver/><SparseLDLSolver/>", false, 2.0},
        OrderCase{
            "VariationalSymplectic",
            "<VariationalSymplecticSolver newtonError=\"1e-13\" steps=\"50\"/><SparseLDLSolver/>",
            false, 2.0}),
    [](const ::testing::TestParamInfo<OrderCase>& test) { return std::string(test.param.name); });

}  // namespace
}  // namespace fluxion
