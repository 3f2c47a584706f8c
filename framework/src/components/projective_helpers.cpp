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

std::vector<double> InitialPositions(const ObjectModel& object, const std::vector<Index>& points) {
  std::vector<double> positions;
  positions.reserve(points.size() * static_cast<std::size_t>(object.dimension));
  for (const Index point : points)
    for (int axis = 0; axis < object.dimension; ++axis)
      positions.push_back(object.position[point * object.dimension + axis]);
  return positions;
}

}  // namespace fluxion::internal
