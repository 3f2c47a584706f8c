// SOFA's removal of triangles, with the isolated edges and points after them (sources in the
// header). SOFA keeps, per point and per edge, the list of triangles around it; only whether a
// list becomes empty decides anything, so counts stand in for the lists here.
#include "mechanics/topology_removal.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <utility>

#include "fluxion/errors.h"

namespace fluxion::internal {

namespace {

// Removes the slots `sorted_descending` from `items` as SOFA does: each removed slot takes the
// item then last, and the list shrinks by one. `origin` follows the items (new → old).
template <class T>
void RemoveByMovingLast(std::vector<T>& items, std::vector<Index>& origin,
                        const std::vector<Index>& sorted_descending) {
  for (const Index id : sorted_descending) {
    const auto slot = static_cast<std::size_t>(id);
    items[slot] = items.back();
    origin[slot] = origin.back();
    items.pop_back();
    origin.pop_back();
  }
}

// Old → new from new → old, kRemoved for the old entries that are gone.
std::vector<Index> MapFromOrigin(const std::vector<Index>& origin, std::size_t old_size) {
  std::vector<Index> map(old_size, TopologyRemoval::kRemoved);
  for (std::size_t k = 0; k < origin.size(); ++k)
    map[static_cast<std::size_t>(origin[k])] = static_cast<Index>(k);
  return map;
}

std::vector<Index> Iota(std::size_t n) {
  std::vector<Index> values(n);
  std::iota(values.begin(), values.end(), Index{0});
  return values;
}

}  // namespace

TopologyRemoval RemoveTriangles(const Topology& topology, const std::vector<Index>& ids) {
  if (!topology.quads.empty() || !topology.tetrahedra.empty() || !topology.hexahedra.empty())
    throw ConfigError("",
                      "removing triangles from a topology with quads or volumes is not "
                      "supported (expected a triangle topology)");
  TopologyRemoval removal;
  const auto num_triangles = static_cast<Index>(topology.triangles.size());
  // SOFA skips (and warns about) indices past the end, then sorts the rest in descending order.
  // A repeated index would make SOFA read past its array: it is removed once here.
  for (const Index id : ids) {
    if (id < 0 || id >= num_triangles)
      removal.out_of_range.push_back(id);
    else
      removal.removed_triangles.push_back(id);
  }
  std::vector<Index>& triangles_out = removal.removed_triangles;
  std::sort(triangles_out.begin(), triangles_out.end(), std::greater<Index>());
  triangles_out.erase(std::unique(triangles_out.begin(), triangles_out.end()), triangles_out.end());

  // Each triangle's edges (SOFA's edgesInTriangle: edge j is the side opposite vertex j), found
  // in the container's edge list; an edge listed twice is found at its first place, as SOFA's
  // getEdgeIndex finds it.
  std::map<std::pair<Index, Index>, Index> edge_index;
  for (std::size_t e = 0; e < topology.edges.size(); ++e) {
    const auto [a, b] = topology.edges[e];
    edge_index.emplace(std::minmax(a, b), static_cast<Index>(e));
  }
  std::vector<std::array<Index, 3>> edges_in_triangle(topology.triangles.size());
  std::vector<int> triangles_around_point(topology.points.size(), 0);
  std::vector<int> triangles_around_edge(topology.edges.size(), 0);
  for (std::size_t t = 0; t < topology.triangles.size(); ++t) {
    const auto& triangle = topology.triangles[t];
    for (int j = 0; j < 3; ++j) {
      const Index a = triangle[static_cast<std::size_t>((j + 1) % 3)];
      const Index b = triangle[static_cast<std::size_t>((j + 2) % 3)];
      const auto found = edge_index.find(std::minmax(a, b));
      if (found == edge_index.end())
        throw ConfigError("", "triangle " + std::to_string(t) + " has the side " +
                                  std::to_string(a) + "-" + std::to_string(b) +
                                  " that is not among the topology's edges (expected every "
                                  "side of every triangle to be an edge)");
      edges_in_triangle[t][static_cast<std::size_t>(j)] = found->second;
      ++triangles_around_edge[static_cast<std::size_t>(found->second)];
      ++triangles_around_point[static_cast<std::size_t>(triangle[static_cast<std::size_t>(j)])];
    }
  }

  // removeTrianglesProcess: each removed triangle leaves the shells of its points and edges (an
  // empty shell marks the point or edge for removal), and the last triangle takes its slot.
  std::vector<std::array<Index, 3>> triangles = topology.triangles;
  std::vector<Index> triangle_origin = Iota(triangles.size());
  for (const Index id : triangles_out) {
    const auto slot = static_cast<std::size_t>(id);
    for (std::size_t j = 0; j < 3; ++j) {
      const Index point = triangles[slot][j];
      if (--triangles_around_point[static_cast<std::size_t>(point)] == 0)
        removal.removed_points.push_back(point);
    }
    for (std::size_t j = 0; j < 3; ++j) {
      const Index edge = edges_in_triangle[slot][j];
      if (--triangles_around_edge[static_cast<std::size_t>(edge)] == 0)
        removal.removed_edges.push_back(edge);
    }
    triangles[slot] = triangles.back();
    edges_in_triangle[slot] = edges_in_triangle.back();
    triangle_origin[slot] = triangle_origin.back();
    triangles.pop_back();
    edges_in_triangle.pop_back();
    triangle_origin.pop_back();
  }

  // The isolated edges, then the isolated points, each in descending order (removeEdgesWarning,
  // removePointsWarning), the last one moved into each removed slot.
  std::sort(removal.removed_edges.begin(), removal.removed_edges.end(), std::greater<Index>());
  std::sort(removal.removed_points.begin(), removal.removed_points.end(), std::greater<Index>());
  std::vector<std::array<Index, 2>> edges = topology.edges;
  std::vector<Index> edge_origin = Iota(edges.size());
  RemoveByMovingLast(edges, edge_origin, removal.removed_edges);
  std::vector<std::array<double, 3>> points = topology.points;
  std::vector<Index> point_origin = Iota(points.size());
  RemoveByMovingLast(points, point_origin, removal.removed_points);

  removal.point_map = MapFromOrigin(point_origin, topology.points.size());
  removal.edge_map = MapFromOrigin(edge_origin, topology.edges.size());
  removal.triangle_map = MapFromOrigin(triangle_origin, topology.triangles.size());
  // The elements name the moved points by their new index (SOFA renames the last point in the
  // elements around it, one removal at a time: the same end result).
  const auto rename = [&](Index point) {
    const Index renamed = removal.point_map[static_cast<std::size_t>(point)];
    if (renamed == TopologyRemoval::kRemoved)
      throw ConfigError("", "edge on point " + std::to_string(point) +
                                " stays while the point is removed (expected every edge on a "
                                "removed point to belong to a removed triangle)");
    return renamed;
  };
  for (auto& triangle : triangles)
    for (Index& v : triangle) v = rename(v);
  for (auto& edge : edges)
    for (Index& v : edge) v = rename(v);

  removal.topology.points = std::move(points);
  removal.topology.edges = std::move(edges);
  removal.topology.triangles = std::move(triangles);
  removal.point_origin = std::move(point_origin);
  removal.edge_origin = std::move(edge_origin);
  removal.triangle_origin = std::move(triangle_origin);
  return removal;
}

std::vector<Index> RenumberPointSubset(const std::vector<Index>& indices,
                                       const std::vector<Index>& point_map) {
  std::vector<Index> renumbered;
  renumbered.reserve(indices.size());
  for (const Index index : indices) {
    // An index past the points was never a point of the topology: SOFA's handler never meets
    // it either, and it stays as it is.
    if (index < 0 || static_cast<std::size_t>(index) >= point_map.size()) {
      renumbered.push_back(index);
      continue;
    }
    const Index mapped = point_map[static_cast<std::size_t>(index)];
    if (mapped != TopologyRemoval::kRemoved) renumbered.push_back(mapped);
  }
  return renumbered;
}

Vector RenumberPointValues(const Vector& values, int dimension,
                           const std::vector<Index>& point_origin) {
  Vector renumbered(static_cast<Index>(point_origin.size()) * dimension);
  for (std::size_t k = 0; k < point_origin.size(); ++k)
    renumbered.segment(static_cast<Index>(k) * dimension, dimension) =
        values.segment(point_origin[k] * dimension, dimension);
  return renumbered;
}

}  // namespace fluxion::internal
