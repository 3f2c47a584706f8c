// The stability check of explicit solvers, before the first step: is the scene's dt beyond what
// the solver can integrate on the scene's stiffest mode, and which dt would work?
#pragma once

#include <string>
#include <vector>

#include "fluxion/host.h"
#include "fluxion/simulation.h"

namespace fluxion::runner {

/// The verdict for one solver node with an explicit ODE solver.
struct StabilityVerdict {
  std::string node_path;
  std::string solver;
  double dt = 0.0;
  double omega_max = 0.0;  ///< rad/s, from M⁻¹K at the initial state (EstimateHighestFrequency)
  double zeta = 0.0;       ///< that mode's damping ratio
  double phi = 0.0;        ///< ω_max·dt
  /// Growth of the stiffest mode over the whole run, r(Φ, ζ)^steps.
  double growth = 1.0;
  bool unstable = false;  ///< growth > kAllowedGrowth
  /// When unstable: the largest Φ (and dt = Φ/ω_max) keeping the growth ≤ kAllowedGrowth; for a
  /// method with a stable interval and no damping that is its stability limit (2 for symplectic
  /// Euler), damping lowers it for explicit methods. 0 when no Φ > 0 is stable.
  double limit = 0.0;
  double stable_dt = 0.0;
  double advised_dt = 0.0;  ///< stable_dt with a margin, rounded down to two digits

  /// "ω_max·dt = 3.16 > 2 (…)": the comparison, for warnings and divergence errors.
  std::string Comparison() const;
  /// stable_dt rounded down to three significant digits.
  std::string StableDtText() const;
};

/// The largest amplification of an undamped mode over a run that still counts as stable.
inline constexpr double kAllowedGrowth = 10.0;

/// Checks every solver node whose ODE solver is explicit, for a run of `steps` steps: the
/// stiffest mode ω_max and its damping ratio ζ (power iteration on M⁻¹K, fluxion/frequency.h)
/// stepped with the node's own solver and parameters on the oscillator q̈ + 2ζω_max·q̇ +
/// ω_max²·q = 0 at Φ = ω_max·dt (fluxion-analyze's measurement: the spectral radius r of one
/// step). Why measured rather than a table of limits:
/// it holds for any solver plugin and its parameters (EulerExplicitSolver symplectic=0 has no
/// stable Φ at all). Nodes whose check cannot run (no stiffness, a solver the analyzer cannot
/// rebuild) are left out.
std::vector<StabilityVerdict> CheckStability(const Host& host, const Simulation& simulation,
                                             long steps);

}  // namespace fluxion::runner
