// BDFOdeSolver against textbook facts: the amplification of BDF1 and BDF2 on the test equation
// y' = λy (the roots of their characteristic polynomials), the global order of orders 1–6 on the
// harmonic oscillator with SOFA's start-up (min(s, 2)) and from exact starting values (s), and
// the NewtonRaphsonSolver lookup.
#include <gmock/gmock.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "backward_test_scenes.h"

namespace fluxion {
namespace {

using fluxion::testing::Exact;
using fluxion::testing::LoadScene;
using ::testing::HasSubstr;
using Complex = std::complex<double>;

class BdfOdeSolverTest : public fluxion::testing::QuietTest {};

// The undamped oscillator x'' = −x (ω = 1): a fixed anchor at 0 and a unit mass at x0 on a
// spring of stiffness 1 and rest length 0 in 1-D, whose force −x is exactly linear while x ≠ 0.
std::string Oscillator(const std::string& solver, double h, double x0 = 1.0, double v0 = 0.0) {
  return R"(<Node name="root" gravity="0 0 0" dt=")" + Exact(h) + R"(">
  )" + solver +
         R"(
  <SparseLDLSolver/>
  <MechanicalObject template="Vec1d" position="0 )" +
         Exact(x0) + R"(" velocity="0 )" + Exact(v0) + R"("/>
  <DiagonalMass vertexMass="1 1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 1 0 0"/>
</Node>)";
}

std::string Bdf(int order) { return R"(<BDFOdeSolver order=")" + std::to_string(order) + R"("/>)"; }

// BDF with a Newton solver that always iterates: SOFA's default absolute threshold (‖r‖ < 1e-5,
// also tested on the initial guess) would skip the iteration whenever the predictor's residual is
// that small, which at h ≤ 1/64 leaves errors of 1e-5 per step and hides the method's order. The
// equation is linear: one iteration solves it up to round-off.
std::string BdfIterating(int order) {
  return Bdf(order) + R"(<NewtonRaphsonSolver absoluteResidualStoppingThreshold="0"/>)";
}

TEST_F(BdfOdeSolverTest, DeclaresItsTraits) {
  const ComponentInfo* entry = fluxion::testing::TestHost().FindComponent("BDFOdeSolver");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->traits.flags, kImplicitMethod | kNeedsLinearSolver | kHasHistory);
  // The configured order: the start-up caps the global order at 2 (see OrdersWithSofaStartUp).
  for (int s = 1; s <= 6; ++s) {
    Simulation simulation = LoadScene(Oscillator(Bdf(s), 0.1));
    const SolverTraits traits = simulation.solver_nodes()[0].solver->RefineTraits(entry->traits);
    EXPECT_EQ(traits.order, std::min(s, 2)) << "order " << s;
  }
}

// --- The test equation y' = λy ------------------------------------------------------------------

// On the oscillator, y = (x, v) evolves along the eigenvector (1, i) of λ = i, y = Re(u·(1, i)),
// so x_n = Re(u_n) and v_n = −Im(u_n), where u_n is the method's solution of u' = i·u, u_0 = 1.
// BDF1: u_{n+1} = u_n / (1 − z), z = i·h (Hairer–Wanner II, §IV.3: R(z) = 1/(1 − z)).
TEST_F(BdfOdeSolverTest, Bdf1AmplifiesLikeOneOverOneMinusZ) {
  constexpr double h = 0.1;
  Simulation simulation = LoadScene(Oscillator(Bdf(1), h));
  const Complex z(0.0, h);
  Complex u = 1.0;
  for (int n = 1; n <= 100; ++n) {
    simulation.Step();
    u /= 1.0 - z;
    // A linear equation solved in one Newton iteration: round-off of a few operations per step.
    ASSERT_NEAR(simulation.position(0)[1], u.real(), 1e-13) << "step " << n;
    ASSERT_NEAR(simulation.velocity(0)[1], -u.imag(), 1e-13) << "step " << n;
  }
  // The amplitude decays as |R(ih)|ⁿ = (1 + h²)^(−n/2): 0.608 after 100 steps.
  EXPECT_NEAR(std::abs(u), std::pow(1.0 + h * h, -50.0), 1e-14);
}

// BDF2, started as SOFA does with one BDF1 step: u_1 = 1/(1 − z), then
// (3 − 2z)·u_{n+1} − 4·u_n + u_{n−1} = 0, whose solution is u_n = c₁ζ₁ⁿ + c₂ζ₂ⁿ with the roots
// ζ = (2 ± √(1 + 2z)) / (3 − 2z) of the characteristic polynomial and c₁ + c₂ = u_0,
// c₁ζ₁ + c₂ζ₂ = u_1. Checked on λ = i (the oscillator) and on a real λ = −c (a pure damper).
TEST_F(BdfOdeSolverTest, Bdf2FollowsItsCharacteristicRoots) {
  auto closed_form = [](Complex z, int n) {
    const Complex root = std::sqrt(1.0 + 2.0 * z);
    const Complex z1 = (2.0 + root) / (3.0 - 2.0 * z), z2 = (2.0 - root) / (3.0 - 2.0 * z);
    const Complex u1 = 1.0 / (1.0 - z);
    const Complex c1 = (u1 - z2) / (z1 - z2), c2 = 1.0 - c1;
    return c1 * std::pow(z1, n) + c2 * std::pow(z2, n);
  };
  constexpr double h = 0.1;
  {
    Simulation simulation = LoadScene(Oscillator(Bdf(2), h));
    for (int n = 1; n <= 100; ++n) {
      simulation.Step();
      const Complex u = closed_form(Complex(0.0, h), n);
      ASSERT_NEAR(simulation.position(0)[1], u.real(), 1e-13) << "step " << n;
      ASSERT_NEAR(simulation.velocity(0)[1], -u.imag(), 1e-13) << "step " << n;
    }
  }
  // A free unit mass with a linear drag f = −c·v: v' = −c·v, λ = −c, z = −c·h (real). The Newton
  // solver always iterates (see BdfIterating): v decays below SOFA's default threshold 1e-5.
  constexpr double c = 3.0;
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt=")" + Exact(h) + R"(">
  <BDFOdeSolver order="2"/>
  <NewtonRaphsonSolver absoluteResidualStoppingThreshold="0"/>
  <SparseLDLSolver/>
  <MechanicalObject template="Vec1d" position="0" velocity="1"/>
  <DiagonalMass vertexMass="1"/>
  <UniformVelocityDampingForceField dampingCoefficient=")" +
                                    Exact(c) +
                                    R"(" implicit="1"/>
</Node>)");
  for (int n = 1; n <= 40; ++n) {
    simulation.Step();
    const double u = closed_form(Complex(-c * h, 0.0), n).real();
    ASSERT_NEAR(simulation.velocity(0)[0], u, 1e-14) << "step " << n;
  }
}

// SOFA's coefficients follow the actual times, so a changed step gives variable-step BDF2: with
// ω = h_{n+1}/h_n (Hairer–Nørsett–Wanner I, §III.5, eq. 5.3, normalised to a_2 = 1)
//   y_{n+1} − (1 + ω)²/(1 + 2ω)·y_n + ω²/(1 + 2ω)·y_{n−1} = (1 + ω)/(1 + 2ω)·h_{n+1}·f_{n+1}.
// On the oscillator y = (x, v), f = A·y, A = [0 1; −1 0]: a BDF1 step of 0.1, then BDF2 steps of
// 0.25 (ω = 2.5), 0.05 (ω = 0.2) and 0.05 (ω = 1), stepped directly with those h.
TEST_F(BdfOdeSolverTest, ChangedStepGivesVariableStepBdf2) {
  Simulation simulation = LoadScene(Oscillator(BdfIterating(2), 0.1, 1.0, 0.5));
  const SolverNode& node = simulation.solver_nodes()[0];
  State state = node.state;
  using Y = Eigen::Vector2d;
  Eigen::Matrix2d a;
  a << 0.0, 1.0, -1.0, 0.0;
  const auto solve = [&](double step, const Y& sum) -> Y {
    return (Eigen::Matrix2d::Identity() - step * a).partialPivLu().solve(sum);
  };
  Y previous(1.0, 0.5);
  Y current = solve(0.1, previous);  // BDF1
  ASSERT_EQ(node.solver->Step(*node.system, 0.1, state).status, StepStatus::kOk);
  EXPECT_NEAR(state.x[1], current[0], 1e-15);
  double last_h = 0.1;
  for (const double h : {0.25, 0.05, 0.05}) {
    const double w = h / last_h;
    const Y next = solve((1 + w) / (1 + 2 * w) * h, (1 + w) * (1 + w) / (1 + 2 * w) * current -
                                                        w * w / (1 + 2 * w) * previous);
    ASSERT_EQ(node.solver->Step(*node.system, h, state).status, StepStatus::kOk);
    // Coefficients from times accumulated in double: round-off of a few ulps.
    EXPECT_NEAR(state.x[1], next[0], 1e-14) << "h = " << h;
    EXPECT_NEAR(state.v[1], next[1], 1e-14) << "h = " << h;
    previous = current;
    current = next;
    last_h = h;
  }
}

// --- Orders 1–6 on the oscillator ---------------------------------------------------------------

// The largest |x_n − cos t_n| over [0, T], with steps h = T/N (binary fractions: t_n = n·h
// exactly).
constexpr double kEndTime = 2.0;

double ErrorWithSofaStartUp(int order, double h) {
  Simulation simulation = LoadScene(Oscillator(BdfIterating(order), h));
  const long steps = std::lround(kEndTime / h);
  double worst = 0.0;
  for (long n = 1; n <= steps; ++n) {
    simulation.Step();
    worst = std::max(worst, std::abs(simulation.position(0)[1] - std::cos(n * h)));
  }
  return worst;
}

// The same run, but the first order − 1 steps (the start-up) end on the exact solution: the
// state is overwritten with (cos t, −sin t) before each next step, without invalidating the
// history, so that the history the method builds holds exact values (the classical way to
// measure a multistep method's own order, independently of its starter). The solver is stepped
// directly (Solver::Step) on a state the test owns.
double ErrorFromExactStart(int order, double h) {
  Simulation simulation = LoadScene(Oscillator(BdfIterating(order), h));
  const SolverNode& node = simulation.solver_nodes()[0];
  State state = node.state;
  const long steps = std::lround(kEndTime / h);
  double worst = 0.0;
  for (long n = 1; n <= steps; ++n) {
    const StepResult result = node.solver->Step(*node.system, h, state);
    EXPECT_EQ(result.status, StepStatus::kOk) << result.message;
    const double t = n * h;
    if (n < order) {
      state.x[1] = std::cos(t);
      state.v[1] = -std::sin(t);
    }
    worst = std::max(worst, std::abs(state.x[1] - std::cos(t)));
  }
  return worst;
}

// Observed orders log2(e(h)/e(h/2)) at h = 1/8, 1/16, 1/32 (ω·h ≤ 1/8: the asymptotic range; the
// next term of the error expansion moves the observed order by O(ω·h)). The smallest error,
// BDF6's ≈ T·(20/343)·h⁶ ≈ 1e-10 at h = 1/32, is far above the round-off of 64 steps (≈ 1e-14).
constexpr double kOrderTolerance = 0.3;  // as the conformance suite's

std::vector<double> ObservedOrders(double (*error)(int, double), int order) {
  double e[3];
  for (int i = 0; i < 3; ++i) e[i] = error(order, 0.125 / (1 << i));
  return {std::log2(e[0] / e[1]), std::log2(e[1] / e[2])};
}

// SOFA's start-up (order 1, 2, … up to s on the first steps) leaves the first step's backward
// Euler error O(h²) in the solution for good: BDF1 converges at order 1, BDF2–6 at order 2.
TEST_F(BdfOdeSolverTest, OrdersWithSofaStartUpAreMinOfOrderAndTwo) {
  for (int s = 1; s <= 6; ++s) {
    const std::vector<double> observed = ObservedOrders(&ErrorWithSofaStartUp, s);
    for (double p : observed) EXPECT_NEAR(p, std::min(s, 2), kOrderTolerance) << "BDF" << s;
  }
}

// From exact starting values, BDF-s converges at order s (Hairer–Nørsett–Wanner I, §III.1).
// Higher orders leave the asymptotic range later (BDF5 still shows 4.6 between h = 1/16 and
// 1/32) and reach round-off sooner (BDF6: 1e-13 at h = 1/128), so the order is read from the
// finest pair of h = 1/16 … 1/128 whose errors both stand above the round-off floor, 1e-11
// (≈ 300 times the rounding of 256 steps, n·ε ≈ 3e-14).
constexpr double kRoundOffFloor = 1e-11;

TEST_F(BdfOdeSolverTest, OrdersFromExactStartAreOneToSix) {
  for (int s = 1; s <= 6; ++s) {
    double e[4];
    for (int i = 0; i < 4; ++i) e[i] = ErrorFromExactStart(s, 0.0625 / (1 << i));
    int finest = 2;  // the pair (e[finest], e[finest + 1])
    while (finest > 0 && e[finest + 1] <= kRoundOffFloor) --finest;
    ASSERT_GT(e[finest + 1], kRoundOffFloor) << "BDF" << s;
    EXPECT_NEAR(std::log2(e[finest] / e[finest + 1]), s, kOrderTolerance)
        << "BDF" << s << " between h = 1/" << (16 << finest) << " and 1/" << (32 << finest);
  }
}

// --- SOFA's example ------------------------------------------------------------------------------

// The structure of SOFA's examples/Component/ODESolver/Backward/BDFOdeSolver_spring1d.scn: BDF of
// orders 1, 2, 3 side by side, each with its NewtonRaphsonSolver and EigenSimplicialLDLT, a Vec1
// point of 1 kg (UniformMass over a PointSetTopologyContainer whose position "1" is an incomplete
// point: dropped with a warning, as SOFA drops it) held by a RestShapeSpringsForceField
// (k = 100 N/m) at 0, gravity −9.81 m/s², Rayleigh rM = rK = 0.01, h = 0.01 s.
std::string SofaSpring1dNode(int order) {
  const std::string s = std::to_string(order);
  return R"(
    <Node name="BDF-)" +
         s + R"(">
        <BDFOdeSolver order=")" +
         s + R"(" printLog="false" rayleighMass="0.01" rayleighStiffness="0.01"/>
        <NewtonRaphsonSolver name="newton" printLog="false" maxNbIterationsNewton="4" maxNbIterationsLineSearch="2" absoluteResidualStoppingThreshold="1e-6"/>
        <EigenSimplicialLDLT template="CompressedRowSparseMatrix"/>
        <MechanicalObject name="dofs" template="Vec1" position="1 " rest_position="0" showObject="true" showObjectScale="20"/>
        <PointSetTopologyContainer name="topologyContainer" position="1"/>
        <UniformMass totalMass="1" topology="@topologyContainer"/>
        <RestShapeSpringsForceField points="0"/>
    </Node>)";
}

// With u = x − x*, x* = g/k = −0.0981, the motion is linear: y = (u, v), y' = A·y with
// A = [0 1; −k, −(rM + rK·k)] (F = f − rM·M·v − rK·K·v). The textbook BDF recurrences with
// constant h (Hairer–Nørsett–Wanner I, §III.1, Table 1.2) and SOFA's start-up:
//   BDF1: (I − hA)·y_{n+1} = y_n
//   BDF2: (I − ⅔hA)·y_{n+1} = (4/3)·y_n − (1/3)·y_{n−1}                       (y_1 by BDF1)
//   BDF3: (I − (6/11)hA)·y_{n+1} = (18/11)·y_n − (9/11)·y_{n−1} + (2/11)·y_{n−2}  (then BDF1, BDF2)
TEST_F(BdfOdeSolverTest, SofaSpring1dExampleFollowsTheTextbookRecurrences) {
  ExpectWarnings(3);  // the three incomplete topology points
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="-9.81 0 0" dt="0.01">
    <RequiredPlugin pluginName="Sofa.Component.ODESolver.Backward"/>
    <RequiredPlugin pluginName="Sofa.Component.LinearSolver.Direct"/>
    <VisualStyle displayFlags="showWireframe showVisual showBehaviorModels showForceFields" />
    <DefaultAnimationLoop/>
    <VisualGrid size="2"/>
    <LineAxis size="2"/>)" + SofaSpring1dNode(1) +
                                    SofaSpring1dNode(2) + SofaSpring1dNode(3) + R"(
</Node>)");
  constexpr double h = 0.01, k = 100.0, c = 0.01 + 0.01 * 100.0, equilibrium = -9.81 / 100.0;
  using Y = Eigen::Vector2d;
  Eigen::Matrix2d a;
  a << 0.0, 1.0, -k, -c;
  const auto bdf = [&](double beta, const Y& sum) -> Y {
    return (Eigen::Matrix2d::Identity() - beta * h * a).partialPivLu().solve(sum);
  };
  std::vector<Y> y[3];
  for (auto& history : y) history.push_back(Y(1.0 - equilibrium, 0.0));
  for (int n = 1; n <= 300; ++n) {
    simulation.Step();
    for (int s = 1; s <= 3; ++s) {
      const std::vector<Y>& p = y[s - 1];
      const int used = std::min(s, n);  // SOFA's start-up: orders 1, 2, … up to s
      Y next;
      if (used == 1) next = bdf(1.0, p[n - 1]);
      if (used == 2) next = bdf(2.0 / 3.0, (4.0 * p[n - 1] - p[n - 2]) / 3.0);
      if (used == 3)
        next = bdf(6.0 / 11.0, (18.0 * p[n - 1] - 9.0 * p[n - 2] + 2.0 * p[n - 3]) / 11.0);
      y[s - 1].push_back(next);
      // A linear equation solved in one Newton iteration: round-off, amplified by ‖A‖·h ≈ 1.
      ASSERT_NEAR(simulation.position(s - 1)[0], next[0] + equilibrium, 1e-12)
          << "BDF" << s << " step " << n;
      ASSERT_NEAR(simulation.velocity(s - 1)[0], next[1], 1e-11) << "BDF" << s << " step " << n;
    }
  }
}

// SOFA's direct solvers of symmetric systems are SparseLDLSolver under their names: the same run,
// bit for bit, with their `template` attribute accepted.
TEST_F(BdfOdeSolverTest, SofaDirectSolverNamesAreSparseLdl) {
  auto run = [](const std::string& linear) {
    std::string scene = Oscillator(Bdf(2), 0.1, 1.0, 0.5);
    scene.replace(scene.find("<SparseLDLSolver/>"), 18, linear);
    Simulation simulation = LoadScene(scene);
    for (int n = 0; n < 20; ++n) simulation.Step();
    return std::pair(simulation.position(0)[1], simulation.velocity(0)[1]);
  };
  const auto reference = run("<SparseLDLSolver/>");
  for (const char* name : {"EigenSimplicialLDLT", "EigenSimplicialLLT", "SparseCholeskySolver",
                           "CholeskySolver", "EigenSparseLU"}) {
    EXPECT_EQ(run("<" + std::string(name) + R"( template="CompressedRowSparseMatrixd"/>)"),
              reference)
        << name;
  }
}

// --- The NewtonRaphsonSolver it uses ------------------------------------------------------------

// The link names a NewtonRaphsonSolver; a link to nothing is an error at the solver's line.
TEST_F(BdfOdeSolverTest, NewtonSolverLinkMustNameANewtonRaphsonSolver) {
  const std::string good = R"(<Node name="root" gravity="0 0 0" dt="0.1">
  <BDFOdeSolver order="2" newtonSolver="@second"/>
  <NewtonRaphsonSolver name="first" maxNbIterationsNewton="0"/>
  <NewtonRaphsonSolver name="second" maxNbIterationsNewton="3"/>
  <SparseLDLSolver/>
  <MechanicalObject template="Vec1d" position="0 1"/>
  <DiagonalMass vertexMass="1 1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 1 0 0"/>
</Node>)";
  // With the first one (no iteration at all) the state would not move and a warning would say
  // so; with the second, the step is the linear BDF1 step.
  Simulation simulation = LoadScene(good);
  simulation.Step();
  EXPECT_NEAR(simulation.position(0)[1], 1.0 / 1.01, 1e-15);

  std::string bad = good;
  bad.replace(bad.find("@second"), 7, "@third");
  try {
    LoadScene(bad);
    FAIL() << "a link to no NewtonRaphsonSolver was accepted";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("inline.scn:2:"));
    EXPECT_THAT(error.what(), HasSubstr("'newtonSolver' link '@third' does not name a "
                                        "NewtonRaphsonSolver in node 'root' or below"));
  }
}

// Order 0 and 7 are refused (SOFA resets 0 to 1 and warns about 7, which is not zero-stable).
TEST_F(BdfOdeSolverTest, OrderOutsideOneToSixIsAnError) {
  for (const char* order : {"0", "7"}) {
    try {
      LoadScene(Oscillator(R"(<BDFOdeSolver order=")" + std::string(order) + R"("/>)", 0.1));
      FAIL() << "order " << order << " was accepted";
    } catch (const SceneError& error) {
      EXPECT_THAT(error.what(), HasSubstr("order")) << error.what();
    }
  }
}

}  // namespace
}  // namespace fluxion
