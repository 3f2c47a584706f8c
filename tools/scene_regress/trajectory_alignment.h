// Comparison of two trajectories at common *times* rather than common step numbers: two solvers,
// or one solver at two time steps (scene-runner --compare REF --align time). Pairing rows by step
// number compares step 50 of a dt = 0.005 run with step 50 of a dt = 0.0001 run, 0.25 s against
// 0.005 s; this compares the runs where they are at the same time.
//
// The times compared: the recorded times of the run recorded less densely (fewer rows over the
// span the two runs share; the reference's on a tie), inside the other run's span. The other,
// denser run is read there by TrajectoryInterpolator (cubic Hermite on positions with their
// velocities, the cubic through four rows otherwise: both fourth order), so the interpolation
// error is that of the denser spacing. In a convergence study (runs at h, h/2, h/4 against a
// reference at h/64) the times are the coarse run's, the reference is read at them, and when it
// was recorded at every step those times are rows of it: nothing is interpolated at all.
//
// The errors over time, per object: at each compared time, for each point of the object the
// distance between the two runs' positions (‖Δx‖, m) and velocities (‖Δv‖, m/s) over the point's
// axes, and e(t) the largest over the object's points; then max over the times of e, its root
// mean square sqrt(mean e(t)²) and e at the last compared time. A column that is not a point
// coordinate (an energy, a solver output) is an object of its own, e(t) = |Δ|.
//
// Pass or fail uses the same per-value rule as the step comparison, |a − b| ≤ atol + rtol·|b|
// with b the reference's value (interpolated or not); the `time` column is the alignment, not a
// compared value.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trajectory_compare.h"

namespace fluxion::regress {

/// How scene-runner --compare pairs the rows of the two runs.
enum class Alignment {
  kStep,  ///< by step number (the default): the same run, bit for bit or within a tolerance
  kTime,  ///< by time (CompareAtCommonTimes): runs at different dt, or different solvers
};

/// The errors of one quantity of one object over the compared times.
struct ErrorOverTime {
  std::string object;    ///< object id (`root/bob/dofs`), or the column itself (`kinetic`)
  std::string quantity;  ///< "position" [m], "velocity" [m/s], or "value" for a column of its own
  std::size_t columns = 0;
  double max = 0;       ///< max over the compared times of e(t)
  double max_time = 0;  ///< the time of that maximum
  double rms = 0;       ///< sqrt(mean over the compared times of e(t)²)
  double end = 0;       ///< e(t) at the last compared time
  bool has_nan = false;
};

/// One value outside the tolerance, located by time.
struct TimeMismatch {
  double time = 0;
  std::string column;
  double reference = 0;
  double candidate = 0;
  double abs_error = 0;
  double rel_error = 0;
};

/// The outcome of a comparison aligned by time.
struct TimeAlignedReport {
  bool match = false;
  Tolerances tolerances;
  /// The compared times are the reference's recorded ones (the candidate read between its rows),
  /// or else the candidate's (the reference read between its rows).
  bool on_reference_times = true;
  std::size_t reference_rows = 0, candidate_rows = 0;
  std::size_t compared_times = 0;
  /// Compared times that are recorded times of the other run too (read as written).
  std::size_t exact_times = 0;
  double first_time = 0, last_time = 0;  ///< the first and last compared times
  /// The first and last recorded times of each run. Runs that start or end at different times
  /// (beyond 1e-9 of the row spacing) mismatch: only the shared part is compared.
  double reference_start = 0, reference_end = 0, candidate_start = 0, candidate_end = 0;
  bool same_span = true;
  /// Times of the chosen run outside the other's span: not compared.
  std::size_t outside_span = 0;
  std::vector<std::string> missing_columns;  ///< in the reference only
  std::vector<std::string> extra_columns;    ///< in the candidate only
  std::size_t compared_columns = 0;          ///< columns in both, `time` left out
  std::size_t compared_values = 0;
  std::size_t mismatched_values = 0;
  /// Columns read by cubic Hermite / by the four-row cubic in the interpolated run.
  std::size_t hermite_columns = 0, cubic_columns = 0;
  std::optional<TimeMismatch> first_mismatch;  ///< the earliest time, then the reference's order
  std::optional<DecidingError> deciding;       ///< the value closest to its tolerance
  std::vector<ErrorOverTime> errors;           ///< in the reference's column order
};

/// Compares `candidate` with `reference` at common times (see the file comment). Throws
/// TrajectoryFormatError (naming the file) when either has no `time` column, no rows, or times
/// that do not increase.
TimeAlignedReport CompareAtCommonTimes(const Trajectory& reference, const Trajectory& candidate,
                                       const Tolerances& tolerances,
                                       std::string_view reference_name = "reference",
                                       std::string_view candidate_name = "candidate");

/// The report a person reads: MATCH/MISMATCH with the rule, which times were compared and how the
/// other run was read there, the first failure, and the table of errors over time per object
/// (max and when, RMS, at the end). Ends with a newline.
std::string FormatTimeAlignedReport(const TimeAlignedReport& report,
                                    const FormatOptions& options = {});

}  // namespace fluxion::regress
