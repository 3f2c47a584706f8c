#include "trajectory_alignment.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_map>

#include "fluxion/text.h"
#include "trajectory_interpolation.h"

namespace fluxion::regress {

namespace {

std::string Short(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

// The time column of a trajectory (TrajectoryInterpolator has checked that it exists).
std::size_t TimeColumn(const Trajectory& trajectory) {
  return static_cast<std::size_t>(std::ranges::find(trajectory.columns, "time") -
                                  trajectory.columns.begin());
}

// Rows of `reader`'s trajectory inside [from, to], up to its slack.
std::size_t RowsWithin(const Trajectory& trajectory, const TrajectoryInterpolator& reader,
                       double from, double to) {
  const std::size_t t = TimeColumn(trajectory);
  return static_cast<std::size_t>(std::ranges::count_if(trajectory.rows, [&](const auto& row) {
    return row[t] >= from - reader.slack() && row[t] <= to + reader.slack();
  }));
}

// The errors of one object's quantity while the compared times are walked: each column adds its
// squared difference to its point's slot; Close(t) turns the slots into e(t).
struct ErrorAccumulator {
  ErrorOverTime result;
  std::vector<double> slots;  // Σ over the point's axes of Δ², one per point
  double sum_of_squares = 0;
  std::size_t times = 0;

  void Close(double t) {
    double e = 0;
    bool nan = false;
    for (double& slot : slots) {
      nan = nan || std::isnan(slot);
      e = std::max(e, std::sqrt(slot));
      slot = 0;
    }
    if (nan) {
      result.has_nan = true;
      e = std::numeric_limits<double>::quiet_NaN();
    }
    if (times == 0 || e > result.max || (nan && !std::isnan(result.max))) {
      result.max = e;
      result.max_time = t;
    }
    sum_of_squares += e * e;
    ++times;
    result.rms = std::sqrt(sum_of_squares / static_cast<double>(times));
    result.end = e;
  }
};

}  // namespace

TimeAlignedReport CompareAtCommonTimes(const Trajectory& reference, const Trajectory& candidate,
                                       const Tolerances& tolerances,
                                       std::string_view reference_name,
                                       std::string_view candidate_name) {
  const TrajectoryInterpolator reference_reader(reference, reference_name);
  const TrajectoryInterpolator candidate_reader(candidate, candidate_name);
  TimeAlignedReport report;
  report.tolerances = tolerances;
  report.reference_rows = reference.rows.size();
  report.candidate_rows = candidate.rows.size();

  report.reference_start = reference_reader.first_time();
  report.reference_end = reference_reader.last_time();
  report.candidate_start = candidate_reader.first_time();
  report.candidate_end = candidate_reader.last_time();
  const double span_slack = std::max(reference_reader.slack(), candidate_reader.slack());
  report.same_span = std::fabs(report.reference_start - report.candidate_start) <= span_slack &&
                     std::fabs(report.reference_end - report.candidate_end) <= span_slack;

  // The compared times: the recorded times of the run with fewer rows over the shared span.
  const double from = std::max(reference_reader.first_time(), candidate_reader.first_time());
  const double to = std::min(reference_reader.last_time(), candidate_reader.last_time());
  report.on_reference_times = RowsWithin(reference, reference_reader, from, to) <=
                              RowsWithin(candidate, candidate_reader, from, to);
  const Trajectory& grid = report.on_reference_times ? reference : candidate;
  const TrajectoryInterpolator& other_reader =
      report.on_reference_times ? candidate_reader : reference_reader;

  // Columns by name, `time` left out (it is the alignment); the reference's order throughout.
  std::unordered_map<std::string_view, std::size_t> candidate_column, reference_column;
  for (std::size_t c = 0; c < candidate.columns.size(); ++c)
    candidate_column.emplace(candidate.columns[c], c);
  for (std::size_t c = 0; c < reference.columns.size(); ++c)
    reference_column.emplace(reference.columns[c], c);
  struct ColumnPair {
    std::size_t reference, candidate, accumulator, slot;
  };
  std::vector<ColumnPair> pairs;
  std::vector<ErrorAccumulator> accumulators;
  std::unordered_map<std::string, std::size_t> accumulator_of;        // object + '\n' + quantity
  std::vector<std::unordered_map<std::string, std::size_t>> slot_of;  // point → slot
  for (std::size_t c = 0; c < reference.columns.size(); ++c) {
    const std::string& name = reference.columns[c];
    if (name == "time") continue;
    const auto found = candidate_column.find(name);
    if (found == candidate_column.end()) {
      report.missing_columns.push_back(name);
      continue;
    }
    PointCoordinate coordinate;
    const bool point = ParsePointCoordinate(name, coordinate);
    const std::string object = point ? coordinate.object : name;
    const std::string quantity = !point                   ? "value"
                                 : coordinate.kind == 'p' ? "position"
                                                          : "velocity";
    const auto [it, inserted] =
        accumulator_of.emplace(object + "\n" + quantity, accumulators.size());
    if (inserted) {
      accumulators.emplace_back();
      accumulators.back().result.object = object;
      accumulators.back().result.quantity = quantity;
      slot_of.emplace_back();
    }
    ErrorAccumulator& accumulator = accumulators[it->second];
    const auto [slot, new_slot] =
        slot_of[it->second].emplace(point ? coordinate.point : name, accumulator.slots.size());
    if (new_slot) accumulator.slots.push_back(0.0);
    ++accumulator.result.columns;
    pairs.push_back({c, found->second, it->second, slot->second});
    if (other_reader.rule(report.on_reference_times ? found->second : c) ==
        InterpolationRule::kHermite)
      ++report.hermite_columns;
    else
      ++report.cubic_columns;
  }
  for (const std::string& name : candidate.columns)
    if (name != "time" && !reference_column.contains(name)) report.extra_columns.push_back(name);
  report.compared_columns = pairs.size();

  // Walk the chosen run's times; the other run is read at each (as recorded, or interpolated).
  const std::size_t grid_time = TimeColumn(grid);
  const double slack = other_reader.slack();
  for (const std::vector<double>& row : grid.rows) {
    const double t = row[grid_time];
    if (t < other_reader.first_time() - slack || t > other_reader.last_time() + slack) {
      ++report.outside_span;
      continue;
    }
    const TrajectoryInterpolator::Where where = other_reader.Locate(t);
    if (report.compared_times++ == 0) report.first_time = t;
    report.last_time = t;
    if (where.exact) ++report.exact_times;
    for (const ColumnPair& pair : pairs) {
      const std::size_t grid_column = report.on_reference_times ? pair.reference : pair.candidate;
      const std::size_t other_column = report.on_reference_times ? pair.candidate : pair.reference;
      const double g = row[grid_column];
      const double o = other_reader.ValueAt(other_column, t, where);
      const double b = report.on_reference_times ? g : o;  // reference
      const double a = report.on_reference_times ? o : g;  // candidate
      ++report.compared_values;

      const bool is_nan = std::isnan(a) || std::isnan(b);
      const double difference =
          is_nan ? std::numeric_limits<double>::quiet_NaN() : (a == b ? 0.0 : a - b);
      accumulators[pair.accumulator].slots[pair.slot] += difference * difference;
      const double abs_error = std::fabs(difference);
      const double allowed = tolerances.atol + tolerances.rtol * std::fabs(b);
      const double ratio = is_nan ? std::numeric_limits<double>::infinity()
                                  : (abs_error == 0 ? 0.0 : abs_error / allowed);
      if (ratio > (report.deciding ? report.deciding->tolerance_ratio : 0.0))
        report.deciding = MakeDecidingError(tolerances, "t = " + FormatExact(t),
                                            reference.columns[pair.reference], b, a);
      if (!is_nan && (a == b || abs_error <= allowed)) continue;
      ++report.mismatched_values;
      if (!report.first_mismatch)
        report.first_mismatch =
            TimeMismatch{.time = t,
                         .column = reference.columns[pair.reference],
                         .reference = b,
                         .candidate = a,
                         .abs_error = abs_error,
                         .rel_error = abs_error == 0 ? 0.0 : abs_error / std::fabs(b)};
    }
    for (ErrorAccumulator& accumulator : accumulators) accumulator.Close(t);
  }
  for (ErrorAccumulator& accumulator : accumulators)
    report.errors.push_back(std::move(accumulator.result));

  report.match = report.missing_columns.empty() && report.extra_columns.empty() &&
                 report.same_span && report.compared_times > 0 && report.mismatched_values == 0;
  return report;
}

std::string FormatTimeAlignedReport(const TimeAlignedReport& report, const FormatOptions& options) {
  const Tolerances& tol = report.tolerances;
  const std::string rule =
      "|candidate - reference| <= " + Short(tol.atol) + " + " + Short(tol.rtol) + " * |reference|";
  std::string text;
  if (report.match)
    text += "MATCH: " + std::to_string(report.compared_values) + " values (" +
            std::to_string(report.compared_times) + " times x " +
            std::to_string(report.compared_columns) + " columns) within " + rule + "\n";
  else
    text += "MISMATCH: " + std::to_string(report.mismatched_values) + " of " +
            std::to_string(report.compared_values) + " values outside " + rule +
            (report.missing_columns.empty() && report.extra_columns.empty() && report.same_span
                 ? std::string()
                 : std::string("; the runs differ in columns or span")) +
            "\n";

  // Which times, and how the other run was read at them.
  const char* chosen = report.on_reference_times ? "reference" : "candidate";
  const char* read = report.on_reference_times ? "candidate" : "reference";
  const std::size_t read_rows =
      report.on_reference_times ? report.candidate_rows : report.reference_rows;
  text += "  aligned by time: at the " + std::string(chosen) + "'s " +
          std::to_string(report.compared_times) +
          " recorded times from t = " + FormatExact(report.first_time) + " to " +
          FormatExact(report.last_time) + " s; the " + read + " (" + std::to_string(read_rows) +
          " rows) read there ";
  const std::size_t interpolated = report.compared_times - report.exact_times;
  if (interpolated == 0) {
    text += "as recorded (it has rows at all of them: nothing interpolated)\n";
  } else {
    text += "by interpolation at " + std::to_string(interpolated) + " (";
    if (report.hermite_columns > 0)
      text += "cubic Hermite on " + std::to_string(report.hermite_columns) +
              " position columns with their velocities" + (report.cubic_columns > 0 ? ", " : "");
    if (report.cubic_columns > 0)
      text += "the cubic through four rows on " + std::to_string(report.cubic_columns) +
              " other columns";
    text += "; both fourth order), as recorded at " + std::to_string(report.exact_times) + "\n";
  }
  if (!report.same_span)
    text += "  the runs cover different times: the reference from t = " +
            FormatExact(report.reference_start) + " to " + FormatExact(report.reference_end) +
            " s, the candidate from t = " + FormatExact(report.candidate_start) + " to " +
            FormatExact(report.candidate_end) + " s (only the shared part is compared; " +
            std::to_string(report.outside_span) + " " + chosen + " times left out)\n";
  if (report.compared_times == 0) text += "  no time in common: nothing compared\n";
  const auto name = [](const std::string& s) { return Shown(s); };
  const auto list = [&](const std::vector<std::string>& names) {
    std::string listed;
    for (std::size_t i = 0; i < names.size() && i < options.max_listed; ++i)
      listed += (i > 0 ? ", " : "") + name(names[i]);
    if (names.size() > options.max_listed)
      listed += " … and " + std::to_string(names.size() - options.max_listed) + " more";
    return listed;
  };
  if (!report.missing_columns.empty())
    text += "  missing columns (" + std::to_string(report.missing_columns.size()) +
            ", in the reference only): " + list(report.missing_columns) + "\n";
  if (!report.extra_columns.empty())
    text += "  extra columns (" + std::to_string(report.extra_columns.size()) +
            ", not in the reference): " + list(report.extra_columns) + "\n";
  if (report.first_mismatch) {
    const TimeMismatch& m = *report.first_mismatch;
    text += "  first failure: t = " + FormatExact(m.time) + ", column " + Shown(m.column) +
            ": reference " + FormatExact(m.reference) + ", candidate " + FormatExact(m.candidate) +
            " (abs error " + Short(m.abs_error) + ", rel error " + Short(m.rel_error) + ")\n";
  }
  if (report.match && report.deciding)
    text += "  " + DescribeDecidingError(*report.deciding) + "\n";
  if (!options.object_table || report.errors.empty()) return text;

  // The errors over time: one row per object and quantity.
  text +=
      "  errors over time (per point the distance over its axes, per object the largest over its "
      "points; position in m, velocity in m/s):\n";
  std::size_t width = std::string("object").size();
  for (const ErrorOverTime& e : report.errors) width = std::max(width, Shown(e.object).size());
  char line[512];
  const std::string end_header = "at end (t = " + FormatExact(report.last_time) + ")";
  std::snprintf(line, sizeof line, "  %-*s  %-8s  %11s  %11s  %11s  %s\n", static_cast<int>(width),
                "object", "quantity", "max", "at t", "RMS", end_header.c_str());
  text += line;
  for (const ErrorOverTime& e : report.errors) {
    std::snprintf(line, sizeof line, "  %-*s  %-8s  %11s  %11s  %11s  %11s\n",
                  static_cast<int>(width), Shown(e.object).c_str(), e.quantity.c_str(),
                  Short(e.max).c_str(), Short(e.max_time).c_str(), Short(e.rms).c_str(),
                  Short(e.end).c_str());
    text += line;
  }
  return text;
}

}  // namespace fluxion::regress
