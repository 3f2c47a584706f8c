#include "components/engine_inputs.h"

namespace fluxion::internal {

std::optional<std::vector<Point3>> ReadPoints(BuildContext& context, const std::string& field,
                                              int dimension) {
  const std::vector<double>& flat = context.parameters().reals(field);
  const auto size = static_cast<std::size_t>(dimension);
  if (flat.size() % size != 0) {
    context.Error(context.type() + " '" + field + "' has " + std::to_string(flat.size()) +
                  " numbers (expected " + std::to_string(dimension) + " per point)");
    return std::nullopt;
  }
  std::vector<Point3> points(flat.size() / size, Point3{0.0, 0.0, 0.0});
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t k = 0; k < size; ++k) points[i][k] = flat[i * size + k];
  return points;
}

std::optional<std::vector<Point3>> PositionsOrState(BuildContext& context, const char* field,
                                                    const char* state_link) {
  if (context.parameters().has(field)) return ReadPoints(context, field);
  const ObjectModel* object = context.LinkedObject(state_link);
  if (object == nullptr) return std::nullopt;
  if (object->dimension != 3) {
    context.Error(context.type() + " needs 3-D positions, but object '" + object->name + "' has " +
                  std::to_string(object->dimension) +
                  " coordinates per point (expected a Vec3 object or '" + field + "')");
    return std::nullopt;
  }
  std::vector<Point3> points(static_cast<std::size_t>(object->num_points));
  for (Index i = 0; i < object->num_points; ++i)
    for (Index k = 0; k < 3; ++k)
      points[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)] =
          object->position[3 * i + k];
  return points;
}

bool CheckIndices(BuildContext& context, const std::string& field, const std::vector<Index>& list,
                  Index points) {
  for (const Index i : list)
    if (i < 0 || i >= points) {
      context.Error(context.type() + " '" + field + "' uses point " + std::to_string(i) +
                    " (expected indices below the " + std::to_string(points) + " points)");
      return false;
    }
  return true;
}

template <std::size_t N>
std::optional<std::vector<std::array<Index, N>>> ReadElements(BuildContext& context,
                                                              const std::string& field,
                                                              Index points) {
  const std::vector<Index>& list = context.parameters().indices(field);
  if (list.size() % N != 0) {
    context.Error(context.type() + " '" + field + "' has " + std::to_string(list.size()) +
                  " indices (expected " + std::to_string(N) + " per element)");
    return std::nullopt;
  }
  if (!CheckIndices(context, field, list, points)) return std::nullopt;
  std::vector<std::array<Index, N>> elements(list.size() / N);
  for (std::size_t e = 0; e < elements.size(); ++e)
    for (std::size_t v = 0; v < N; ++v) elements[e][v] = list[e * N + v];
  return elements;
}

template std::optional<std::vector<std::array<Index, 2>>> ReadElements<2>(BuildContext&,
                                                                          const std::string&,
                                                                          Index);
template std::optional<std::vector<std::array<Index, 3>>> ReadElements<3>(BuildContext&,
                                                                          const std::string&,
                                                                          Index);
template std::optional<std::vector<std::array<Index, 4>>> ReadElements<4>(BuildContext&,
                                                                          const std::string&,
                                                                          Index);
template std::optional<std::vector<std::array<Index, 8>>> ReadElements<8>(BuildContext&,
                                                                          const std::string&,
                                                                          Index);

std::vector<double> Flatten(const std::vector<Point3>& points) {
  std::vector<double> flat;
  flat.reserve(points.size() * 3);
  for (const Point3& x : points) flat.insert(flat.end(), x.begin(), x.end());
  return flat;
}

}  // namespace fluxion::internal
