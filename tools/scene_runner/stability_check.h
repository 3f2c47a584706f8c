// The stability check, before the first step: is the scene's dt beyond what the solver can
// integrate on the scene's stiffest mode (for an implicit solver, with the springs' dashpots it
// integrates explicitly), and which dt would work?
#pragma once

#include <string>
#include <vector>

#include "fluxion/host.h"
#include "fluxion/simulation.h"

namespace fluxion::runner {

/// The verdict for one solver node.
struct StabilityVerdict {
  std::string node_path;
  std::string solver;
  double dt = 0.0;
  double omega_max = 0.0;  ///< rad/s, from M⁻¹K at the initial state (EstimateHighestFrequency)
  double zeta = 0.0;       ///< that mode's damping ratio
  double implicit_zeta = 0.0;  ///< the part of ζ in the damping matrix B (FrequencyEstimate)
  bool explicit_method = true;
  /// (ζ − implicit_zeta)/ζ: the part an implicit solver integrates explicitly (0 without damping).
  double explicit_damping_fraction = 0.0;
  double phi = 0.0;  ///< ω_max·dt
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

/// The power iterations the check spends on ω_max: each costs about one force evaluation (a
/// product with K evaluated spring by spring), so the check costs at most the time of
/// kStabilityIterations + 2 evaluations, a few steps of an explicit solver with its output,
/// whatever the scene's size (up to 100 iterations took 11 s of a 17 s three-step run of a 1024²
/// cloth). The Rayleigh quotient approaches ω_max² from below: after 10 iterations from the fixed
/// start, ω_max is 0.7–3.6% low on the gallery's spring scenes and a 512² cloth (against 1000
/// iterations), which the advised dt's 20% margin covers.
inline constexpr int kStabilityIterations = 10;

/// `text` on one line: its line breaks (a SceneError's diagnostics) become "; ".
std::string OneLine(std::string text);

/// Checks every solver node, for a run of `steps` steps, with the solver and parameters the node
/// has (after --solver, the replacement's): the stiffest mode ω_max and its damping ratio ζ
/// (power iteration on M⁻¹K, fluxion/frequency.h) stepped with the node's own solver and
/// parameters on the oscillator q̈ + 2ζω_max·q̇ + ω_max²·q = 0 at Φ = ω_max·dt (fluxion-analyze's
/// measurement: the spectral radius r of one step), its damping split into the part in B and
/// the part no solver treats implicitly (SOFA's spring dashpots). Why measured rather than a
/// table of limits: it holds for any solver plugin and its parameters (EulerExplicitSolver
/// symplectic=0 has no stable Φ at all), and it finds the limit an implicit solver has with
/// explicit dashpots (backward Euler: none of its stiff modes is bounded once kd/ks exceeds dt
/// plus its rayleighStiffness). Nodes whose check cannot run (no stiffness, a solver the analyzer
/// cannot rebuild) are left out, and say why on one info line; the others report what was
/// measured and what the check cost (seconds, force evaluations, steps of an explicit solver) at
/// info level.
std::vector<StabilityVerdict> CheckStability(const Host& host, const Simulation& simulation,
                                             long steps);

}  // namespace fluxion::runner
