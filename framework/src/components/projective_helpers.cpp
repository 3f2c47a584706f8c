#include "components/projective_helpers.h"

#include <cmath>

#include "components/point_selection.h"

namespace fluxion::internal {

std::vector<Index> ListedPoints(BuildContext& context, const ObjectModel& object,
                                const char* field) {
  std::vector<Index> points;
  for (const Index index : context.parameters().indices(field))
    if (CheckIndex(context, index, object, "index")) points.push_back(index);
  return points;
}

bool ReadVector(BuildContext& context, const ObjectModel& object, const char* field,
                std::vector<double>& vector) {
  const std::vector<double>& values = context.parameters().reals(field);
  if (values.size() < static_cast<std::size_t>(object.dimension)) {
    context.Error(context.type() + " '" + field + "' has " + std::to_string(values.size()) +
                  " numbers (expected " + std::to_string(object.dimension) + ")");
    return false;
  }
  vector.assign(values.begin(), values.begin() + object.dimension);
  return true;
}

double Norm(std::span<const double> vector) {
  double sum = 0.0;
  for (const double value : vector) sum += value * value;
  return std::sqrt(sum);
}

InterpolatedMovement::InterpolatedMovement(std::vector<Index> points, int dimension,
                                           std::vector<double> initial,
                                           std::vector<double> final_positions, double begin,
                                           double end)
    : points_(std::move(points)),
      dimension_(dimension),
      initial_(std::move(initial)),
      final_(std::move(final_positions)),
      begin_(begin),
      end_(end) {}

void InterpolatedMovement::ProjectPosition(double time, std::span<double> x) const {
  const double total = end_ - begin_;
  const bool moving = time > begin_ && time <= end_ && total > 0.0;
  if (!moving && !(time > end_)) return;
  const auto d = static_cast<std::size_t>(dimension_);
  for (std::size_t p = 0; p < points_.size(); ++p) {
    for (std::size_t a = 0; a < d; ++a) {
      const double x0 = initial_[p * d + a], xf = final_[p * d + a];
      // SOFA's expression: ((x_f − x₀)·t + (x₀·e − x_f·b)) / (e − b).
      x[static_cast<std::size_t>(points_[p]) * d + a] =
          moving ? ((xf - x0) * time + (x0 * end_ - xf * begin_)) / total : xf;
    }
  }
}

void InterpolatedMovement::ProjectVelocity(double /*time*/, std::span<double> v) const {
  const auto d = static_cast<std::size_t>(dimension_);
  for (const Index point : points_)
    for (std::size_t a = 0; a < d; ++a) v[static_cast<std::size_t>(point) * d + a] = 0.0;
}

void InterpolatedMovement::RemovePointMovingLast(Index point, Index last) {
  // The same entries leave x₀ and x_f: x_f's first, while the indices still say which.
  const auto d = static_cast<std::size_t>(dimension_);
  for (std::size_t k = points_.size(); k-- > 0;)
    if (points_[k] == point)
      final_.erase(final_.begin() + static_cast<std::ptrdiff_t>(k * d),
                   final_.begin() + static_cast<std::ptrdiff_t>((k + 1) * d));
  RemoveMovingLast(points_, point, last, &initial_, d);
}

std::vector<double> InitialPositions(const ObjectModel& object, const std::vector<Index>& points) {
  std::vector<double> positions;
  positions.reserve(points.size() * static_cast<std::size_t>(object.dimension));
  for (const Index point : points)
    for (int axis = 0; axis < object.dimension; ++axis)
      positions.push_back(object.position[point * object.dimension + axis]);
  return positions;
}

}  // namespace fluxion::internal
