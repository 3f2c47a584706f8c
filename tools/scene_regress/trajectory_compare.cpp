#include "trajectory_compare.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_map>

#include "fluxion/text.h"

namespace fluxion::regress {

namespace {

std::string Located(std::string_view name, std::size_t line, const std::string& what) {
  return std::string(name) + ":" + std::to_string(line) + ": " + what;
}

// Splits one CSV line on ',' (the format has no quoting), trimming spaces around each field.
std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    std::string_view field =
        line.substr(start, comma == std::string_view::npos ? line.npos : comma - start);
    while (!field.empty() && (field.front() == ' ' || field.front() == '\t'))
      field.remove_prefix(1);
    while (!field.empty() && (field.back() == ' ' || field.back() == '\t')) field.remove_suffix(1);
    fields.push_back(field);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return fields;
}

bool ParseDouble(std::string_view text, double& value) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  // Out of range (1e999) is rejected rather than read as inf: the writer never produces it.
  return error == std::errc() && end == text.data() + text.size();
}

bool ParseStep(std::string_view text, long& value) {
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && value >= 0;
}

std::string ObjectOf(const std::string& column) {
  const std::size_t slash = column.rfind('/');
  return slash == std::string::npos ? column : column.substr(0, slash);
}

// "a, b, c … and N more" for the first `max` items.
template <typename T, typename Format>
std::string ListFirst(const std::vector<T>& items, std::size_t max, Format format) {
  std::string text;
  for (std::size_t i = 0; i < items.size() && i < max; ++i) {
    if (i > 0) text += ", ";
    text += format(items[i]);
  }
  if (items.size() > max) text += " … and " + std::to_string(items.size() - max) + " more";
  return text;
}

std::string Short(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

}  // namespace

DecidingError MakeDecidingError(const Tolerances& tolerances, std::string at, std::string column,
                                double reference, double candidate) {
  DecidingError deciding{.at = std::move(at),
                         .column = std::move(column),
                         .reference = reference,
                         .candidate = candidate};
  const bool is_nan = std::isnan(reference) || std::isnan(candidate);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  deciding.abs_error =
      is_nan ? nan : (reference == candidate ? 0.0 : std::fabs(candidate - reference));
  deciding.rel_error = deciding.abs_error == 0 ? 0.0 : deciding.abs_error / std::fabs(reference);
  const double allowed = tolerances.atol + tolerances.rtol * std::fabs(reference);
  deciding.tolerance_ratio = is_nan
                                 ? std::numeric_limits<double>::infinity()
                                 : (deciding.abs_error == 0 ? 0.0 : deciding.abs_error / allowed);
  deciding.absolute = tolerances.atol >= tolerances.rtol * std::fabs(reference);
  return deciding;
}

std::string FormatDecidingError(const std::optional<DecidingError>& deciding) {
  if (!deciding) return "0";
  if (std::isnan(deciding->abs_error)) return "nan";
  return (deciding->absolute ? "abs " : "rel ") +
         Short(deciding->absolute ? deciding->abs_error : deciding->rel_error);
}

std::string DescribeDecidingError(const DecidingError& deciding) {
  return "closest to the tolerance: " + deciding.at + ", column " + Shown(deciding.column) +
         ": reference " + FormatExact(deciding.reference) + ", candidate " +
         FormatExact(deciding.candidate) + " (" +
         (deciding.absolute ? "abs error " + Short(deciding.abs_error) +
                                  ", the absolute tolerance decides: |reference| <= atol/rtol"
                            : "rel error " + Short(deciding.rel_error)) +
         "; " + Short(deciding.tolerance_ratio) + " of the allowance)";
}

std::string FormatExact(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

Trajectory ParseTrajectory(std::string_view csv_text, std::string_view name) {
  Trajectory trajectory;
  std::unordered_map<long, std::size_t> seen_steps;
  std::size_t line_number = 0;
  std::size_t position = 0;
  bool have_header = false;
  while (position < csv_text.size()) {
    std::size_t end = csv_text.find('\n', position);
    if (end == std::string_view::npos) end = csv_text.size();
    std::string_view line = csv_text.substr(position, end - position);
    position = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty())
      throw TrajectoryFormatError(Located(name, line_number, "empty line (expected a CSV row)"));
    const std::vector<std::string_view> fields = SplitFields(line);

    // Header: `step`, then unique column names.
    if (!have_header) {
      if (fields.front() != "step")
        throw TrajectoryFormatError(
            Located(name, line_number,
                    "header starts with '" + Shown(fields.front()) +
                        "' (expected a trajectory CSV header: step,time,…)"));
      std::unordered_map<std::string_view, std::size_t> names;
      for (std::size_t i = 1; i < fields.size(); ++i) {
        if (fields[i].empty())
          throw TrajectoryFormatError(
              Located(name, line_number, "empty column name in field " + std::to_string(i + 1)));
        // Fluxion never writes a control character in a name (the scene's names are refused):
        // one here is a forged file, and would reach the terminal in every message naming it.
        if (std::ranges::any_of(fields[i], [](char c) {
              return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
            }))
          throw TrajectoryFormatError(
              Located(name, line_number,
                      "column name '" + Shown(fields[i]) +
                          "' holds a control character (expected names as Fluxion writes them)"));
        if (!names.emplace(fields[i], i).second)
          throw TrajectoryFormatError(Located(
              name, line_number,
              "duplicate column '" + Shown(fields[i]) + "' (expected unique column names)"));
        trajectory.columns.emplace_back(fields[i]);
      }
      have_header = true;
      continue;
    }

    // Data row: a step number and one value per column.
    if (fields.size() != trajectory.columns.size() + 1)
      throw TrajectoryFormatError(Located(name, line_number,
                                          std::to_string(fields.size()) + " fields (expected " +
                                              std::to_string(trajectory.columns.size() + 1) +
                                              " as in the header)"));
    long step = 0;
    if (!ParseStep(fields[0], step))
      throw TrajectoryFormatError(Located(
          name, line_number, "step '" + Shown(fields[0]) + "' (expected a non-negative integer)"));
    if (!seen_steps.emplace(step, line_number).second)
      throw TrajectoryFormatError(Located(name, line_number,
                                          "step " + std::to_string(step) + " repeats line " +
                                              std::to_string(seen_steps[step]) +
                                              " (expected one row per step)"));
    std::vector<double> row(trajectory.columns.size());
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (!ParseDouble(fields[c + 1], row[c]))
        throw TrajectoryFormatError(Located(name, line_number,
                                            "column " + Shown(trajectory.columns[c]) + ": '" +
                                                Shown(fields[c + 1]) + "' (expected a number)"));
    }
    trajectory.steps.push_back(step);
    trajectory.rows.push_back(std::move(row));
  }
  if (!have_header)
    throw TrajectoryFormatError(Located(name, 1, "empty file (expected a header step,time,…)"));
  return trajectory;
}

ComparisonReport CompareTrajectories(const Trajectory& reference, const Trajectory& candidate,
                                     const Tolerances& tolerances) {
  ComparisonReport report;
  report.tolerances = tolerances;

  // Columns: match by name; the reference's order decides the order of everything reported.
  std::unordered_map<std::string_view, std::size_t> candidate_column;
  for (std::size_t c = 0; c < candidate.columns.size(); ++c)
    candidate_column.emplace(candidate.columns[c], c);
  std::unordered_map<std::string_view, std::size_t> reference_column;
  for (std::size_t c = 0; c < reference.columns.size(); ++c)
    reference_column.emplace(reference.columns[c], c);
  struct ColumnPair {
    std::size_t reference, candidate, object;
  };
  std::vector<ColumnPair> pairs;
  std::unordered_map<std::string, std::size_t> object_index;
  for (std::size_t c = 0; c < reference.columns.size(); ++c) {
    const std::string& name = reference.columns[c];
    const std::string object = ObjectOf(name);
    auto [it, inserted] = object_index.emplace(object, report.objects.size());
    if (inserted) {
      report.objects.emplace_back();
      report.objects.back().object = object;
    }
    const auto found = candidate_column.find(name);
    if (found == candidate_column.end()) {
      report.missing_columns.push_back(name);
      continue;
    }
    pairs.push_back({c, found->second, it->second});
    ++report.objects[it->second].columns;
  }
  for (const std::string& name : candidate.columns)
    if (!reference_column.contains(name)) report.extra_columns.push_back(name);
  report.compared_columns = pairs.size();

  // Rows: match by step, in increasing step order so that the first mismatch is the earliest.
  std::unordered_map<long, std::size_t> candidate_row;
  for (std::size_t r = 0; r < candidate.steps.size(); ++r)
    candidate_row.emplace(candidate.steps[r], r);
  std::unordered_map<long, std::size_t> reference_row;
  for (std::size_t r = 0; r < reference.steps.size(); ++r)
    reference_row.emplace(reference.steps[r], r);
  std::vector<std::size_t> reference_order(reference.steps.size());
  for (std::size_t r = 0; r < reference_order.size(); ++r) reference_order[r] = r;
  std::sort(reference_order.begin(), reference_order.end(),
            [&](std::size_t a, std::size_t b) { return reference.steps[a] < reference.steps[b]; });
  for (const long step : candidate.steps)
    if (!reference_row.contains(step)) report.extra_steps.push_back(step);
  std::sort(report.extra_steps.begin(), report.extra_steps.end());

  for (const std::size_t r : reference_order) {
    const long step = reference.steps[r];
    const auto found = candidate_row.find(step);
    if (found == candidate_row.end()) {
      report.missing_steps.push_back(step);
      continue;
    }
    ++report.compared_rows;
    const std::vector<double>& ref_row = reference.rows[r];
    const std::vector<double>& cand_row = candidate.rows[found->second];
    for (const ColumnPair& pair : pairs) {
      const double b = ref_row[pair.reference];
      const double a = cand_row[pair.candidate];
      ObjectSummary& object = report.objects[pair.object];
      ++report.compared_values;

      // Exactly equal values agree (this also covers equal infinities); NaN never agrees.
      const bool is_nan = std::isnan(a) || std::isnan(b);
      const double abs_error =
          is_nan ? std::numeric_limits<double>::quiet_NaN() : (a == b ? 0.0 : std::fabs(a - b));
      const double allowed = tolerances.atol + tolerances.rtol * std::fabs(b);
      const bool ok = !is_nan && (a == b || abs_error <= allowed);
      const double rel_error = abs_error == 0 ? 0.0 : abs_error / std::fabs(b);

      // Worst errors per object (a NaN counts as the worst possible).
      const double abs_rank = is_nan ? std::numeric_limits<double>::infinity() : abs_error;
      if (is_nan) object.has_nan = true;
      if (abs_rank > object.max_abs_error || (is_nan && object.max_abs_column.empty())) {
        object.max_abs_error = abs_rank;
        object.max_abs_step = step;
        object.max_abs_column = reference.columns[pair.reference];
      }
      if (b != 0 && !is_nan && rel_error > object.max_rel_error) {
        object.max_rel_error = rel_error;
        object.max_rel_step = step;
        object.max_rel_column = reference.columns[pair.reference];
      }
      const double ratio = is_nan ? std::numeric_limits<double>::infinity()
                                  : (abs_error == 0 ? 0.0 : abs_error / allowed);
      if (ratio > report.worst_tolerance_ratio)
        report.deciding = MakeDecidingError(tolerances, "step " + std::to_string(step),
                                            reference.columns[pair.reference], b, a);
      report.worst_tolerance_ratio = std::max(report.worst_tolerance_ratio, ratio);

      if (ok) continue;
      ++object.mismatches;
      ++report.mismatched_values;
      if (!report.first_mismatch)
        report.first_mismatch = ValueMismatch{.step = step,
                                              .column = reference.columns[pair.reference],
                                              .reference = b,
                                              .candidate = a,
                                              .abs_error = abs_error,
                                              .rel_error = is_nan ? abs_error : rel_error};
    }
  }
  std::sort(report.missing_steps.begin(), report.missing_steps.end());

  for (const ObjectSummary& object : report.objects) {
    report.max_abs_error = std::max(report.max_abs_error, object.max_abs_error);
    report.max_rel_error = std::max(report.max_rel_error, object.max_rel_error);
  }
  report.match = report.missing_columns.empty() && report.extra_columns.empty() &&
                 report.missing_steps.empty() && report.extra_steps.empty() &&
                 report.mismatched_values == 0;
  return report;
}

ComparisonReport CompareTrajectories(std::string_view reference_csv, std::string_view candidate_csv,
                                     const Tolerances& tolerances, std::string_view reference_name,
                                     std::string_view candidate_name) {
  const Trajectory reference = ParseTrajectory(reference_csv, reference_name);
  const Trajectory candidate = ParseTrajectory(candidate_csv, candidate_name);
  return CompareTrajectories(reference, candidate, tolerances);
}

std::string FirstFailure(const ComparisonReport& report) {
  if (report.match) return "match";
  // Structure first: a missing column or step is the most fundamental difference.
  // Names come from the files: shown cut (a 50 MB name is not a 50 MB line).
  if (!report.missing_columns.empty())
    return "missing column " + Shown(report.missing_columns.front());
  if (!report.extra_columns.empty()) return "extra column " + Shown(report.extra_columns.front());
  if (report.first_mismatch) {
    const ValueMismatch& m = *report.first_mismatch;
    std::string text = "step " + std::to_string(m.step) + ", " + Shown(m.column) + ": reference " +
                       FormatExact(m.reference) + ", got " + FormatExact(m.candidate);
    // A row missing earlier than the first bad value is named instead.
    if (report.missing_steps.empty() || report.missing_steps.front() > m.step) return text;
  }
  if (!report.missing_steps.empty())
    return "missing step " + std::to_string(report.missing_steps.front());
  if (!report.extra_steps.empty())
    return "extra step " + std::to_string(report.extra_steps.front());
  return "mismatch";
}

std::string FormatReport(const ComparisonReport& report, const FormatOptions& options) {
  std::string text;
  const Tolerances& tol = report.tolerances;
  const std::string rule =
      "|candidate - reference| <= " + Short(tol.atol) + " + " + Short(tol.rtol) + " * |reference|";
  if (report.match) {
    text += "MATCH: " + std::to_string(report.compared_values) + " values (" +
            std::to_string(report.compared_rows) + " steps x " +
            std::to_string(report.compared_columns) + " columns) within " + rule + "\n";
  } else {
    text += "MISMATCH: " + std::to_string(report.mismatched_values) + " of " +
            std::to_string(report.compared_values) + " values outside " + rule;
    if (!report.missing_columns.empty() || !report.extra_columns.empty() ||
        !report.missing_steps.empty() || !report.extra_steps.empty())
      text += "; the files differ in shape";
    text += "\n";
  }
  const auto name = [](const std::string& s) { return Shown(s); };
  const auto step = [](long s) { return std::to_string(s); };
  if (!report.missing_columns.empty())
    text +=
        "  missing columns (" + std::to_string(report.missing_columns.size()) +
        ", in the reference only): " + ListFirst(report.missing_columns, options.max_listed, name) +
        "\n";
  if (!report.extra_columns.empty())
    text +=
        "  extra columns (" + std::to_string(report.extra_columns.size()) +
        ", not in the reference): " + ListFirst(report.extra_columns, options.max_listed, name) +
        "\n";
  if (!report.missing_steps.empty())
    text +=
        "  missing steps (" + std::to_string(report.missing_steps.size()) +
        ", in the reference only): " + ListFirst(report.missing_steps, options.max_listed, step) +
        "\n";
  if (!report.extra_steps.empty())
    text += "  extra steps (" + std::to_string(report.extra_steps.size()) +
            ", not in the reference): " + ListFirst(report.extra_steps, options.max_listed, step) +
            "\n";
  if (report.first_mismatch) {
    const ValueMismatch& m = *report.first_mismatch;
    text += "  first failure: step " + std::to_string(m.step) + ", column " + Shown(m.column) +
            ": reference " + FormatExact(m.reference) + ", candidate " + FormatExact(m.candidate) +
            " (abs error " + Short(m.abs_error) + ", rel error " + Short(m.rel_error) + ")\n";
  }
  if (report.match && report.deciding)
    text += "  " + DescribeDecidingError(*report.deciding) + "\n";
  if (!options.object_table || report.objects.empty()) return text;

  // Table: one row per object, widths from the content.
  std::size_t width = std::string("object").size();
  std::vector<std::string> objects;
  for (const ObjectSummary& object : report.objects) {
    objects.push_back(Shown(object.object));
    width = std::max(width, objects.back().size());
  }
  char line[512];
  std::snprintf(line, sizeof line, "  %-*s  %12s  %12s  %9s  %s\n", static_cast<int>(width),
                "object", "max abs err", "max rel err", "failing", "worst at");
  text += line;
  for (std::size_t k = 0; k < report.objects.size(); ++k) {
    const ObjectSummary& object = report.objects[k];
    const std::string where =
        object.max_abs_column.empty()
            ? std::string("-")
            : "step " + std::to_string(object.max_abs_step) + ", " + Shown(object.max_abs_column);
    std::snprintf(line, sizeof line, "  %-*s  %12s  %12s  %9zu  ", static_cast<int>(width),
                  objects[k].c_str(), object.has_nan ? "nan" : Short(object.max_abs_error).c_str(),
                  Short(object.max_rel_error).c_str(), object.mismatches);
    text += line + where + "\n";
  }
  return text;
}

}  // namespace fluxion::regress
