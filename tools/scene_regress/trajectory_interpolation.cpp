#include "trajectory_interpolation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "fluxion/text.h"

namespace fluxion::regress {

bool ParsePointCoordinate(const std::string& column, PointCoordinate& coordinate) {
  // ID/p<digits>.<axis>: the last '/' ends the object id.
  const std::size_t slash = column.rfind('/');
  if (slash == std::string::npos || slash == 0) return false;
  const std::string_view tail = std::string_view(column).substr(slash + 1);
  if (tail.size() < 4 || (tail[0] != 'p' && tail[0] != 'v')) return false;
  const std::size_t dot = tail.find('.');
  if (dot == std::string_view::npos || dot < 2) return false;
  const std::string_view point = tail.substr(1, dot - 1);
  const std::string_view axis = tail.substr(dot + 1);
  if (!std::ranges::all_of(point, [](char c) { return c >= '0' && c <= '9'; })) return false;
  if (axis != "x" && axis != "y" && axis != "z") return false;
  coordinate.object = column.substr(0, slash);
  coordinate.kind = tail[0];
  coordinate.point = std::string(point);
  coordinate.axis = std::string(axis);
  return true;
}

TrajectoryInterpolator::TrajectoryInterpolator(const Trajectory& trajectory, std::string_view name)
    : trajectory_(trajectory) {
  const auto time_column = std::ranges::find(trajectory.columns, "time");
  if (time_column == trajectory.columns.end())
    throw TrajectoryFormatError(std::string(name) +
                                ":1: no 'time' column (expected a trajectory CSV header "
                                "step,time,…, to align by time)");
  if (trajectory.rows.empty())
    throw TrajectoryFormatError(std::string(name) +
                                ":2: no rows (expected at least one recorded step)");
  const std::size_t t_index = static_cast<std::size_t>(time_column - trajectory.columns.begin());
  double smallest_spacing = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < trajectory.rows.size(); ++r) {
    const double t = trajectory.rows[r][t_index];
    // Row r is line r + 2 of the file (the header is line 1).
    if (!std::isfinite(t) || (r > 0 && !(t > times_.back())))
      throw TrajectoryFormatError(
          std::string(name) + ":" + std::to_string(r + 2) + ": time " + FormatExact(t) +
          (r > 0 ? " after " + FormatExact(times_.back()) : std::string()) +
          " (expected finite times increasing from row to row, to align by time)");
    if (r > 0) smallest_spacing = std::min(smallest_spacing, t - times_.back());
    times_.push_back(t);
  }
  slack_ = std::isfinite(smallest_spacing) ? 1e-9 * smallest_spacing : 0.0;

  // Each position coordinate whose velocity is recorded is read by Hermite.
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t c = 0; c < trajectory.columns.size(); ++c)
    index.emplace(trajectory.columns[c], c);
  rules_.assign(trajectory.columns.size(), InterpolationRule::kCubic);
  velocity_of_.assign(trajectory.columns.size(), 0);
  for (std::size_t c = 0; c < trajectory.columns.size(); ++c) {
    PointCoordinate coordinate;
    if (!ParsePointCoordinate(trajectory.columns[c], coordinate) || coordinate.kind != 'p')
      continue;
    const auto velocity =
        index.find(coordinate.object + "/v" + coordinate.point + "." + coordinate.axis);
    if (velocity == index.end()) continue;
    rules_[c] = InterpolationRule::kHermite;
    velocity_of_[c] = velocity->second;
  }
}

TrajectoryInterpolator::Where TrajectoryInterpolator::Locate(double t) const {
  // The first recorded time above t; the interval starts one row before it.
  const auto above = std::upper_bound(times_.begin(), times_.end(), t);
  std::size_t row =
      above == times_.begin() ? 0 : static_cast<std::size_t>(above - times_.begin()) - 1;
  // A recorded time within the slack, on either side, is read as written.
  if (std::fabs(t - times_[row]) <= slack_) return {row, true};
  if (row + 1 < times_.size() && std::fabs(times_[row + 1] - t) <= slack_) return {row + 1, true};
  if (row + 1 >= times_.size()) return {row, true};  // past the end: the caller checked the span
  return {row, false};
}

double TrajectoryInterpolator::ValueAt(std::size_t column, double t, const Where& where) const {
  if (where.exact) return trajectory_.rows[where.row][column];
  if (rules_[column] == InterpolationRule::kHermite)
    return Hermite(column, velocity_of_[column], where.row, t);
  return Cubic(column, where.row, t);
}

// x(t) on [t_k, t_{k+1}] from x and ẋ = v at both ends:
//   x = h00(s)·x_k + h10(s)·h·v_k + h01(s)·x_{k+1} + h11(s)·h·v_{k+1},  s = (t − t_k)/h,
//   h00 = (1 + 2s)(1 − s)², h10 = s(1 − s)², h01 = s²(3 − 2s), h11 = s²(s − 1).
double TrajectoryInterpolator::Hermite(std::size_t column, std::size_t velocity, std::size_t row,
                                       double t) const {
  const double h = times_[row + 1] - times_[row];
  const double s = (t - times_[row]) / h;
  const std::vector<double>& a = trajectory_.rows[row];
  const std::vector<double>& b = trajectory_.rows[row + 1];
  const double u = 1.0 - s;
  return (1.0 + 2.0 * s) * u * u * a[column] + s * u * u * h * a[velocity] +
         s * s * (3.0 - 2.0 * s) * b[column] + s * s * (s - 1.0) * h * b[velocity];
}

// The Lagrange polynomial through the (up to) four rows nearest the interval [t_k, t_{k+1}]:
// rows k−1 … k+2, shifted inwards at the ends of the span; fewer rows, lower degree.
double TrajectoryInterpolator::Cubic(std::size_t column, std::size_t row, double t) const {
  const std::size_t count = std::min<std::size_t>(4, times_.size());
  std::size_t first = row > 0 ? row - 1 : 0;
  first = std::min(first, times_.size() - count);
  double value = 0.0;
  for (std::size_t i = first; i < first + count; ++i) {
    double weight = 1.0;
    for (std::size_t j = first; j < first + count; ++j)
      if (j != i) weight *= (t - times_[j]) / (times_[i] - times_[j]);
    value += weight * trajectory_.rows[i][column];
  }
  return value;
}

}  // namespace fluxion::regress
