#include "stability_check.h"

#include <cmath>
#include <cstdio>
#include <exception>

#include "analysis.h"
#include "fluxion/frequency.h"
#include "fluxion/log.h"
#include "fluxion/text.h"

namespace fluxion::runner {
namespace {

// Growth of a mode over a run of physical length `duration` at Φ and ζ: r(Φ, ζ)^(duration·ω/Φ),
// r the spectral radius of one step; +∞ when the step is rejected (it diverged).
double Growth(const analysis::Analyzer& analyzer, double phi, double zeta, double omega,
              double duration) {
  const analysis::TransitionPoint point = analyzer.Measure(phi, zeta);
  if (!point.ok || !std::isfinite(point.spectral_radius)) return INFINITY;
  if (point.spectral_radius <= 1.0) return 1.0;
  const double steps = std::ceil(duration * omega / phi - 1e-9);
  return std::exp(steps * std::log(point.spectral_radius));
}

// `value` rounded down to `digits` significant digits (0.006372, 2 → 0.0063).
double RoundDown(double value, int digits) {
  const double unit = std::pow(10.0, std::floor(std::log10(value)) - (digits - 1));
  return std::floor(value / unit) * unit;
}

// `value` with three significant digits, for messages.
std::string Short(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

}  // namespace

std::string StabilityVerdict::Comparison() const {
  std::string text = "ω_max·dt = " + Short(phi);
  if (limit > 0.0)
    text += (phi > limit ? " > " : " ≤ ") + Short(limit) + ", " + solver + "'s stability limit";
  else
    text += ": " + solver + " amplifies this mode at any dt";
  text += " on the stiffest mode (ω_max ≈ " + Short(omega_max) + " rad/s";
  if (zeta > 0.0) text += ", damping ratio ζ ≈ " + Short(zeta);
  return text + ", from M⁻¹K at the start)";
}

std::string StabilityVerdict::StableDtText() const {
  return stable_dt > 0.0 ? FormatReal(RoundDown(stable_dt, 3)) : std::string("0");
}

std::vector<StabilityVerdict> CheckStability(const Host& host, const Simulation& simulation,
                                             long steps) {
  std::vector<StabilityVerdict> verdicts;
  if (steps <= 0) return verdicts;
  const double dt = simulation.dt();
  for (const SolverNode& node : simulation.solver_nodes()) {
    try {
      const analysis::Analyzer analyzer(host, {node.solver_type, node.solver_parameters});
      if (!(analyzer.traits().flags & kExplicitMethod)) continue;
      const FrequencyEstimate estimate = EstimateHighestFrequency(*node.system, node.state);
      if (!(estimate.omega_max > 0.0) || !std::isfinite(estimate.omega_max)) continue;
      StabilityVerdict verdict;
      verdict.node_path = node.node_path;
      verdict.solver = node.solver_type;
      verdict.dt = dt;
      verdict.omega_max = estimate.omega_max;
      verdict.zeta = estimate.damping_ratio;
      verdict.phi = estimate.omega_max * dt;
      const double duration = static_cast<double>(steps) * dt;
      const auto growth = [&](double phi) {
        return Growth(analyzer, phi, verdict.zeta, verdict.omega_max, duration);
      };
      verdict.growth = growth(verdict.phi);
      verdict.unstable = !(verdict.growth <= kAllowedGrowth);
      if (verdict.unstable) {
        // The largest Φ below the scene's that keeps the growth allowed, by bisection (the
        // growth rises with Φ for the explicit methods Fluxion ships; for a method with a
        // stable interval this finds its end, e.g. 2 for undamped symplectic Euler).
        double low = 0.0, high = verdict.phi;
        for (int k = 0; k < 50; ++k) {
          const double middle = 0.5 * (low + high);
          (growth(middle) <= kAllowedGrowth ? low : high) = middle;
        }
        verdict.limit = low;
        verdict.stable_dt = low / verdict.omega_max;
        // A margin for the estimate (power iteration approaches ω_max from below) and for the
        // stiffening of stretched springs during the run.
        if (verdict.stable_dt > 0.0) verdict.advised_dt = RoundDown(0.8 * verdict.stable_dt, 2);
      }
      verdicts.push_back(std::move(verdict));
    } catch (const std::exception& error) {
      LogInfo(node.node_path + ": no stability check (" + error.what() + ")");
    }
  }
  return verdicts;
}

}  // namespace fluxion::runner
