#include "stability_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>

#include "analysis.h"
#include "fluxion/frequency.h"
#include "fluxion/log.h"
#include "fluxion/text.h"
#include "message_numbers.h"

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

// " symplectic=\"0\" …": the node's solver parameters as XML attributes.
std::string AttributesText(const SolverNode& node) {
  std::string text;
  for (const auto& [name, value] : node.solver_parameters)
    text += " " + name + "=\"" + value + "\"";
  return text;
}

// Seconds since `start`.
double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// " (≈ 12 force evaluations, the time of ≈ 3 steps)": the check's cost against one force
// evaluation of the node's system (timed once here) and, for an explicit solver, one step of
// `evaluations` of them (an implicit step costs its linear solve besides).
std::string CostText(const SolverNode& node, bool explicit_method, int evaluations,
                     double seconds) {
  Vector force(node.system->num_dofs());
  const auto start = std::chrono::steady_clock::now();
  node.system->ComputeForce(node.state, force);
  const double evaluation = SecondsSince(start);
  if (!(evaluation > 0.0)) return {};
  std::string text = " (≈ " + ShortNumber(seconds / evaluation) + " force evaluations";
  if (explicit_method)
    text += ", the time of ≈ " + ShortNumber(seconds / (std::max(1, evaluations) * evaluation)) +
            " steps";
  return text + ")";
}

}  // namespace

std::string OneLine(std::string text) {
  for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at))
    text.replace(at, 1, "; ");
  return text;
}

std::string StabilityVerdict::Comparison() const {
  std::string text = "ω_max·dt = " + ShortNumber(phi);
  if (limit > 0.0)
    text +=
        (phi > limit ? " > " : " ≤ ") + ShortNumber(limit) + ", " + solver + "'s stability limit";
  else
    text += ": " + solver + " amplifies this mode at any dt";
  text += " on the stiffest mode (ω_max ≈ " + ShortNumber(omega_max) + " rad/s";
  if (zeta > 0.0) text += ", damping ratio ζ ≈ " + ShortNumber(zeta);
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
      const auto start = std::chrono::steady_clock::now();
      const SolverChoice solver{node.solver_type, node.solver_parameters};
      const bool explicit_method =
          (analysis::Analyzer(host, solver).traits().flags & kExplicitMethod) != 0;
      const FrequencyEstimate estimate =
          EstimateHighestFrequency(*node.system, node.state, kStabilityIterations);
      if (!(estimate.omega_max > 0.0) || !std::isfinite(estimate.omega_max)) {
        LogInfo(node.node_path + ": no stability check (no stiffness on a free DOF)");
        continue;
      }
      // The oscillator at the mode's ω, so that dimensional parameters (rayleighMass [1/s])
      // act as in the scene, and with the mode's damping split as the solver sees it: an
      // implicit solver integrates SOFA's spring dashpots explicitly (no B), which bounds its
      // stable dt too.
      analysis::AnalyzerOptions at_mode;
      at_mode.omega = estimate.omega_max;
      if (estimate.damping_ratio > 0.0)
        at_mode.explicit_damping_fraction =
            (estimate.damping_ratio - estimate.implicit_damping_ratio) / estimate.damping_ratio;
      const analysis::Analyzer analyzer(host, solver, at_mode);
      StabilityVerdict verdict;
      verdict.explicit_method = explicit_method;
      verdict.explicit_damping_fraction = at_mode.explicit_damping_fraction;
      verdict.node_path = node.node_path;
      verdict.solver = node.solver_type;
      verdict.dt = dt;
      verdict.omega_max = estimate.omega_max;
      verdict.zeta = estimate.damping_ratio;
      verdict.implicit_zeta = estimate.implicit_damping_ratio;
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
        for (int k = 0; k < 30; ++k) {  // to 1e-9 of Φ: each try loads the oscillator
          const double middle = 0.5 * (low + high);
          (growth(middle) <= kAllowedGrowth ? low : high) = middle;
        }
        verdict.limit = low;
        verdict.stable_dt = low / verdict.omega_max;
        // A margin for the estimate (power iteration approaches ω_max from below) and for the
        // stiffening of stretched springs during the run.
        if (verdict.stable_dt > 0.0) verdict.advised_dt = RoundDown(0.8 * verdict.stable_dt, 2);
      }
      const double seconds = SecondsSince(start);
      LogInfo(
          node.node_path + ": stability check of " + verdict.solver + " with" +
          (node.solver_parameters.empty() ? std::string(" its defaults") : AttributesText(node)) +
          ": ω_max ≈ " + ShortNumber(verdict.omega_max) + " rad/s (" +
          std::to_string(estimate.iterations) + " power iterations" +
          (estimate.converged ? "" : ", not converged") + "), ζ ≈ " + ShortNumber(verdict.zeta) +
          ", ω_max·dt = " + ShortNumber(verdict.phi) + ": " +
          (verdict.unstable ? "unstable" : "stable") + " over " + std::to_string(steps) +
          (steps == 1 ? " step" : " steps") + "; it took " + ShortNumber(seconds) + " s" +
          CostText(node, explicit_method, analyzer.traits().force_evaluations, seconds));
      verdicts.push_back(std::move(verdict));
    } catch (const std::exception& error) {
      LogInfo(node.node_path + ": no stability check (" + OneLine(error.what()) + ")");
    }
  }
  return verdicts;
}

}  // namespace fluxion::runner
