// SOFA's own test suite for the implicit solvers (sofa-notes §2.1): EulerImplicitDynamic,
// NewmarkImplicitDynamic, VariationalSymplecticImplicit and ...Explicit on the fixed point + spring
// + mass scene. The mass's y is compared before every step with the hand-written 1-D recursions of
// §2.1 (written here, independently of the plugins), with CG as in SOFA and with the direct solver.
#include <cmath>
#include <ostream>
#include <string>

#include "implicit_test_scenes.h"

namespace fluxion {
namespace {

using fluxion::testing::Exact;
using fluxion::testing::Linear;

// SOFA asserts ~1e-16 absolute (bitwise agreement with its own operation order). Fluxion sums the
// same terms in another order (the spring force is k·((2 − y) − 1) along −û, K·v is a sparse
// product, CG/LDL round differently from the scalar division), so each step differs by a few
// ulps; the recursions are stable (|amplification| ≤ 1), so these differences do not grow faster
// than linearly over the ≤ 2001 steps. 1e-12 relative to max(1, |y|) leaves a margin of ~100 over
// 2001 steps × a few ulps, and still catches any wrong coefficient (those show up at 1e-4 or more).
constexpr double kRelativeTolerance = 1e-12;
// The sanity values of §2.1 are printed with 10 decimals.
constexpr double kSanityTolerance = 1e-9;

constexpr double kGravity = 10.0;  // |g| of the scene
constexpr double kRestY = 1.0;     // z0: the mass's initial y, the spring at rest

enum class Method { kEulerImplicit, kNewmark, kVariationalImplicit, kVariationalExplicit };

struct SofaCase {
  const char* name;
  Method method;
  double k, m, h, rm, rk;
  bool check_energy = false;  // VariationalSymplecticImplicit high_dt_without_damping only
};

void PrintTo(const SofaCase& c, std::ostream* out) { *out << c.name; }

std::string SolverXml(const SofaCase& c) {
  const std::string rayleigh =
      " rayleighStiffness=\"" + Exact(c.rk) + "\" rayleighMass=\"" + Exact(c.rm) + "\"";
  switch (c.method) {
    case Method::kEulerImplicit:
      return "<EulerImplicitSolver" + rayleigh + "/>";
    case Method::kNewmark:
      return "<NewmarkImplicitSolver" + rayleigh + "/>";
    // SOFA's test also passes newtonSteps="4", which SOFA ignores (the attribute is `steps`,
    // default 5); Fluxion would reject the unknown name, so it is left out and the default is used.
    case Method::kVariationalImplicit:
      return "<VariationalSymplecticSolver" + rayleigh +
             " computeHamiltonian=\"1\" newtonError=\"1e-12\"/>";
    case Method::kVariationalExplicit:
      return "<VariationalSymplecticSolver explicitIntegration=\"1\" rayleighMass=\"" +
             Exact(c.rm) + "\"/>";
  }
  return {};
}

// The 1-D recursions of sofa-notes §2.1 for y (the mass's height), from y_0 = z0, v_0 = 0, with the
// spring force −K(y − z0) and gravity −m·g.
class Recursion {
 public:
  explicit Recursion(const SofaCase& c) : c_(c) {}
  double y() const { return y_; }

  void Step() {
    const double K = c_.k, m = c_.m, h = c_.h, rm = c_.rm, rk = c_.rk, g = kGravity;
    const double force = -K * (y_ - kRestY) - m * g;
    switch (c_.method) {
      case Method::kEulerImplicit: {
        const double D = h * (h + rk) * K + (1 + h * rm) * m;
        const double cv = -(rk + h) * K - rm * m;
        v_ = v_ + h * (force + cv * v_) / D;
        y_ = y_ + h * v_;
        break;
      }
      case Method::kNewmark: {
        const double beta = 0.25, gamma = 0.5;
        const double D = (h * h * beta + h * gamma * rk) * K + m * (1 + h * gamma * rm);
        const double ca = h * (-rm * m * (1 - gamma) - K * h * (0.5 - beta) - rk * K * (1 - gamma));
        const double cv = -rm * m - K * (h + rk);
        const double a1 = (force + ca * a_ + cv * v_) / D;
        y_ = y_ + h * v_ + (h * h / 2) * (1 - 2 * beta) * a_ + h * h * beta * a1;
        v_ = v_ + h * (1 - gamma) * a_ + h * gamma * a1;
        a_ = a1;
        break;
      }
      case Method::kVariationalImplicit: {
        const double D = 4 * m + h * h * K + 4 * h * (rm * m + rk * K);
        const double v = 2 * (-m * g * h - h * K * (y_ - kRestY) + 2 * p_) / D;
        p_ = m * v + (h / 2) * (-K * (y_ - kRestY + v * h / 2) - m * g);
        y_ = y_ + h * v;
        break;
      }
      case Method::kVariationalExplicit: {
        v_ = (p_ + h * (force - rm * m * v_)) / m;
        p_ = m * v_;
        y_ = y_ + h * v_;
        break;
      }
    }
  }

 private:
  SofaCase c_;
  double y_ = kRestY, v_ = 0.0, p_ = 0.0;
  double a_ = -kGravity;  // Newmark's a_0 = M⁻¹f(x_0): gravity alone, the spring is at rest
};

class SofaSpringCases : public fluxion::testing::QuietTest,
                        public ::testing::WithParamInterface<std::tuple<SofaCase, Linear>> {};

TEST_P(SofaSpringCases, MatchesHandWrittenRecursion) {
  const auto& [c, linear] = GetParam();
  Simulation simulation = fluxion::testing::LoadScene(
      fluxion::testing::SofaSpringScene(SolverXml(c), c.k, c.m, c.h, linear));
  Recursion expected(c);
  // SOFA's loop: compare, then step, while t < 2.
  do {
    const double y = simulation.position(1)[1];
    ASSERT_NEAR(y, expected.y(), kRelativeTolerance * std::max(1.0, std::abs(expected.y())))
        << "t = " << simulation.time();
    simulation.Step();
    expected.Step();
    if (c.check_energy) {
      // SOFA: |H − m·g·z0| ≤ 8e-15 after every step; H is conserved exactly by the midpoint rule
      // on this linear problem, and m·g·z0 is the initial potential (−m·g·y_0 of the gravity, 0 of
      // the spring at rest). Relative 1e-12 for the same round-off reason as the positions.
      double hamiltonian = 0.0;
      simulation.solver_nodes()[0].solver->ReadOutputs(&hamiltonian);
      const double initial = c.m * kGravity * kRestY;
      ASSERT_NEAR(hamiltonian, initial, kRelativeTolerance * initial)
          << "t = " << simulation.time();
    }
  } while (simulation.time() < 2.0);
}

const SofaCase kSofaCases[] = {
    {"EulerImplicit_high_dt_without_damping", Method::kEulerImplicit, 100, 10, 0.1, 0, 0},
    {"EulerImplicit_high_dt_with_damping", Method::kEulerImplicit, 100, 10, 0.1, 0.1, 0.1},
    {"EulerImplicit_medium_dt_with_rayleigh_stiffness", Method::kEulerImplicit, 10, 10, 0.01, 0,
     0.1},
    {"EulerImplicit_small_dt_with_rayleigh_mass", Method::kEulerImplicit, 10, 100, 0.001, 0.1, 0},
    {"Newmark_high_dt_without_damping", Method::kNewmark, 100, 10, 0.1, 0, 0},
    {"Newmark_high_dt_with_damping", Method::kNewmark, 100, 10, 0.1, 0.1, 0.1},
    {"Newmark_medium_dt_with_rayleigh_stiffness", Method::kNewmark, 10, 10, 0.01, 0, 0.1},
    {"Newmark_small_dt_with_rayleigh_mass", Method::kNewmark, 10, 100, 0.001, 0.1, 0},
    {"VariationalImplicit_high_dt_without_damping", Method::kVariationalImplicit, 100, 1, 0.01, 0,
     0, true},
    {"VariationalImplicit_medium_dt_with_rayleigh_mass", Method::kVariationalImplicit, 100, 10,
     0.01, 0.1, 0},
    {"VariationalImplicit_medium_dt_with_rayleigh_stiffness", Method::kVariationalImplicit, 100, 10,
     0.01, 0, 0.1},
    {"VariationalImplicit_small_dt_with_damping", Method::kVariationalImplicit, 100, 10, 0.001, 0.1,
     0.1},
    {"VariationalExplicit_small_dt_without_damping", Method::kVariationalExplicit, 100, 10, 0.001,
     0, 0},
    {"VariationalExplicit_medium_dt_with_damping", Method::kVariationalExplicit, 1000, 10, 0.01,
     0.1, 0},
    {"VariationalExplicit_high_dt_with_damping", Method::kVariationalExplicit, 10, 10, 0.1, 0.1, 0},
};

INSTANTIATE_TEST_SUITE_P(
    SofaTestMatrix, SofaSpringCases,
    ::testing::Combine(::testing::ValuesIn(kSofaCases),
                       ::testing::Values(Linear::kCg, Linear::kLdl)),
    [](const ::testing::TestParamInfo<std::tuple<SofaCase, Linear>>& param_info) {
      return std::string(std::get<0>(param_info.param).name) + "_" +
             fluxion::testing::LinearName(std::get<1>(param_info.param));
    });

// The sanity values of sofa-notes §2.1 ("computed by me" from the recursions): y after one step,
// at t = 1 and at t = 2, asserted on the simulation directly.
struct SanityCase {
  const char* name;
  SofaCase scene;
  double after_one_step, at_one_second, at_two_seconds;
};

void PrintTo(const SanityCase& c, std::ostream* out) { *out << c.name; }

class SofaSanityValues : public fluxion::testing::QuietTest,
                         public ::testing::WithParamInterface<SanityCase> {};

TEST_P(SofaSanityValues, MatchesPublishedValues) {
  const SanityCase& s = GetParam();
  const SofaCase& c = s.scene;
  Simulation simulation = fluxion::testing::LoadScene(
      fluxion::testing::SofaSpringScene(SolverXml(c), c.k, c.m, c.h, Linear::kCg));
  const long steps_per_second = std::lround(1.0 / c.h);
  for (long step = 1; step <= 2 * steps_per_second; ++step) {
    simulation.Step();
    const double y = simulation.position(1)[1];
    if (step == 1) {
      EXPECT_NEAR(y, s.after_one_step, kSanityTolerance);
    }
    if (step == steps_per_second) {
      EXPECT_NEAR(y, s.at_one_second, kSanityTolerance);
    }
    if (step == 2 * steps_per_second) {
      EXPECT_NEAR(y, s.at_two_seconds, kSanityTolerance);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    SofaNotes, SofaSanityValues,
    ::testing::Values(SanityCase{"EulerImplicit",
                                 {"", Method::kEulerImplicit, 100, 10, 0.1, 0, 0},
                                 0.9090909091,
                                 -0.6189936066,
                                 0.3807628806},
                      SanityCase{"EulerImplicitDamped",
                                 {"", Method::kEulerImplicit, 100, 10, 0.1, 0.1, 0.1},
                                 0.9173553719,
                                 -0.3531828200,
                                 0.1137252380},
                      SanityCase{"Newmark",
                                 {"", Method::kNewmark, 100, 10, 0.1, 0, 0},
                                 0.9512195122,
                                 -0.9999860664,
                                 0.9999442660},
                      SanityCase{"VariationalImplicit",
                                 {"", Method::kVariationalImplicit, 100, 1, 0.01, 0, 0},
                                 0.9995012469,
                                 0.8156430849,
                                 0.9423217825}),
    [](const ::testing::TestParamInfo<SanityCase>& param_info) {
      return std::string(param_info.param.name);
    });

}  // namespace
}  // namespace fluxion
