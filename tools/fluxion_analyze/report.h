// fluxion-analyze's text in and out: the Φ range it reads, the CSV, JSON and Markdown it writes.
#pragma once

#include <string>
#include <vector>

#include "analysis.h"

namespace fluxion::analysis {

/// "A:B:N" → N values evenly spaced from A to B inclusive (A when N = 1), 0 < A ≤ B, N ≥ 1.
/// Throws ConfigError("phi", …) for anything else.
std::vector<double> ParsePhiRange(const std::string& text);

/// --phi: the header `phi,spectral_radius,psi,frequency_ratio,amplitude_error` and one row per
/// point, numbers in shortest round-trip form; a point whose step failed has `nan` values.
std::string PhiCsv(const std::vector<TransitionPoint>& points);

/// One analysed solver.
struct SolverReport {
  const Analyzer* analyzer = nullptr;
  Summary summary;
};

/// --summary: one JSON object per solver (an array when there are several), pretty-printed.
std::string SummaryJson(const std::vector<SolverReport>& reports);

/// --markdown: the table of docs/integrators.md, one row per solver.
std::string SummaryMarkdown(const std::vector<SolverReport>& reports);

/// --order: how global_order was found, or why there is none (every error at round-off, a
/// non-finite error, usable runs not successive); the JSON's "order_measure".
std::string OrderMeasure(const ConvergenceResult& result);

/// --order --text and --energy --text: a few lines for people (a table of the runs for --order).
std::string ConvergenceText(const ConvergenceResult& result, const std::string& scene,
                            const std::string& solver_label);
std::string EnergyText(const EnergyResult& result, const std::string& scene,
                       const std::string& solver_label);

/// --order and --energy: one JSON object each.
std::string ConvergenceJson(const ConvergenceResult& result, const std::string& scene,
                            const std::string& solver_label);
std::string EnergyJson(const EnergyResult& result, const std::string& scene,
                       const std::string& solver_label);

}  // namespace fluxion::analysis
