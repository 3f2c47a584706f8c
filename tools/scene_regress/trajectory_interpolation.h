// A recorded trajectory read at any time inside its span, for comparing two runs whose recorded
// times differ (scene-runner --compare --align time: two solvers, or one solver at two dt).
//
// How a column is read between two recorded rows t_k < t < t_{k+1} (h = t_{k+1} − t_k):
//   - a position coordinate `ID/p<i>.<axis>` whose velocity `ID/v<i>.<axis>` is recorded too:
//     cubic Hermite on x and v at both rows. Error ≤ h⁴/384 · max|x⁗| (fourth order): below the
//     error of any solver of order ≤ 4 run at a step h, and far below it for a run recorded at a
//     step much smaller than the other run's.
//   - every other column (velocities, energies, solver outputs, and positions recorded without
//     their velocity): the cubic through the four nearest rows (Lagrange; one-sided at the ends of
//     the span). Error ≤ 0.0234 · h⁴ · max|f⁗| inside, about 9 times Hermite's, still fourth order;
//     it overshoots where a column is not smooth (a contact's velocity jump).
//   With fewer than four rows the polynomial through all of them (order = number of rows).
// A time within 1e-9 of the local row spacing of a recorded time reads that row as written:
// where two runs share times (dt and dt/64, both recorded every step) nothing is interpolated.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "trajectory_compare.h"

namespace fluxion::regress {

/// How a column is read between recorded rows.
enum class InterpolationRule {
  kHermite,  ///< a position with its recorded velocity: cubic Hermite
  kCubic,    ///< the cubic through the four nearest rows
};

/// Reads a parsed trajectory at times inside its span. The trajectory must outlive the reader.
class TrajectoryInterpolator {
 public:
  /// `trajectory` must have a `time` column whose values increase strictly from row to row (in
  /// file order). Throws TrajectoryFormatError naming `name` and the row otherwise.
  explicit TrajectoryInterpolator(const Trajectory& trajectory,
                                  std::string_view name = "trajectory");

  /// A position inside the trajectory: the row interval holding a time, or an exact row.
  struct Where {
    std::size_t row = 0;  ///< t_row ≤ t < t_{row+1}, or the exact row
    bool exact = false;   ///< t is a recorded time (within 1e-9 of the row spacing)
  };
  /// Where `t` falls; t must lie inside [first_time(), last_time()] (up to the 1e-9 slack).
  Where Locate(double t) const;

  /// The value of `column` (index into Trajectory::columns) at `t`, found by Locate(t).
  double ValueAt(std::size_t column, double t, const Where& where) const;

  InterpolationRule rule(std::size_t column) const { return rules_[column]; }
  double first_time() const { return times_.front(); }
  double last_time() const { return times_.back(); }
  std::size_t rows() const { return times_.size(); }
  /// The slack within which a time counts as a recorded one (1e-9 of the smallest row spacing).
  double slack() const { return slack_; }

 private:
  double Hermite(std::size_t column, std::size_t velocity, std::size_t row, double t) const;
  double Cubic(std::size_t column, std::size_t row, double t) const;

  const Trajectory& trajectory_;
  std::vector<double> times_;
  std::vector<InterpolationRule> rules_;
  std::vector<std::size_t> velocity_of_;  ///< kHermite: the column of the matching velocity
  double slack_ = 0;
};

/// "p" or "v" with the point and axis of a column named `ID/p<i>.<axis>` / `ID/v<i>.<axis>`:
/// false for any other column.
struct PointCoordinate {
  std::string object;  ///< ID
  char kind = 'p';     ///< 'p' position, 'v' velocity
  std::string point;   ///< i, as written
  std::string axis;    ///< x, y or z
};
bool ParsePointCoordinate(const std::string& column, PointCoordinate& coordinate);

}  // namespace fluxion::regress
