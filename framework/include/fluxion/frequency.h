// The highest natural frequency of a mechanical system, for the stability check of explicit
// solvers (scene-runner warns before the first step when ω_max·dt exceeds the solver's limit).
#pragma once

#include "fluxion/export.h"
#include "fluxion/mechanical_system.h"
#include "fluxion/state.h"

namespace fluxion {

/// An estimate of ω_max = √λ_max(M⁻¹K) at one state.
struct FrequencyEstimate {
  double omega_max = 0.0;  ///< rad/s; 0 when nothing is stiff (no free DOF with mass and stiffness)
  int iterations = 0;      ///< power iterations done
  bool converged = false;  ///< λ changed by less than the tolerance in the last iteration
  /// ζ of that mode: its damping Rayleigh quotient over 2ω_max, zᵀ·D·B·D·z/(2ω_max) with
  /// B = −∂f/∂v (spring dashpots, from the forces; 0 without damping). With it the mode obeys
  /// q̈ + 2ζω_max·q̇ + ω_max²·q = 0 (exactly when B is a multiple of K, as for springs whose
  /// damping scales like their stiffness).
  double damping_ratio = 0.0;
  /// The part of damping_ratio that the system's damping matrix B holds (zᵀ·D·B·D·z/(2ω_max):
  /// exact dashpot Jacobians, implicit damping fields), which implicit solvers treat implicitly;
  /// the rest (SOFA's spring dashpots) is explicit in every solver.
  double implicit_damping_ratio = 0.0;
};

/// Estimates the highest natural frequency of the linearised system M·ẍ + K·x = 0 at `state`,
/// with the projective constraints applied (fixed DOFs do not vibrate), and that mode's damping.
///
/// Why: an explicit method is stable on an undamped mode of frequency ω only while ω·h stays
/// below the method's limit Φ_max (2 for symplectic Euler and Störmer–Verlet, 2√2 for RK4 — a
/// property of the method on the oscillator ẍ = −ω²x, measured by fluxion-analyze); the stiffest
/// mode of the scene sets the largest stable h = Φ_max/ω_max.
///
/// How: power iteration on the symmetric S = D·P·K·P·D, D = M^{−1/2} (P the projection of the
/// constraints), which has the eigenvalues of M⁻¹K; λ is the Rayleigh quotient zᵀSz, which
/// approaches λ_max from below (Golub & Van Loan, "Matrix Computations", 4th ed., §8.2.1). The
/// start vector is a fixed pseudo-random one (the result is deterministic). A mass that is not
/// diagonal is replaced by its row sums (the lumped mass: ω_max of a consistent mass is higher,
/// by up to √3 for linear elements). K·w comes from the system's tangent operator with
/// TangentEvaluation::kRecomputed (springs store nothing; each product evaluates them from the
/// state), and the iteration holds two vectors of the system's size (four while the damping is
/// probed). Allocates: call it before stepping, not in a step.
FLUXION_API FrequencyEstimate EstimateHighestFrequency(const MechanicalSystem& system,
                                                       const State& state, int max_iterations = 100,
                                                       double tolerance = 1e-4);

}  // namespace fluxion
