// Comparison of two trajectory CSVs (scene-runner's output format) for regression testing.
//
// The trajectory format (issue 2, "scene-runner"):
//   step,time,<object id>/p<i>.<axis>,…,<object id>/v<i>.<axis>,…[,kinetic,potential,total]
// one row per recorded step. Two trajectories are compared column by column by header name and
// row by step number, never by position, so a reordered header still compares correctly and a
// renamed object shows up as a missing and an extra column instead of passing silently (the
// pitfall of SOFA's Regression plugin, PR #5873).
//
// Used by scene-regress (one comparison per manifest case) and meant for
// `scene-runner --compare REF.csv [--rtol R] [--atol A]`:
//
//   const fluxion::regress::ComparisonReport report =
//       fluxion::regress::CompareTrajectories(reference_text, candidate_text, {.rtol = r, .atol =
//       a});
//   std::fputs(fluxion::regress::FormatReport(report).c_str(), stdout);
//   return report.match ? 0 : 1;
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fluxion::regress {

/// A value b (reference) and a value a (candidate) agree when |a − b| ≤ atol + rtol·|b|
/// (numpy.isclose's rule, asymmetric: the reference sets the scale). Exactly equal values always
/// agree; a NaN in either cell never does.
struct Tolerances {
  double rtol = 1e-9;   ///< relative tolerance, ≥ 0
  double atol = 1e-12;  ///< absolute tolerance, ≥ 0, in the column's unit (m, m/s, s, J)
};

/// Thrown when a text is not a trajectory CSV; the message is "NAME:LINE: what was found (what
/// was expected)".
class TrajectoryFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A parsed trajectory: the header (without the leading `step` column) and one row per step.
struct Trajectory {
  std::vector<std::string> columns;       ///< header names after `step`, in file order
  std::vector<long> steps;                ///< step number of each row, in file order
  std::vector<std::vector<double>> rows;  ///< rows[r][c] is the value of columns[c] at steps[r]
};

/// Parses a trajectory CSV. `name` (a file name) prefixes error messages. The first header
/// field must be `step`; column names must be unique; every row has as many fields as the header;
/// steps are unique non-negative integers; values are decimal numbers as strtod reads them
/// (`nan` and `inf` included, so that a comparison can report them). A final newline is optional.
/// Throws TrajectoryFormatError.
Trajectory ParseTrajectory(std::string_view csv_text, std::string_view name = "trajectory");

/// One value outside the tolerance.
struct ValueMismatch {
  long step = 0;
  std::string column;
  double reference = 0;
  double candidate = 0;
  double abs_error = 0;  ///< |candidate − reference| (NaN if either is NaN)
  double rel_error = 0;  ///< abs_error / |reference| (infinite when the reference is 0)
};

/// The worst errors of one object's columns. The object id is a column name up to its last '/'
/// (`root/bob/dofs` for `root/bob/dofs/p0.x`); a column without '/' (`time`, `kinetic`, …) is its
/// own object.
struct ObjectSummary {
  std::string object;
  std::size_t columns = 0;     ///< columns of this object compared (present in both files)
  std::size_t mismatches = 0;  ///< values outside the tolerance
  double max_abs_error = 0;    ///< over every compared value of the object
  long max_abs_step = 0;       ///< where max_abs_error occurred
  std::string max_abs_column;
  double max_rel_error = 0;  ///< over the values whose reference is not 0
  long max_rel_step = 0;
  std::string max_rel_column;
  bool has_nan = false;  ///< a NaN appeared in a compared value of this object
};

/// The value that came closest to leaving its tolerance (the largest |a − b| / (atol + rtol·|b|)),
/// with the error that decided it: the absolute error when the absolute tolerance is the larger
/// part of the allowance (atol ≥ rtol·|b|: a reference at or near 0, whose relative error means
/// nothing), the relative error otherwise.
struct DecidingError {
  std::string at;  ///< "step 40", or "t = 0.25" for a comparison aligned by time
  std::string column;
  double reference = 0;
  double candidate = 0;
  double abs_error = 0;
  double rel_error = 0;        ///< abs_error / |reference| (infinite when the reference is 0)
  double tolerance_ratio = 0;  ///< abs_error / (atol + rtol·|reference|): ≤ 1 passes
  bool absolute = false;       ///< the absolute tolerance decided (atol ≥ rtol·|reference|)
};

/// The DecidingError of one value (its tolerance ratio infinite when either value is NaN).
DecidingError MakeDecidingError(const Tolerances& tolerances, std::string at, std::string column,
                                double reference, double candidate);

/// "abs 3.1e-13" or "rel 2e-10": the error that decided, for a summary table ("0" when every
/// value was equal, "nan" for a NaN).
std::string FormatDecidingError(const std::optional<DecidingError>& deciding);

/// One line: where the value closest to its tolerance is, its error (absolute or relative, the
/// one that decided) and the fraction of the allowance it used.
std::string DescribeDecidingError(const DecidingError& deciding);

/// The outcome of one comparison. `match` is true only when both files have the same columns and
/// steps and every value is within the tolerance: a missing or extra column or step is a mismatch.
struct ComparisonReport {
  bool match = false;
  Tolerances tolerances;
  std::vector<std::string> missing_columns;  ///< in the reference, not in the candidate
  std::vector<std::string> extra_columns;    ///< in the candidate, not in the reference
  std::vector<long> missing_steps;           ///< in the reference, not in the candidate (sorted)
  std::vector<long> extra_steps;             ///< in the candidate, not in the reference (sorted)
  std::size_t compared_rows = 0;             ///< steps present in both
  std::size_t compared_columns = 0;          ///< columns present in both
  std::size_t compared_values = 0;
  std::size_t mismatched_values = 0;
  /// The first value outside the tolerance: the smallest step, then the first column in the
  /// reference's header order.
  std::optional<ValueMismatch> first_mismatch;
  /// The largest |a − b| / (atol + rtol·|b|) over all values (≤ 1 passes): how close to failing.
  double worst_tolerance_ratio = 0;
  double max_abs_error = 0;  ///< over all objects
  double max_rel_error = 0;  ///< over all objects (values whose reference is not 0)
  /// The value with the largest tolerance ratio and the error that decided it; none when every
  /// compared value was exactly equal.
  std::optional<DecidingError> deciding;
  std::vector<ObjectSummary> objects;  ///< in the reference's header order
};

/// Compares a candidate trajectory with a reference.
ComparisonReport CompareTrajectories(const Trajectory& reference, const Trajectory& candidate,
                                     const Tolerances& tolerances);

/// Parses both texts and compares them. Throws TrajectoryFormatError (naming `reference_name` or
/// `candidate_name`) when either is not a trajectory CSV.
ComparisonReport CompareTrajectories(std::string_view reference_csv, std::string_view candidate_csv,
                                     const Tolerances& tolerances,
                                     std::string_view reference_name = "reference",
                                     std::string_view candidate_name = "candidate");

/// Options of FormatReport.
struct FormatOptions {
  std::size_t max_listed = 5;  ///< missing/extra columns and steps listed before "… and N more"
  bool object_table = true;    ///< append the per-object table
};

/// A short report a person can read: a MATCH/MISMATCH line with the tolerance, the first value
/// that left it (step, column, both values, errors), missing and extra columns and steps, and a
/// table of the worst absolute and relative error per object. Ends with a newline.
std::string FormatReport(const ComparisonReport& report, const FormatOptions& options = {});

/// A one-line summary of a report: "match" or what failed first ("step 40, root/m/p0.y: …",
/// "missing column root/m/p0.x", "missing step 100", …).
std::string FirstFailure(const ComparisonReport& report);

/// Formats a double in the shortest form that parses back to the same value.
std::string FormatExact(double value);

}  // namespace fluxion::regress
