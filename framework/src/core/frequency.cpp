#include "fluxion/frequency.h"

#include <cmath>
#include <cstdint>
#include <memory>

namespace fluxion {

FrequencyEstimate EstimateHighestFrequency(const MechanicalSystem& system, const State& state,
                                           int max_iterations, double tolerance) {
  FrequencyEstimate estimate;
  const Index n = system.num_dofs();
  if (n == 0) return estimate;

  // D = M^{−1/2} on the free DOFs with mass; 0 where a DOF cannot move (fixed: projected away
  // below) or has no mass (it carries no inertia: it takes no part in the vibration).
  // K·w by products (MechanicalSystem::CreateTangentOperator): the framework's system evaluates
  // them spring by spring and never builds a sparse pattern for this check.
  std::unique_ptr<TangentOperator> tangent = system.CreateTangentOperator();
  tangent->LinearizeStiffness(state);
  Vector scale = Vector::Zero(n);
  if (system.is_mass_diagonal()) {
    const Vector& inverse = system.inverse_mass_diagonal();
    for (Index i = 0; i < n; ++i) scale[i] = inverse[i] > 0.0 ? std::sqrt(inverse[i]) : 0.0;
  } else {
    Vector lumped(n);
    tangent->Multiply(1.0, 0.0, 0.0, Vector::Ones(n), lumped);  // M·1: the row sums
    for (Index i = 0; i < n; ++i) scale[i] = lumped[i] > 0.0 ? 1.0 / std::sqrt(lumped[i]) : 0.0;
  }

  // A fixed pseudo-random start (a linear congruential sequence), so that every mode is excited
  // and the estimate does not depend on anything but the system and the state.
  Vector z(n);
  std::uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (Index i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    z[i] = static_cast<double>(seed >> 11) * 0x1p-53 - 0.5;
  }
  // out = D·P·K·P·D·in (the point projections P are orthogonal: Pᵀ = P).
  const auto apply = [&](const Vector& in, Vector& out) {
    Vector w = in.cwiseProduct(scale);
    system.ProjectResponse(w);
    tangent->Multiply(0.0, 0.0, 1.0, w, out);
    system.ProjectResponse(out);
    out = out.cwiseProduct(scale);
  };
  double norm = z.norm();
  if (norm == 0.0) return estimate;
  z /= norm;

  Vector product(n);
  double lambda = 0.0;
  for (int k = 1; k <= max_iterations; ++k) {
    apply(z, product);
    const double quotient = z.dot(product);  // Rayleigh quotient, ‖z‖ = 1
    norm = product.norm();
    estimate.iterations = k;
    if (!std::isfinite(norm) || norm == 0.0) break;  // no stiffness on any free DOF
    const double change = std::abs(quotient - lambda);
    lambda = quotient;
    z = product / norm;
    if (k > 5 && change <= tolerance * std::abs(lambda)) {
      estimate.converged = true;
      break;
    }
  }
  // A negative λ (a softening, compressed structure) is a static instability, not a vibration.
  estimate.omega_max = lambda > 0.0 ? std::sqrt(lambda) : 0.0;
  if (estimate.omega_max > 0.0) {
    // The mode's damping wᵀ·B·w, B = −∂f/∂v, by a central difference of the force in v along
    // the mode w = P·D·z: exact up to round-off for dashpots (linear in v), and it sees every
    // damping force, also those whose B is not assembled (SOFA's spring dashpots are explicit
    // only: their B is not part of the system).
    Vector w = z.cwiseProduct(scale);
    system.ProjectResponse(w);
    const double largest = w.cwiseAbs().maxCoeff();
    if (largest > 0.0) {
      const double step = 1e-3 * (1.0 + state.v.cwiseAbs().maxCoeff()) / largest;
      State probe = state;
      Vector plus(n), minus(n);
      probe.v = state.v + step * w;
      system.ComputeForce(probe, plus);
      probe.v = state.v - step * w;
      system.ComputeForce(probe, minus);
      const double mu = -w.dot(plus - minus) / (2.0 * step);
      if (std::isfinite(mu) && mu > 0.0) estimate.damping_ratio = mu / (2.0 * estimate.omega_max);
    }
  }
  return estimate;
}

}  // namespace fluxion
