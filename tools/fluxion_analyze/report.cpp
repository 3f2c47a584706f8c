#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "fluxion/errors.h"
#include "fluxion/text.h"

namespace fluxion::analysis {

namespace {

using json = nlohmann::ordered_json;

json Optional(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? json(*value) : json(nullptr);
}

std::string Real(double value) {
  return std::isfinite(value) ? FormatReal(value) : std::string("nan");
}

// printf-style formatting for the Markdown table.
std::string Printf(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string Params(const SolverChoice& solver) {
  std::string text;
  for (const auto& [key, value] : solver.parameters)
    text += (text.empty() ? "" : " ") + key + "=" + value;
  return text;
}

json SummaryObject(const SolverReport& report) {
  const Analyzer& analyzer = *report.analyzer;
  const Summary& summary = report.summary;
  const SolverTraits& traits = analyzer.traits();
  const StabilityScan& scan = analyzer.options().scan;
  json params = json::object();
  for (const auto& [key, value] : analyzer.solver().parameters) params[key] = value;
  json object = {
      {"solver", analyzer.solver().name},
      {"params", params},
      {"measurement", std::string(MeasurementName(analyzer.measurement()))},
      {"stability_limit", Optional(summary.stability_limit)},
      {"stability_scan",
       {{"phi_step", scan.phi_step},
        {"phi_max", scan.phi_max},
        {"bisection_tolerance", scan.bisection_tolerance}}},
      {"declared_order", traits.order},
      {"global_order", Optional(summary.global_order)},
      {"local_error_order", Optional(summary.local_error_order)},
      {"root_error_order",
       summary.root_error_order ? json(*summary.root_error_order) : json(nullptr)},
      {"error_coefficient", Optional(summary.error_coefficient)},
      {"preserves_amplitude", summary.preserves_amplitude},
      {"area_preserving", summary.area_preserving ? json(*summary.area_preserving) : json(nullptr)},
      {"symplectic", (traits.flags & kSymplecticMethod) != 0},
      {"explicit", (traits.flags & kExplicitMethod) != 0},
      {"implicit", (traits.flags & kImplicitMethod) != 0},
      {"has_history", (traits.flags & kHasHistory) != 0},
      {"needs_linear_solver", (traits.flags & kNeedsLinearSolver) != 0},
      {"force_evaluations", traits.force_evaluations},
      {"linear_solves", traits.linear_solves},
      {"origin", analyzer.entry().origin}};
  json errors = json::array();
  for (const auto& [phi, error] : summary.root_errors)
    errors.push_back({{"phi", phi}, {"re", error.real()}, {"im", error.imag()}});
  object["root_errors"] = errors;
  return object;
}

}  // namespace

std::vector<double> ParsePhiRange(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return ConfigError(
        "phi", "--phi '" + text + "': " + why + " (expected A:B:N with 0 < A ≤ B and N ≥ 1)");
  };
  const std::size_t first = text.find(':');
  const std::size_t second = first == std::string::npos ? first : text.find(':', first + 1);
  if (second == std::string::npos) throw bad("not three fields");
  std::string why;
  const auto a = ParseReal(text.substr(0, first), &why);
  const auto b = ParseReal(text.substr(first + 1, second - first - 1), &why);
  const auto n = ParseInteger(text.substr(second + 1), &why);
  if (!a || !b || !n) throw bad(why.empty() ? "not numbers" : why);
  if (!(*a > 0.0) || *b < *a || *n < 1) throw bad("out of range");
  if (*n > 1000000) throw bad("more than a million points");
  std::vector<double> values;
  for (long i = 0; i < *n; ++i)
    values.push_back(
        *n == 1 ? *a : *a + (*b - *a) * static_cast<double>(i) / static_cast<double>(*n - 1));
  return values;
}

std::string PhiCsv(const std::vector<TransitionPoint>& points) {
  std::string csv = "phi,spectral_radius,psi,frequency_ratio,amplitude_error\n";
  for (const TransitionPoint& point : points) {
    csv += Real(point.phi);
    for (const double value :
         {point.spectral_radius, point.psi, point.frequency_ratio(), point.amplitude_error()})
      csv += "," + (point.ok ? Real(value) : std::string("nan"));
    csv += "\n";
  }
  return csv;
}

std::string SummaryJson(const std::vector<SolverReport>& reports) {
  if (reports.size() == 1) return SummaryObject(reports.front()).dump(2) + "\n";
  json array = json::array();
  for (const SolverReport& report : reports) array.push_back(SummaryObject(report));
  return array.dump(2) + "\n";
}

std::string SummaryMarkdown(const std::vector<SolverReport>& reports) {
  std::string text =
      "| solver | parameters | global order: declared / measured | local error order | e_λ order "
      "k | e_I | stability limit Φ_max "
      "| r = 1 when stable | symplectic: declared / det T = 1 | force evaluations | linear solves "
      "| measured by |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const SolverReport& report : reports) {
    const Analyzer& analyzer = *report.analyzer;
    const Summary& summary = report.summary;
    const SolverTraits& traits = analyzer.traits();
    const std::string params = Params(analyzer.solver());
    std::string limit;
    if (!summary.stability_limit)
      limit = "stable up to " + Printf("%g", analyzer.options().scan.phi_max);
    else if (*summary.stability_limit == 0.0)
      limit = "0 (unstable)";
    else
      limit = Printf("%.4f", *summary.stability_limit);
    const std::string area =
        summary.area_preserving ? (*summary.area_preserving ? "yes" : "no") : std::string("n/a");
    text +=
        "| `" + analyzer.solver().name + "` | " +
        (params.empty() ? "defaults" : "`" + params + "`") + " | " + std::to_string(traits.order) +
        " / " + (summary.global_order ? Printf("%.2f", *summary.global_order) : "n/a") + " | " +
        (summary.local_error_order ? Printf("%.2f", *summary.local_error_order) : "n/a") + " | " +
        (summary.root_error_order ? std::to_string(*summary.root_error_order) : "n/a") + " | " +
        (summary.error_coefficient ? Printf("%.4g", *summary.error_coefficient) : "n/a") + " | " +
        limit + " | " + (summary.preserves_amplitude ? "yes" : "no") + " | " +
        ((traits.flags & kSymplecticMethod) ? "yes" : "no") + " / " + area + " | " +
        std::to_string(traits.force_evaluations) + " | " + std::to_string(traits.linear_solves) +
        " | " +
        (analyzer.measurement() == Measurement::kTransitionMatrix ? "transition matrix"
                                                                  : "recurrence") +
        " |\n";
  }
  return text;
}

std::string OrderMeasure(const ConvergenceResult& result) {
  if (result.global_order)
    return "fitted over the runs dt = " + FormatReal(result.step_sizes[result.fit_first]) + " to " +
           FormatReal(result.step_sizes[result.fit_last]) +
           " (the asymptotic range: errors above round-off, successive pair orders agreeing)";
  for (std::size_t i = 0; i < result.errors.size(); ++i)
    if (!std::isfinite(result.errors[i]))
      return "none: the error of the run at dt = " + FormatReal(result.step_sizes[i]) +
             " is not finite";
  if (result.flat)
    return "none: the errors do not fall with dt (slope " + Printf("%.3f", result.flat_slope) +
           " over dt = " + FormatReal(result.step_sizes[result.fit_first]) + " to " +
           FormatReal(result.step_sizes[result.fit_last]) + ", errors about " +
           Printf("%.3g", result.errors[result.fit_last]) +
           "): they are a floor, such as the reference's own round-off adding up over its steps, "
           "not the method's error; the solver integrates this scene exactly or nearly so (as "
           "RK4 does a constant force); a force nonlinear in the positions, or a larger --dt, "
           "shows its order";
  if (result.usable_runs == 0) {
    double largest = 0, round_off = 0;
    for (const double error : result.errors) largest = std::max(largest, error);
    for (const double value : result.round_off) round_off = std::max(round_off, value);
    return "none: every run's error (at most " + Printf("%.3g", largest) +
           ") is within 10 times the round-off its steps can make (up to " +
           Printf("%.3g", round_off) +
           "): the errors are round-off, the solver integrates this scene exactly or nearly so "
           "(as RK4 does a force polynomial in time); a force nonlinear in the positions, or a "
           "larger --dt, shows its order";
  }
  return "none: " + std::to_string(result.usable_runs) +
         " run(s) stand 10 times above round-off, never two in a row (an order needs two "
         "successive step sizes): try a larger --dt or more --steps";
}

std::string ConvergenceText(const ConvergenceResult& result, const std::string& scene,
                            const std::string& solver_label) {
  std::string text = scene + (solver_label.empty() ? "" : " with " + solver_label) +
                     ": error of the positions at t = " + FormatReal(result.end_time) +
                     " s against a reference run at dt = " + Printf("%.4g", result.reference_dt) +
                     " s\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %12s  %12s  %12s  %s\n", "dt", "max error", "round-off",
                "order (this and the previous dt)");
  text += line;
  for (std::size_t i = 0; i < result.errors.size(); ++i) {
    const std::string order = i == 0 || !std::isfinite(result.pair_orders[i - 1])
                                  ? std::string()
                                  : Printf("%.3f", result.pair_orders[i - 1]);
    std::snprintf(line, sizeof line, "  %12.6g  %12.4g  %12.3g  %s\n", result.step_sizes[i],
                  result.errors[i], result.round_off[i], order.c_str());
    text += line;
  }
  text += "global order: " +
          (result.global_order ? Printf("%.3f", *result.global_order) + " (" : std::string("")) +
          OrderMeasure(result) + (result.global_order ? ")" : "") + "\n";
  return text;
}

std::string EnergyText(const EnergyResult& result, const std::string& scene,
                       const std::string& solver_label) {
  const auto joules = [](double value) { return Printf("%.6g", value) + " J"; };
  const auto relative = [](const std::optional<double>& value) {
    return value ? " (" + Printf("%.3g", *value) + " of |E0|)" : std::string();
  };
  std::string text = scene + (solver_label.empty() ? "" : " with " + solver_label) + ": " +
                     std::to_string(result.steps) + " steps of dt = " + FormatReal(result.dt) +
                     " s to t = " + FormatReal(result.end_time) + " s\n";
  text += "  total energy: initial " + joules(result.initial) + ", final " + joules(result.final) +
          ", between " + joules(result.minimum) + " and " + joules(result.maximum) + "\n";
  text += "  drift " + joules(result.drift) + relative(result.relative_drift) +
          ", oscillation about the drift " + joules(result.oscillation) +
          relative(result.relative_oscillation) + ", final change " + joules(result.final_change) +
          relative(result.relative_final_change) + "\n";
  if (!result.scale)
    text +=
        "  no relative numbers: E0 is 0 (a scene starting at rest), so there is no energy "
        "scale\n";
  return text;
}

std::string ConvergenceJson(const ConvergenceResult& result, const std::string& scene,
                            const std::string& solver_label) {
  json runs = json::array();
  for (std::size_t i = 0; i < result.errors.size(); ++i)
    runs.push_back({{"dt", result.step_sizes[i]}, {"error", result.errors[i]}});
  json orders = json::array();
  for (const double order : result.pair_orders)
    orders.push_back(std::isfinite(order) ? json(order) : json(nullptr));
  json round_off = json::array();
  for (const double value : result.round_off) round_off.push_back(value);
  const bool fitted = result.global_order.has_value();
  const json object = {{"scene", scene},
                       {"solver", solver_label.empty() ? json(nullptr) : json(solver_label)},
                       {"dt", result.dt},
                       {"end_time", result.end_time},
                       {"reference_dt", result.reference_dt},
                       {"runs", runs},
                       {"round_off", round_off},
                       {"pair_orders", orders},
                       {"global_order", Optional(result.global_order)},
                       {"order_measure", OrderMeasure(result)},
                       {"fit_dt", fitted ? json({result.step_sizes[result.fit_first],
                                                 result.step_sizes[result.fit_last]})
                                         : json(nullptr)}};
  return object.dump(2) + "\n";
}

std::string EnergyJson(const EnergyResult& result, const std::string& scene,
                       const std::string& solver_label) {
  const json object = {
      {"scene", scene},
      {"solver", solver_label.empty() ? json(nullptr) : json(solver_label)},
      {"dt", result.dt},
      {"steps", result.steps},
      {"end_time", result.end_time},
      {"initial_energy", result.initial},
      {"final_energy", result.final},
      {"minimum_energy", result.minimum},
      {"maximum_energy", result.maximum},
      {"drift", result.drift},
      {"oscillation", result.oscillation},
      {"final_change", result.final_change},
      {"energy_scale", Optional(result.scale)},
      {"relative_drift", Optional(result.relative_drift)},
      {"relative_oscillation", Optional(result.relative_oscillation)},
      {"relative_final_change", Optional(result.relative_final_change)},
      {"drift_measure", result.scale ? "relative: the relative_ numbers divide by |E0|"
                                     : "absolute: E0 is 0 (a scene starting at rest), so there "
                                       "is no energy scale; drift, oscillation and final_change "
                                       "are in J, the relative_ numbers null"}};
  return object.dump(2) + "\n";
}

}  // namespace fluxion::analysis
