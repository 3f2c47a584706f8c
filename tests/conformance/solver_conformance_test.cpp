// The solver conformance suite: every ODE solver in the component registry — the bundled plugins
// and any found on FLUXION_PLUGIN_PATH — passes the same checks, with nothing in this file naming
// a solver. What a check needs to know about a solver (its order, whether it needs a linear
// solver) comes from the solver's own declaration, through the catalog (solver_catalog.h).
//
//   1. an equilibrium stays put (without gravity, and hanging under gravity);
//   2. time advances by exactly h per step, accumulated as SOFA does (t += h);
//   3. the declared order is observed on the harmonic oscillator (a static solver, kStaticMethod,
//      has no order in time: it reaches the equilibrium of a linear spring and leaves v alone);
//   4. a failed step throws NumericalError and leaves positions, velocities and time bit for bit
//      as they were (on the first step, and later in a run, with any history built up);
//   5. two runs are bit-identical.
// The sixth check, no heap allocation in a steady-state step, is in step_allocation_test.cpp.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "conformance/conformance_scenes.h"
#include "conformance/solver_catalog.h"
#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion::conformance {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// gtest test-name suffix: the solver's name (letters, digits and '_' only).
std::string TestName(const ::testing::TestParamInfo<SolverDescription>& info) {
  std::string name;
  for (char ch : info.param.name) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

// Exact bitwise copy of a solver node's state, for comparisons after a rejected step.
struct Snapshot {
  std::vector<double> x, v;
  double time = 0;
  double simulation_time = 0;
  long steps = 0;
};

Snapshot Take(const Simulation& simulation) {
  const State& state = simulation.solver_nodes().at(0).state;
  return {{state.x.data(), state.x.data() + state.x.size()},
          {state.v.data(), state.v.data() + state.v.size()},
          state.time,
          simulation.time(),
          simulation.step_count()};
}

bool SameBits(const std::vector<double>& a, const Vector& b) {
  return static_cast<Index>(a.size()) == b.size() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

class SolverConformance : public testing::QuietTest,
                          public ::testing::WithParamInterface<SolverDescription> {};

// --- 0. The solver describes itself consistently -------------------------------------------------

// Every other check reads the default-configured instance's traits: they must exist and make
// sense (an order, and exactly one of explicit/implicit).
TEST_P(SolverConformance, DescribesItselfWithDefaultParameters) {
  const SolverDescription& solver = GetParam();
  EXPECT_EQ(solver.problem, "") << solver.name << " (" << solver.origin
                                << ") cannot be created with its default parameters";
  if (solver.is_static)
    EXPECT_EQ(solver.order, 0) << solver.name << " declares kStaticMethod: it has no order in time";
  else
    EXPECT_GE(solver.order, 1) << solver.name;
  EXPECT_NE(solver.is_explicit, solver.is_implicit)
      << solver.name << " must declare exactly one of kExplicitMethod and kImplicitMethod";
}

// --- 1. Equilibrium stays put --------------------------------------------------------------------

// Both equilibrium scenes: 100 steps of h = 10 ms, stiffness ≤ 100 N/m on 1 kg (ω·h ≤ 0.1, inside
// every explicit method's stability region, and forward Euler's growth (1 + (ωh)²)^(n/2) ≤ 1.65).
constexpr int kEquilibriumSteps = 100;
// Round-off: the residual force at the start is zero or k·(d − L0) with |d − L0| of an ulp or two
// (the oblique spring's length is a rounded square root), so the state only oscillates about a
// numerical equilibrium a few ulps away; bound the drift generously by one rounding of a
// coordinate (≤ 2 m) per step.
constexpr double kEquilibriumPositionTolerance = kEquilibriumSteps * kEpsilon * 2.0;  // [m]
// The velocity of such a motion is at most ω ≤ 10 rad/s times its amplitude.
constexpr double kEquilibriumVelocityTolerance = 10.0 * kEquilibriumPositionTolerance;  // [m/s]

void ExpectStaysPut(const std::string& scene, const Vector& equilibrium,
                    const SolverDescription& solver) {
  Simulation simulation = LoadScene(scene);
  for (int n = 0; n < kEquilibriumSteps; ++n) simulation.Step();
  const Vector x = simulation.position(0);
  const Vector v = simulation.velocity(0);
  EXPECT_LE((x - equilibrium).cwiseAbs().maxCoeff(), kEquilibriumPositionTolerance)
      << solver.name << ": x = " << x.transpose();
  EXPECT_LE(v.cwiseAbs().maxCoeff(), kEquilibriumVelocityTolerance)
      << solver.name << ": v = " << v.transpose();
}

// A mass on a spring at its rest length, no gravity. The spring is oblique, (0.2, 0.4, 0.4) with
// L0 = 0.6, so its length is a rounded √(0.2² + 0.4² + 0.4²) (0.6000000000000001 in double, one
// ulp above L0): the residual force is round-off, not exactly 0.
TEST_P(SolverConformance, EquilibriumWithoutGravityStaysPut) {
  const SolverDescription& solver = GetParam();
  const std::string scene = Fill(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  {solver}
  <Node name="body">
    <MechanicalObject name="dofs" template="Vec3d" position="0 0 0  0.2 0.4 0.4"/>
    <DiagonalMass vertexMass="1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 100 0 0.6"/>
  </Node>
</Node>)",
                                 {{"solver", SolverXml(solver)}});
  Vector equilibrium(6);
  equilibrium << 0, 0, 0, 0.2, 0.4, 0.4;
  ExpectStaysPut(scene, equilibrium, solver);
}

// A solver node that integrates nothing (its objects are elsewhere, or commented out: the fuzzer
// found ModifiedEulerSolver reading the minimum of an empty vector there): it steps, and time
// advances.
TEST_P(SolverConformance, ANodeWithoutObjectsSteps) {
  const SolverDescription& solver = GetParam();
  Simulation simulation = LoadScene(Fill(R"(<Node name="root" gravity="0 -9.81 0" dt="0.25">
  {solver}
</Node>)",
                                         {{"solver", SolverXml(solver)}}));
  for (int step = 0; step < 3; ++step) EXPECT_NO_THROW(simulation.Step()) << solver.name;
  EXPECT_EQ(simulation.time(), 0.75) << solver.name;
}

// A mass hanging at its static equilibrium: anchor at y = 2, L0 = 1, k = 80 N/m, m = 1 kg,
// g = −10 m/s², so y_eq = (2 − L0) − m·g/k = 1 − 0.125 = 0.875, and the spring force
// 80·(1.125 − 1) = 10 N balances m·g = −10 N exactly in binary arithmetic.
TEST_P(SolverConformance, HangingEquilibriumStaysPut) {
  const SolverDescription& solver = GetParam();
  const std::string scene = Fill(R"(<Node name="root" gravity="0 -10 0" dt="0.01">
  {solver}
  <Node name="body">
    <MechanicalObject name="dofs" template="Vec3d" position="0 2 0  0 0.875 0"/>
    <DiagonalMass vertexMass="1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 80 0 1"/>
  </Node>
</Node>)",
                                 {{"solver", SolverXml(solver)}});
  Vector equilibrium(6);
  equilibrium << 0, 2, 0, 0, 0.875, 0;
  ExpectStaysPut(scene, equilibrium, solver);
}

// --- 2. Time advances by exactly h per step ------------------------------------------------------

// h = 0.1 is not a binary fraction: the repeated sum t += h (SOFA's node time, which the solver's
// State::time and Simulation::sofa_time() keep) differs from n·h in the last bits, so the check
// tells the two apart. Simulation::time() is t₀ + n·h with h read as the decimal 0.1: n/10, the
// double nearest the decimal n·0.1 (the division is correctly rounded).
TEST_P(SolverConformance, TimeAdvancesByExactlyHPerStep) {
  const SolverDescription& solver = GetParam();
  constexpr double kH = 0.1;
  constexpr int kSteps = 100;
  Simulation simulation = LoadScene(OscillatorScene(SolverXml(solver), kH, 1.0, 0.0));
  double sum = 0.0;
  for (int n = 1; n <= kSteps; ++n) {
    simulation.Step();
    sum += kH;
    ASSERT_EQ(simulation.time(), n / 10.0) << solver.name << " after step " << n;
    ASSERT_EQ(simulation.sofa_time(), sum) << solver.name << " after step " << n;
    ASSERT_EQ(simulation.solver_nodes()[0].state.time, sum) << solver.name << " step " << n;
  }
  // The premise of the check: 100 additions of 0.1 are not 10.
  EXPECT_NE(sum, 10.0);
  EXPECT_EQ(simulation.time(), 10.0);
}

// --- 3. The declared order is observed -----------------------------------------------------------

// The undamped oscillator (ω = 1) from x = 1, v = 0 to T = 1 rad, at h = 1/16, 1/32, 1/64:
//  - binary-fraction steps, so that T/h steps end exactly at T (no time round-off enters);
//  - ω·h ≤ 1/16: deep inside every explicit method's stability region and in the asymptotic range
//    (the next term of the error expansion changes the observed order by O(ω·h) ≈ 0.06/ln 2 at
//    most for a first-order method, less for higher orders);
//  - x stays in [cos 1, 1] ≈ [0.54, 1], far from the spring's 1e-9 degenerate guard;
//  - the smallest error, a fourth-order method's ≈ T·h⁴/120 ≈ 5e-10 at h = 1/64, is far above
//    the round-off of 64 steps (≈ 64·ε ≈ 1.4e-14), see kRoundOffFloor.
// The declared order (SolverTraits::order) is the global order of the positions; it is checked on
// the position error |x − cos T|. Velocities must converge too, at least at first order: some
// methods report a velocity that is first-order accurate at t_n even though their positions are
// second order (VariationalSymplectic's mean velocity 2(x_{n+1} − x_n)/h − v_n approximates the
// mid-step velocity).
constexpr double kOrderEndTime = 1.0;
constexpr double kOrderCoarsestStep = 1.0 / 16;
// The brief's tolerance on log2(e(h)/e(h/2)): wide enough for the O(ω·h) pre-asymptotic bias of
// the coarsest pair, narrow enough to tell every order from its neighbours.
constexpr double kOrderTolerance = 0.3;
// Errors below this are round-off, and a ratio of them says nothing about the order.
constexpr double kRoundOffFloor = 1e-12;

// The largest errors up to kOrderEndTime, stepped with h: in x (the check's measure), in v, and
// their norm.
struct OrderErrors {
  double x = 0, v = 0, norm = 0;
};

OrderErrors ErrorsAtEnd(const SolverDescription& solver, double h) {
  Simulation simulation = LoadScene(OscillatorScene(SolverXml(solver), h, 1.0, 0.0));
  const long steps = std::lround(kOrderEndTime / h);
  OrderErrors worst;
  // The largest error over [0, T] (t_n = n·h exactly): an error at one instant can pass through
  // zero, as the phase and amplitude errors of x or v alone do, and fake a higher order.
  for (long n = 1; n <= steps; ++n) {
    simulation.Step();
    const double t = static_cast<double>(n) * h;
    const double x = simulation.position(0)[1] - std::cos(t);
    const double v = simulation.velocity(0)[1] + std::sin(t);
    worst.x = std::max(worst.x, std::abs(x));
    worst.v = std::max(worst.v, std::abs(v));
    worst.norm = std::max(worst.norm, std::hypot(x, v));
  }
  EXPECT_EQ(simulation.time(), kOrderEndTime) << solver.name;
  return worst;
}

// A static solver (kStaticMethod, order 0) has no order in time: it moves the positions to the
// equilibrium instead and leaves the velocities alone.
// A point of 2 kg hangs in 1-D from a fixed point at 0 on a spring of 50 N/m and rest length 1,
// under g = −10 m/s², released at y = −3 with v = 0.25 m/s: the force −50·(|y| − 1)·sign(y) − 20
// is linear in y on y < 0, zero at y = −1 − 20/50 = −1.4 (exactly −1.4 in decimal, 1 ulp in
// binary); a 1-D object takes the first component of the gravity, as in SOFA. 20 steps are far more
// than any Newton method needs on a linear equation; the velocity must come out bit for bit as it
// went in.
void ExpectReachesTheStaticEquilibrium(const SolverDescription& solver) {
  const std::string scene = Fill(R"(<Node name="root" gravity="-10 0 0" dt="0.01">
  {solver}
  <Node name="body">
    <MechanicalObject name="dofs" template="Vec1d" position="0 -3" velocity="0 0.25"/>
    <DiagonalMass vertexMass="1 2"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 50 0 1"/>
  </Node>
</Node>)",
                                 {{"solver", SolverXml(solver)}});
  Simulation simulation = LoadScene(scene);
  for (int n = 0; n < 20; ++n) simulation.Step();
  // Round-off of a few operations on numbers of order 1.
  EXPECT_NEAR(simulation.position(0)[1], -1.4, 1e-12) << solver.name;
  EXPECT_EQ(simulation.velocity(0)[1], 0.25) << solver.name;
}

TEST_P(SolverConformance, ObservesItsDeclaredOrder) {
  const SolverDescription& solver = GetParam();
  if (solver.is_static) return ExpectReachesTheStaticEquilibrium(solver);
  OrderErrors e[3];
  for (int i = 0; i < 3; ++i) e[i] = ErrorsAtEnd(solver, kOrderCoarsestStep / (1 << i));
  const double coarse_order = std::log2(e[0].x / e[1].x);
  const double fine_order = std::log2(e[1].x / e[2].x);
  const double velocity_order = std::log2(e[1].v / e[2].v);
  // The numbers, with the orders observed in x and in v alone, to tell which one is off.
  std::string numbers =
      "declared order " + std::to_string(solver.order) + "; at h = 1/16, 1/32, 1/64:";
  for (const auto& [what, member] :
       {std::pair{"|e|", &OrderErrors::norm}, std::pair{"|e_x|", &OrderErrors::x},
        std::pair{"|e_v|", &OrderErrors::v}}) {
    numbers += std::string("\n  ") + what + " = " + Exact(e[0].*member) + ", " +
               Exact(e[1].*member) + ", " + Exact(e[2].*member) + "  observed orders " +
               Exact(std::log2(e[0].*member / e[1].*member)) + ", " +
               Exact(std::log2(e[1].*member / e[2].*member));
  }
  RecordProperty("errors", numbers);  // in --gtest_output reports, also when the check passes
  ASSERT_GT(e[2].x, kRoundOffFloor) << solver.name << ": " << numbers;
  ASSERT_GT(e[2].v, kRoundOffFloor) << solver.name << ": " << numbers;
  EXPECT_NEAR(coarse_order, solver.order, kOrderTolerance) << solver.name << ": " << numbers;
  EXPECT_NEAR(fine_order, solver.order, kOrderTolerance) << solver.name << ": " << numbers;
  EXPECT_GE(velocity_order, 1.0 - kOrderTolerance) << solver.name << ": " << numbers;
}

// --- 4. A failed step leaves the state untouched -------------------------------------------------

// Steps until a step fails (at most `max_steps`); the failure must be a NumericalError for the
// next step, and positions, velocities and times must be bit for bit those before that step.
void ExpectFailureRestoresTheState(const std::string& scene, int max_steps,
                                   const SolverDescription& solver) {
  Simulation simulation = LoadScene(scene);
  for (int n = 0; n < max_steps; ++n) {
    const Snapshot before = Take(simulation);
    try {
      simulation.Step();
      continue;
    } catch (const NumericalError& error) {
      EXPECT_EQ(error.step(), before.steps + 1) << solver.name << ": " << error.what();
    }
    const State& after = simulation.solver_nodes()[0].state;
    EXPECT_TRUE(SameBits(before.x, after.x)) << solver.name << ": positions changed";
    EXPECT_TRUE(SameBits(before.v, after.v)) << solver.name << ": velocities changed";
    EXPECT_EQ(std::memcmp(&before.time, &after.time, sizeof(double)), 0) << solver.name;
    const double simulation_time = simulation.time();
    EXPECT_EQ(std::memcmp(&before.simulation_time, &simulation_time, sizeof(double)), 0)
        << solver.name;
    EXPECT_EQ(simulation.step_count(), before.steps) << solver.name;
    return;
  }
  ADD_FAILURE() << solver.name << ": no step failed in " << max_steps
                << " steps; it ended at x = " << simulation.position(0).transpose()
                << ", v = " << simulation.velocity(0).transpose();
}

// The first force evaluation overflows: a spring of 10 N/m stretched to 1e308 m pulls with
// −10·1e308 = −inf N, so whatever the method, the new velocity cannot be finite (or the linear
// solve fails).
TEST_P(SolverConformance, FailedFirstStepLeavesTheStateUntouched) {
  const SolverDescription& solver = GetParam();
  const std::string scene = Fill(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  {solver}
  <Node name="body">
    <MechanicalObject name="dofs" template="Vec1d" position="0 1e308" velocity="0 1"/>
    <DiagonalMass vertexMass="1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 10 0 0"/>
  </Node>
</Node>)",
                                 {{"solver", SolverXml(solver)}});
  ExpectFailureRestoresTheState(scene, 1, solver);
}

// A failure after some accepted steps, so that the state restored is a mid-run one (and any
// history, stored accelerations or momenta, has been built): a lightly damped oscillator
// (ω = √(1e-4/1e-6) = 10 rad/s, ω·h = 0.1) on which a key-framed load jumps from 0 to 1e308 N
// at t = 0.1 s. On a 1 mg point that is an acceleration of 1e314 m/s², beyond the largest double:
// the step that first sees the load, at t_n or at a stage time, cannot produce a finite velocity.
// That is the 11th or the 12th (ten additions of 0.01 sum to just below 0.1).
TEST_P(SolverConformance, FailedStepLaterInTheRunLeavesTheStateUntouched) {
  const SolverDescription& solver = GetParam();
  const std::string scene = Fill(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  {solver}
  <Node name="body">
    <MechanicalObject name="dofs" template="Vec1d" position="0 1" velocity="0 0.5"/>
    <DiagonalMass vertexMass="1 1e-6"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 1e-4 1e-7 0"/>
    <LinearForceField points="1" times="0 0.1 0.1000001" forces="0 0 1e308"/>
  </Node>
</Node>)",
                                 {{"solver", SolverXml(solver)}});
  ExpectFailureRestoresTheState(scene, 20, solver);
}

// --- 5. Determinism ------------------------------------------------------------------------------

// Two runs of the damped nonlinear chain from the same scene text end in the same bits.
TEST_P(SolverConformance, TwoRunsAreBitIdentical) {
  const SolverDescription& solver = GetParam();
  constexpr int kSteps = 50;
  std::vector<double> runs[2][2];
  for (auto& run : runs) {
    Simulation simulation = LoadScene(DampedChainScene(SolverXml(solver)));
    for (int n = 0; n < kSteps; ++n) simulation.Step();
    const Vector x = simulation.position(0), v = simulation.velocity(0);
    run[0].assign(x.data(), x.data() + x.size());
    run[1].assign(v.data(), v.data() + v.size());
  }
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(runs[0][k].size(), runs[1][k].size());
    EXPECT_EQ(std::memcmp(runs[0][k].data(), runs[1][k].data(), runs[0][k].size() * sizeof(double)),
              0)
        << solver.name << (k == 0 ? ": positions" : ": velocities") << " differ between two runs";
  }
  // The runs must have gone somewhere: the chain moved (gravity and stretched springs).
  EXPECT_GT(std::abs(runs[0][0][4]), 1e-3) << solver.name;
}

INSTANTIATE_TEST_SUITE_P(Registered, SolverConformance, ::testing::ValuesIn(AllSolvers()),
                         TestName);

}  // namespace
}  // namespace fluxion::conformance
