#include "failure_advice.h"

#include <cmath>
#include <exception>
#include <vector>

#include "analysis.h"
#include "fluxion/log.h"
#include "fluxion/text.h"
#include "message_numbers.h"
#include "stability_check.h"

namespace fluxion::runner {
namespace {

// Power iterations for a mode estimated at a failure: more than the stability check spends, as
// a failure happens once (ω_max 0.1–1.7% low on the gallery after 20, against 1000).
constexpr int kModeIterations = 30;
// dt is tried down to dt/2^kHalvings.
constexpr int kHalvings = 10;

// The solver's parameters with `name` set to `value` (replaced or added).
SolverChoice With(SolverChoice choice, const std::string& name, double value) {
  std::erase_if(choice.parameters, [&](const auto& parameter) { return parameter.first == name; });
  choice.parameters.emplace_back(name, FormatReal(value));
  return choice;
}

// The solver's value of a real field: given, else the declared default.
double RealParameter(const SolverChoice& choice, const ComponentInfo& entry,
                     const std::string& name) {
  for (const auto& [key, value] : choice.parameters)
    if (key == name) return std::stod(value);
  return std::stod(entry.spec.FindField(name)->default_value);
}

// The measurements of one failing solver on its stiffest mode.
class ModeProbe {
 public:
  ModeProbe(const Host& host, SolverChoice choice, const FailingMode& mode, double dt)
      : host_(host),
        choice_(std::move(choice)),
        mode_(mode),
        phi_(mode.omega * dt),
        explicit_fraction_(mode.zeta > 0.0 ? (mode.zeta - mode.implicit_zeta) / mode.zeta : 0.0),
        analyzer_(host, choice_, Options(explicit_fraction_, mode.omega)) {}

  const analysis::Analyzer& analyzer() const { return analyzer_; }
  double phi() const { return phi_; }
  double explicit_fraction() const { return explicit_fraction_; }

  // r of one step of `analyzer` at Φ and ζ; +∞ when the step is rejected.
  static double Radius(const analysis::Analyzer& analyzer, double phi, double zeta) {
    const analysis::TransitionPoint point = analyzer.Measure(phi, zeta);
    return point.ok && std::isfinite(point.spectral_radius) ? point.spectral_radius : INFINITY;
  }
  bool Stable(double radius) const { return radius <= 1.0 + analyzer_.resolution(); }
  double Radius(double phi, double zeta) const { return Radius(analyzer_, phi, zeta); }

  // The largest Φ ≤ phi_ at which the mode is not amplified, found below Φ/2^k for k ≤
  // kHalvings and refined by bisection; 0 when none.
  double LargestStablePhi() const {
    double unstable = phi_;
    for (int k = 1; k <= kHalvings; ++k) {
      const double trial = phi_ / std::ldexp(1.0, k);
      if (!Stable(Radius(trial, mode_.zeta))) {
        unstable = trial;
        continue;
      }
      double stable = trial;
      for (int step = 0; step < 30; ++step) {
        const double middle = 0.5 * (stable + unstable);
        (Stable(Radius(middle, mode_.zeta)) ? stable : unstable) = middle;
      }
      return stable;
    }
    return 0.0;
  }

  // Whether the mode is bounded with every damping force implicit (exact dashpot Jacobians).
  bool StableWithImplicitDamping() const {
    const analysis::Analyzer all_implicit(host_, choice_, Options(0.0, mode_.omega));
    return Stable(Radius(all_implicit, phi_, mode_.zeta));
  }

  // The smallest value of the solver's real field `name` (above its current one, found on a
  // doubling grid from `first` and refined by bisection to 1%) with which the mode is bounded;
  // 0 when none up to 2^20·first.
  double SmallestStableValue(const std::string& name, double first) const {
    const auto stable_with = [&](double value) {
      const analysis::Analyzer with(host_, With(choice_, name, value),
                                    Options(explicit_fraction_, mode_.omega));
      return Stable(Radius(with, phi_, mode_.zeta));
    };
    double unstable = RealParameter(choice_, analyzer_.entry(), name);
    for (double value = std::max(first, 2.0 * unstable); value <= first * 0x1p20; value *= 2.0) {
      if (!stable_with(value)) {
        unstable = value;
        continue;
      }
      while (value - unstable > 0.01 * value) {
        const double middle = 0.5 * (unstable + value);
        (stable_with(middle) ? value : unstable) = middle;
      }
      return value;
    }
    return 0.0;
  }

 private:
  // The oscillator at the mode's own ω, so that the solver's dimensional parameters
  // (rayleighStiffness [s], rayleighMass [1/s]) act as in the scene.
  static analysis::AnalyzerOptions Options(double explicit_fraction, double omega) {
    analysis::AnalyzerOptions options;
    options.explicit_damping_fraction = explicit_fraction;
    options.omega = omega;
    return options;
  }

  const Host& host_;
  SolverChoice choice_;
  FailingMode mode_;
  double phi_;
  double explicit_fraction_;
  analysis::Analyzer analyzer_;
};

// "MeshSpringForceField (line 11)" for each component under `node_path` that declares
// exactDampingJacobian.
std::string ComponentsWithExactDampingField(const Host& host, const Simulation& simulation,
                                            const std::string& node_path) {
  std::string names;
  for (const ComponentModel& component : simulation.model().components) {
    const bool below =
        component.node_path == node_path || component.node_path.rfind(node_path + "/", 0) == 0;
    const ComponentInfo* entry = host.FindComponent(component.type);
    if (!below || entry == nullptr || entry->spec.FindField("exactDampingJacobian") == nullptr)
      continue;
    names += (names.empty() ? "" : ", ") + component.type +
             (component.line > 0 ? " (line " + std::to_string(component.line) + ")" : "");
  }
  return names.empty() ? std::string("the springs") : names;
}

// "ω_max ≈ …, ω_max·dt = …, damping ratio ζ ≈ …, 40% explicit": the mode the advice measures.
std::string DescribeMode(const FailingMode& mode, const ModeProbe& probe) {
  std::string text =
      "ω_max ≈ " + ShortNumber(mode.omega) + " rad/s, ω_max·dt = " + ShortNumber(probe.phi());
  if (mode.zeta > 0.0) {
    text += ", damping ratio ζ ≈ " + ShortNumber(mode.zeta);
    if (probe.explicit_fraction() > 0.0)
      text +=
          ", " +
          (probe.explicit_fraction() < 1.0 ? ShortNumber(100.0 * probe.explicit_fraction()) + "% "
                                           : std::string("all ")) +
          "explicit";
  }
  return text;
}

}  // namespace

std::string AdviseOnFailure(const Host& host, const Simulation& simulation, const SolverNode& node,
                            const std::optional<FailingMode>& known_mode) {
  try {
    FailingMode mode;
    if (known_mode) {
      mode = *known_mode;
    } else {
      const FrequencyEstimate estimate =
          EstimateHighestFrequency(*node.system, node.state, kModeIterations);
      mode = {estimate.omega_max, estimate.damping_ratio, estimate.implicit_damping_ratio};
    }
    if (!(mode.omega > 0.0) || !std::isfinite(mode.omega)) {
      // At the failing state the largest eigenvalue of M⁻¹K is negative (compressed springs
      // dominate) or nothing is stiff: no mode to measure.
      return {};
    }
    const double dt = simulation.dt();
    const ModeProbe probe(host, {node.solver_type, node.solver_parameters}, mode, dt);
    const ComponentInfo& entry = probe.analyzer().entry();
    const bool implicit_solver = !(probe.analyzer().traits().flags & kExplicitMethod);
    const double radius = probe.Radius(probe.phi(), mode.zeta);

    std::string text = "; advice for " + node.solver_type + ", measured on its stiffest mode (" +
                       DescribeMode(mode, probe) + ")";
    if (probe.Stable(radius)) {
      // The mode is bounded at this dt: the failure is not its growth.
      if (!implicit_solver)
        return text + ": it is stable at this dt, the failure is not its growth";
      text +=
          ": it is stable at this dt, so a step's matrix that lost positive definiteness lost it "
          "to compressed springs, whose negative stiffness grows as dt²: a smaller dt";
      if (entry.spec.FindField("rayleighMass") != nullptr)
        text += ", or rayleighMass (it adds to the mass in the matrix)";
      return text;
    }
    text += ": one step amplifies it by r = " + (std::isfinite(radius) ? ShortNumber(radius) : "∞");

    std::vector<std::string> helps, useless;
    // A smaller dt.
    const double stable_phi = probe.LargestStablePhi();
    if (stable_phi > 0.0) {
      // The stability check's margin, for a mode estimated from below and springs that
      // stiffen as they stretch.
      const double advised = RoundDown(0.8 * stable_phi / mode.omega, 2);
      helps.push_back("dt ≤ " + FormatReal(advised) + " (e.g. --dt " + FormatReal(advised) + ")");
    } else {
      useless.push_back("a smaller dt does not help (down to dt/" + std::to_string(1 << kHalvings) +
                        ")");
    }
    // The dashpots in the implicit solve.
    if (implicit_solver && probe.explicit_fraction() > 0.0) {
      const std::string fields = ComponentsWithExactDampingField(host, simulation, node.node_path);
      if (probe.StableWithImplicitDamping())
        helps.push_back("exactDampingJacobian=\"1\" on " + fields +
                        " (their dashpots then enter the implicit solve)");
      else
        useless.push_back("exactDampingJacobian=\"1\" on " + fields + " does not help");
    }
    // The solver's own damping parameters, when it has them (Rayleigh damping is physical
    // damping the scene did not have: the smallest value that is enough).
    for (const auto& [name, first] : {std::pair{"rayleighStiffness", 1e-3 / mode.omega},
                                      std::pair{"rayleighMass", 1e-3 * mode.omega}}) {
      if (entry.spec.FindField(name) == nullptr) continue;
      if (const double value = probe.SmallestStableValue(name, first); value > 0.0)
        helps.push_back(std::string(name) + " ≥ " + FormatReal(RoundUp(value, 2)));
    }
    // The springs' damping: with heavy damping an explicit method's limit falls as ζ grows.
    const double more = mode.zeta > 0.0 ? 2.0 * mode.zeta : 0.1;
    const double radius_more = probe.Radius(probe.phi(), more);
    if (probe.Stable(radius_more))
      helps.push_back("more damping (ζ ≈ " + ShortNumber(more) + ")");
    else if (radius_more > radius)
      useless.push_back("more damping makes it worse (r = " + ShortNumber(radius_more) +
                        " at ζ ≈ " + ShortNumber(more) + ")");
    if (mode.zeta > 0.0 && probe.Stable(probe.Radius(probe.phi(), 0.5 * mode.zeta)))
      helps.push_back("less damping (ζ ≈ " + ShortNumber(0.5 * mode.zeta) + ")");

    const auto join = [](const std::vector<std::string>& parts, const char* separator) {
      std::string joined;
      for (const std::string& part : parts) joined += (joined.empty() ? "" : separator) + part;
      return joined;
    };
    if (!helps.empty()) text += "; what keeps it bounded: " + join(helps, "; or ");
    if (!useless.empty()) text += "; " + join(useless, "; ");
    return text;
  } catch (const std::exception& error) {
    LogInfo(node.node_path + ": no failure advice (" + OneLine(error.what()) + ")");
    return {};
  }
}

}  // namespace fluxion::runner
