#include "fluxion/frequency.h"

#include <algorithm>
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
  // them spring by spring from the state, storing no tangent and building no sparse pattern.
  std::unique_ptr<TangentOperator> tangent =
      system.CreateTangentOperator(TangentEvaluation::kRecomputed);
  tangent->LinearizeStiffness(state);
  // A diagonal mass gives D from its inverse entry by entry; another mass is lumped (row sums).
  Vector lumped_scale;
  if (!system.is_mass_diagonal()) {
    lumped_scale.resize(n);
    tangent->Multiply(1.0, 0.0, 0.0, Vector::Ones(n), lumped_scale);  // M·1: the row sums
    for (Index i = 0; i < n; ++i)
      lumped_scale[i] = lumped_scale[i] > 0.0 ? 1.0 / std::sqrt(lumped_scale[i]) : 0.0;
  }
  const Vector& inverse = system.inverse_mass_diagonal();
  // v ← D·v.
  const auto scale = [&](Vector& v) {
    if (lumped_scale.size() == n) {
      v = v.cwiseProduct(lumped_scale);
      return;
    }
    for (Index i = 0; i < n; ++i) v[i] *= inverse[i] > 0.0 ? std::sqrt(inverse[i]) : 0.0;
  };

  // A fixed pseudo-random start (a linear congruential sequence), so that every mode is excited
  // and the estimate does not depend on anything but the system and the state.
  Vector z(n);
  std::uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (Index i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    z[i] = static_cast<double>(seed >> 11) * 0x1p-53 - 0.5;
  }
  double norm = z.norm();
  if (norm == 0.0) return estimate;
  z /= norm;

  // Each iteration: w = P·D·z (in z's place: z is not needed again), K·w, the Rayleigh quotient
  // zᵀ·S·z = wᵀ·K·w (‖z‖ = 1; P and D are symmetric), then S·z = D·P·K·w, normalised, is the
  // next z. Two vectors of the system's size.
  Vector product(n);
  double lambda = 0.0;
  for (int k = 1; k <= max_iterations; ++k) {
    scale(z);
    system.ProjectResponse(z);
    tangent->Multiply(0.0, 0.0, 1.0, z, product);
    const double quotient = z.dot(product);
    system.ProjectResponse(product);
    scale(product);
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
    Vector& w = z;
    scale(w);
    system.ProjectResponse(w);
    const double largest = w.cwiseAbs().maxCoeff();
    if (largest > 0.0) {
      const double step = 1e-3 * (1.0 + state.v.cwiseAbs().maxCoeff()) / largest;
      // wᵀ·f₊ is summed before f₋ is evaluated into the same vector: the probe (x and v) and one
      // force vector beside w. The sums run in extended precision, as their difference is small
      // beside them when other forces (gravity) are large.
      State probe = state;
      Vector& force = product;
      const auto weighted = [&] {
        long double sum = 0.0L;
        for (Index i = 0; i < n; ++i) sum += static_cast<long double>(w[i]) * force[i];
        return sum;
      };
      probe.v += step * w;
      system.ComputeForce(probe, force);
      const long double plus = weighted();
      probe.v = state.v - step * w;
      system.ComputeForce(probe, force);
      const auto difference = static_cast<double>(plus - weighted());  // wᵀ·(f₊ − f₋)
      const double mu = -difference / (2.0 * step);
      if (std::isfinite(mu) && mu > 0.0) estimate.damping_ratio = mu / (2.0 * estimate.omega_max);
      // The part in B, wᵀ·B·w, by one product with the damping matrix.
      if (system.has_damping_matrix()) {
        tangent->LinearizeDamping(state);
        tangent->Multiply(0.0, 1.0, 0.0, w, force);
        const double implicit = w.dot(force);
        if (std::isfinite(implicit) && implicit > 0.0)
          estimate.implicit_damping_ratio =
              std::min(implicit / (2.0 * estimate.omega_max), estimate.damping_ratio);
      }
    }
  }
  return estimate;
}

}  // namespace fluxion
