// EstimateHighestFrequency (fluxion/frequency.h) against the closed-form spectrum of spring chains.
#include "fluxion/frequency.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "fluxion/simulation.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

// A straight chain of points 0…n along x, one unit apart, springs k (dashpots `damping`) at rest
// length between neighbours, every point of mass m; point 0 fixed when `fixed_end`.
std::string ChainScene(int n, double k, double m, bool fixed_end, double damping = 0.0) {
  std::string position, springs;
  for (int i = 0; i <= n; ++i) position += std::to_string(i) + " 0 0  ";
  for (int i = 0; i < n; ++i)
    springs += std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(k) + " " +
               std::to_string(damping) + " 1  ";
  return "<Node name=\"root\" dt=\"0.001\" gravity=\"0 0 0\"><EulerExplicitSolver/>"
         "<MechanicalObject position=\"" +
         position + "\"/><UniformMass vertexMass=\"" + std::to_string(m) + "\"/>" +
         (fixed_end ? "<FixedProjectiveConstraint indices=\"0\"/>" : "") +
         "<SpringForceField spring=\"" + springs + "\"/></Node>";
}

FrequencyEstimate Estimate(const Simulation& simulation) {
  const SolverNode& node = simulation.solver_nodes().front();
  return EstimateHighestFrequency(*node.system, node.state, 1000, 1e-12);
}

TEST(EstimateHighestFrequency, TwoFreeMassesOnOneSpring) {
  // Relative motion of two masses m on a spring k: ω² = 2k/m (the rigid motion has ω = 0).
  const FrequencyEstimate estimate = Estimate(testing::LoadScene(ChainScene(1, 100.0, 0.5, false)));
  EXPECT_TRUE(estimate.converged);
  EXPECT_NEAR(estimate.omega_max, std::sqrt(2.0 * 100.0 / 0.5), 1e-9);
  EXPECT_EQ(estimate.damping_ratio, 0.0);
}

TEST(EstimateHighestFrequency, DampingRatioOfTheModeFromTheDashpot) {
  // The relative coordinate q of two masses m on a spring k with a dashpot c has the reduced mass
  // m/2: q̈ + (2c/m)·q̇ + (2k/m)·q = 0, so 2ζω = 2c/m, ζ = c/(m·ω).
  const double k = 100.0, m = 0.5, c = 1.5;
  const FrequencyEstimate estimate = Estimate(testing::LoadScene(ChainScene(1, k, m, false, c)));
  const double omega = std::sqrt(2.0 * k / m);
  EXPECT_NEAR(estimate.omega_max, omega, 1e-9);
  EXPECT_NEAR(estimate.damping_ratio, c / (m * omega), 1e-9);
}

TEST(EstimateHighestFrequency, FixedFreeChainMatchesItsClosedFormSpectrum) {
  // n free masses, the first tied to a fixed point: the eigenvalues of M⁻¹K are
  // λ_j = (4k/m)·sin²((2j − 1)π / (2(2n + 1))), j = 1…n (the fixed–free discrete string).
  const int n = 6;
  const double k = 250.0, m = 0.2;
  const double lambda_max =
      4.0 * k / m * std::pow(std::sin((2 * n - 1) * std::numbers::pi / (2.0 * (2 * n + 1))), 2);
  const FrequencyEstimate estimate = Estimate(testing::LoadScene(ChainScene(n, k, m, true)));
  EXPECT_TRUE(estimate.converged);
  EXPECT_NEAR(estimate.omega_max, std::sqrt(lambda_max), 1e-6 * std::sqrt(lambda_max));
}

TEST(EstimateHighestFrequency, NothingStiffGivesZero) {
  // A lone point: no spring, no frequency.
  const FrequencyEstimate estimate = Estimate(testing::LoadScene(
      "<Node name=\"root\" dt=\"0.01\"><EulerExplicitSolver/>"
      "<MechanicalObject position=\"0 0 0\"/><UniformMass vertexMass=\"1\"/></Node>"));
  EXPECT_EQ(estimate.omega_max, 0.0);
}

}  // namespace
}  // namespace fluxion
