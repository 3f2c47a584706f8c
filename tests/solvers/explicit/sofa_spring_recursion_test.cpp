// RungeKutta2Solver, RungeKutta4Solver and CentralDifferenceSolver on SOFA's own solver test scene
// (ODESolverSpringTest, sofa-notes §2.1): a mass hanging from a fixed point by a spring, y of the
// mass compared before every step with the hand-written 1-D recursions of §2.1 (seed 004 §5–6),
// for SOFA's test matrix, plus the "sanity values" §2.1 computed from those recursions.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

#include "explicit_test_scenes.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using fluxion::testing::LoadScene;
using fluxion::testing::SofaSpringScene;

// SOFA asserts |y_sim − y_expected| ≤ ~5e-16 absolute: its recursion performs the solver's own
// operations in the solver's order. Ours do not: our spring force is −k·(d − L0)·û plus m·g
// summed in another order than the recursion's −K(y − z0) − m·g, our acceleration multiplies by
// 1/m where the recursion divides by m, and the recursion forms CentralDifference's coefficient
// as c, not 1 + (c − 1). Each step therefore differs by a few ulps (ε = 2.2e-16). A difference in
// a constant coefficient repeats every step and adds up linearly: over the longest run (2001
// steps) that is ~2001·ε ≈ 4.4e-13 relative, the order of the worst case seen (3e-13, the damped
// small_dt case). We assert 1e-12 relative to the spring's length scale (1 m): round-off passes,
// while an error in a stage or a weight (an O(h²) change per step) is orders of magnitude larger.
constexpr double kRelativeTolerance = 1e-12;
// The §2.1 sanity values are printed with 10 decimals: they hold to 5e-11; 1e-9 leaves margin.
constexpr double kSanityTolerance = 1e-9;

enum class Method { kCentralDifference, kRungeKutta2, kRungeKutta4 };

// y and v of the mass in SOFA's scene, advanced by the §2.1 recursion of one method.
class Recursion {
 public:
  Recursion(Method method, double k, double m, double h, double rayleigh_mass)
      : method_(method), k_(k), m_(m), h_(h), rm_(rayleigh_mass) {}

  double y() const { return y_; }

  void Step() {
    switch (method_) {
      case Method::kCentralDifference:
        if (rm_ == 0.0) {  // symplectic Euler
          v_ = v_ + h_ * A(y_);
          y_ = y_ + h_ * v_;
        } else {
          const double a = A(y_);
          v_ = v_ * (1 / h_ - rm_ / 2) / (1 / h_ + rm_ / 2) + a / (1 / h_ + rm_ / 2);
          y_ = y_ + h_ * v_;
        }
        break;
      case Method::kRungeKutta2: {  // explicit midpoint
        const double ym = y_ + h_ * v_ / 2, vm = v_ + h_ * A(y_) / 2;
        const double am = A(ym);
        y_ = y_ + h_ * vm;
        v_ = v_ + h_ * am;
        break;
      }
      case Method::kRungeKutta4: {  // classic RK4 on (y, v)
        const double k1y = v_, k1v = A(y_);
        const double k2y = v_ + h_ / 2 * k1v, k2v = A(y_ + h_ / 2 * k1y);
        const double k3y = v_ + h_ / 2 * k2v, k3v = A(y_ + h_ / 2 * k2y);
        const double k4y = v_ + h_ * k3v, k4v = A(y_ + h_ * k3y);
        y_ = y_ + h_ / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);
        v_ = v_ + h_ / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
        break;
      }
    }
  }

 private:
  // A(y) = (−K(y − z0) − m·g)/m: spring (rest length 1, fixed end at y = 2) plus gravity.
  double A(double y) const { return (-k_ * (y - kZ0) - m_ * kG) / m_; }

  static constexpr double kZ0 = 1.0, kG = 10.0;
  Method method_;
  double k_, m_, h_, rm_;
  double y_ = kZ0, v_ = 0.0;
};

std::string SolverElement(Method method, double rayleigh_mass) {
  switch (method) {
    case Method::kCentralDifference:
      return "<CentralDifferenceSolver rayleighMass=\"" + fluxion::testing::Exact(rayleigh_mass) +
             "\"/>";
    case Method::kRungeKutta2:
      return "<RungeKutta2Solver/>";
    case Method::kRungeKutta4:
      return "<RungeKutta4Solver/>";
  }
  return {};
}

struct SofaCase {
  const char* name;  // SOFA's test name (some are misnamed in SOFA; kept for traceability)
  Method method;
  double k, m, h, rayleigh_mass;
};

void PrintTo(const SofaCase& c, std::ostream* os) { *os << c.name; }

class ExplicitSofaSpringCases : public fluxion::testing::QuietTest,
                                public ::testing::WithParamInterface<SofaCase> {};

TEST_P(ExplicitSofaSpringCases, MatchesRecursionBeforeEveryStep) {
  const SofaCase& c = GetParam();
  Simulation simulation =
      LoadScene(SofaSpringScene(SolverElement(c.method, c.rayleigh_mass), c.k, c.m, c.h));
  Recursion expected(c.method, c.k, c.m, c.h, c.rayleigh_mass);
  int comparisons = 0;
  // SOFA's loop: do { compare; animate(h) } while (time < 2), with time summed step by step.
  do {
    const double y = simulation.position(1)[1];
    ASSERT_NEAR(y, expected.y(), kRelativeTolerance * std::max(1.0, std::abs(expected.y())))
        << "step " << simulation.step_count() << ", t = " << simulation.time();
    ++comparisons;
    simulation.Step();
    expected.Step();
  } while (simulation.time() < 2.0);
  EXPECT_GE(comparisons, static_cast<int>(2.0 / c.h));
}

// sofa-notes §2.1 test matrix (K in N/m, m in kg, h in s).
INSTANTIATE_TEST_SUITE_P(
    SofaTestMatrix, ExplicitSofaSpringCases,
    ::testing::Values(SofaCase{"CentralDifference_medium_dt_without_damping",
                               Method::kCentralDifference, 100, 10, 0.01, 0.0},
                      SofaCase{"CentralDifference_rungeKutta2_high_dt_with_damping",
                               Method::kCentralDifference, 1000, 10, 0.1, 0.1},
                      SofaCase{"CentralDifference_rungeKutta2_small_dt_with_damping",
                               Method::kCentralDifference, 100, 100, 0.001, 0.1},
                      SofaCase{"RungeKutta2_medium_dt", Method::kRungeKutta2, 100, 10, 0.01, 0.0},
                      SofaCase{"RungeKutta2_high_dt", Method::kRungeKutta2, 1000, 10, 0.1, 0.0},
                      SofaCase{"RungeKutta2_small_dt", Method::kRungeKutta2, 100, 100, 0.001, 0.0},
                      SofaCase{"RungeKutta4_medium_dt", Method::kRungeKutta4, 100, 10, 0.01, 0.0},
                      SofaCase{"RungeKutta4_high_dt", Method::kRungeKutta4, 1000, 10, 0.1, 0.0},
                      SofaCase{"RungeKutta4_small_dt", Method::kRungeKutta4, 100, 100, 0.001, 0.0}),
    [](const ::testing::TestParamInfo<SofaCase>& test) { return std::string(test.param.name); });

// y after one step, at t = 1 s and at t = 2 s: sofa-notes §2.1 "sanity values", checked on both
// the recursion (so that the recursion above is the one the notes used) and the solver.
class ExplicitSofaSanityValues : public fluxion::testing::QuietTest {};

void ExpectSanityValues(Method method, double k, double m, double h, double rayleigh_mass,
                        const double (&values)[3]) {
  Simulation simulation = LoadScene(SofaSpringScene(SolverElement(method, rayleigh_mass), k, m, h));
  Recursion expected(method, k, m, h, rayleigh_mass);
  const long checkpoints[3] = {1, std::lround(1.0 / h), std::lround(2.0 / h)};
  int next = 0;
  for (long step = 1; step <= checkpoints[2]; ++step) {
    simulation.Step();
    expected.Step();
    if (step == checkpoints[next]) {
      EXPECT_NEAR(expected.y(), values[next], kSanityTolerance) << "recursion, step " << step;
      EXPECT_NEAR(simulation.position(1)[1], values[next], kSanityTolerance) << "step " << step;
      ++next;
    }
  }
}

TEST_F(ExplicitSofaSanityValues, RungeKutta4) {
  ExpectSanityValues(Method::kRungeKutta4, 1000, 10, 0.1, 0.0,
                     {0.9541666667, 0.8183381843, 0.9448823022});
}

TEST_F(ExplicitSofaSanityValues, CentralDifferenceDamped) {
  ExpectSanityValues(Method::kCentralDifference, 1000, 10, 0.1, 0.1,
                     {0.9004975124, 0.8995172630, 0.8099755845});
}

}  // namespace
}  // namespace fluxion
