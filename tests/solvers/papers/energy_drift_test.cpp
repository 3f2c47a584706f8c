// Energy of the undamped oscillator (m = 1, k = 1) over 10⁵ steps: symplectic methods keep it
// bounded with no trend (Sachs; Hoffmann: False Euler "always a harmonic oscillation"); the
// trapezoidal rule conserves it exactly on a linear system (Fazarinc's acceptance test); the
// Eulers and Heuns follow their closed-form spectral radii (Hoffmann §§5, 9–11).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "oscillator.h"

namespace fluxion {
namespace {

using papers::OscillatorScene;
using papers::SolverUnderTest;

constexpr int kSteps = 100000;

// E_n/E_0 for n = 0 … kSteps, from (x, v) = (1, 0).
std::vector<double> EnergyRatios(const SolverUnderTest& solver, double phi) {
  Simulation simulation = testing::LoadScene(OscillatorScene(solver, phi, 1.0, 0.0));
  const double e0 = simulation.KineticEnergy() + simulation.PotentialEnergy();
  std::vector<double> ratios{1.0};
  ratios.reserve(kSteps + 1);
  for (int n = 0; n < kSteps; ++n) {
    simulation.Step();
    ratios.push_back((simulation.KineticEnergy() + simulation.PotentialEnergy()) / e0);
  }
  return ratios;
}

double Mean(const std::vector<double>& values, std::size_t begin, std::size_t end) {
  double sum = 0;
  for (std::size_t i = begin; i < end; ++i) sum += values[i];
  return sum / static_cast<double>(end - begin);
}

class PapersEnergy : public testing::QuietTest,
                     public ::testing::WithParamInterface<SolverUnderTest> {};

TEST_P(PapersEnergy, SymplecticMethodsStayBoundedWithoutTrend) {
  // Φ = 0.1: one numerical period is ≈ 63 steps, the run ≈ 1600 periods.
  constexpr double kPhi = 0.1;
  const std::vector<double> e = EnergyRatios(GetParam(), kPhi);
  // Bounded: a symplectic map conserves a modified energy within O(Φ) of E (False Euler:
  // x² + v² − Φ·x·v), so |E/E₀ − 1| ≤ Φ/(1 − Φ/2) < 2Φ at every step.
  double worst = 0;
  for (double ratio : e) worst = std::max(worst, std::abs(ratio - 1));
  EXPECT_LT(worst, 2 * kPhi) << GetParam().element;
  // No trend: the means over the first and the last 10⁴ steps (≈ 160 periods each) agree to
  // 1e-3. Averaging an oscillation of amplitude ≤ Φ over ≥ 160 periods leaves ≲ Φ/(π·160) ≈ 2e-4;
  // a drift of even 1e-8 per step would move the mean by 1e-3 over the run.
  const double first = Mean(e, 0, 10000), last = Mean(e, e.size() - 10000, e.size());
  EXPECT_NEAR(last, first, 1e-3) << GetParam().element;
}

INSTANTIATE_TEST_SUITE_P(
    Symplectic, PapersEnergy,
    ::testing::Values(SolverUnderTest{"<SymplecticEulerSolver/>"},
                      SolverUnderTest{"<VelocityVerletSolver/>"},
                      SolverUnderTest{"<PositionVerletSolver/>"},
                      SolverUnderTest{"<ForestRuthSolver/>"},
                      SolverUnderTest{"<ModifiedEulerSolver/>"},
                      SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="euler"/>)"},
                      SolverUnderTest{"<TrapezoidalSolver/>", true}),
    [](const ::testing::TestParamInfo<SolverUnderTest>& case_info) {
      return papers::TestName(case_info.param);
    });

class PapersEnergyClosedForms : public testing::QuietTest {};

TEST_F(PapersEnergyClosedForms, TrapezoidalConservesTheEnergyOfALinearSystem) {
  // z = (1 + jΦ/2)/(1 − jΦ/2) is a rotation in (x, v) when ω = 1: E is invariant; only round-off
  // (≲ 1e-16 per step, 1e5 steps) moves it.
  const std::vector<double> e = EnergyRatios({"<TrapezoidalSolver/>", true}, 0.1);
  for (std::size_t n = 0; n < e.size(); n += 997) ASSERT_NEAR(e[n], 1.0, 1e-9) << "step " << n;
}

TEST_F(PapersEnergyClosedForms, StandardEulerAndHeunGrowAsTheirSpectralRadius) {
  // Standard Euler's and Standard Heun's (and the midpoint rule's) matrices are scaled rotations
  // in (x, v) at ω = 1, so E_n = r^{2n}·E_0 exactly: r² = 1 + Φ² (Hoffmann §5; Φ = 0.001 keeps
  // it finite over 10⁵ steps), r² = 1 + Φ⁴/4 (§9). Round-off: ≲ 1e-16 per step, relative.
  struct Case {
    SolverUnderTest solver;
    double phi, r2;
  };
  for (const Case& c : {Case{{R"(<EulerExplicitSolver symplectic="0"/>)"}, 0.001, 1 + 1e-6},
                        Case{{"<StandardHeunSolver/>"}, 0.1, 1 + 1e-4 / 4},
                        Case{{"<MidpointSolver/>"}, 0.1, 1 + 1e-4 / 4}}) {
    const std::vector<double> e = EnergyRatios(c.solver, c.phi);
    const double expected = std::pow(c.r2, kSteps);
    EXPECT_GT(expected, 1.1) << c.solver.element;  // the growth is a clear trend
    EXPECT_NEAR(e.back() / expected, 1.0, 1e-8) << c.solver.element;
  }
}

TEST_F(PapersEnergyClosedForms, FalseAndSemiFalseHeunLoseEnergy) {
  // r² = 1 − Φ²/2 (False Heun) and 1 − Φ⁴/4 (Semi-False Heun) per step at Φ = 0.1: after n steps
  // the energy is down by r^{2n}, up to the bounded factor of the non-orthogonal eigenvectors
  // (within a factor 2 here, both matrices being close to rotations). False Heun is checked at
  // n = 2000 (E ≈ 4e-5), before its amplitude reaches the spring's 1e-9 m dead zone.
  struct Case {
    SolverUnderTest solver;
    double r2;
    int n;
  };
  for (const Case& c : {Case{{"<FalseHeunSolver/>"}, 1 - 0.01 / 2, 2000},
                        Case{{"<SemiFalseHeunSolver/>"}, 1 - 1e-4 / 4, kSteps}}) {
    const std::vector<double> e = EnergyRatios(c.solver, 0.1);
    const double expected = std::pow(c.r2, c.n);
    EXPECT_GT(e[c.n], expected / 2) << c.solver.element;
    EXPECT_LT(e[c.n], expected * 2) << c.solver.element;
  }
}

}  // namespace
}  // namespace fluxion
