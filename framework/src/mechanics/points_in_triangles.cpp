#include "mechanics/points_in_triangles.h"

#include <string>

#include "fluxion/errors.h"

namespace fluxion::internal {

PointsInTriangles LocatePointsInTriangles(const Topology& topology,
                                          const std::vector<Index>& triangles,
                                          const std::vector<double>& coordinates) {
  FLUXION_DEMAND(coordinates.size() == 2 * triangles.size());
  PointsInTriangles points;
  for (std::size_t k = 0; k < triangles.size(); ++k) {
    const Index t = triangles[k];
    if (t < 0 || static_cast<std::size_t>(t) >= topology.triangles.size())
      throw ConfigError("", "a point is added in triangle " + std::to_string(t) +
                                " (expected one of the " +
                                std::to_string(topology.triangles.size()) + " triangles)");
    const auto& triangle = topology.triangles[static_cast<std::size_t>(t)];
    const double c0 = coordinates[2 * k], c1 = coordinates[2 * k + 1];
    points.ancestors.push_back({triangle[0], triangle[1], triangle[2]});
    points.weights.push_back({c0, c1, 1 - c0 - c1});
  }
  return points;
}

Vector AppendPoints(const Vector& values, int dimension, const PointsInTriangles& points) {
  const Index old = values.size();
  Vector out(old + static_cast<Index>(points.ancestors.size()) * dimension);
  out.head(old) = values;
  for (std::size_t k = 0; k < points.ancestors.size(); ++k) {
    auto added = out.segment(old + static_cast<Index>(k) * dimension, dimension);
    added.setZero();
    for (int j = 0; j < 3; ++j)
      added += points.weights[k][j] * values.segment(points.ancestors[k][j] * dimension, dimension);
  }
  return out;
}

Topology AppendPoints(const Topology& topology, const PointsInTriangles& points) {
  Topology out = topology;
  for (std::size_t k = 0; k < points.ancestors.size(); ++k) {
    std::array<double, 3> point = {0, 0, 0};
    for (int j = 0; j < 3; ++j)
      for (int a = 0; a < 3; ++a)
        point[a] += points.weights[k][j] *
                    topology.points[static_cast<std::size_t>(points.ancestors[k][j])][a];
    out.points.push_back(point);
  }
  return out;
}

}  // namespace fluxion::internal
