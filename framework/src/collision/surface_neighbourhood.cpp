#include "collision/surface_neighbourhood.h"

#include <map>

namespace fluxion::internal::collision {

namespace {

using Edge = std::array<Index, 2>;

Edge Unordered(Index a, Index b) { return a < b ? Edge{a, b} : Edge{b, a}; }

bool Within(Index v, Index n) { return v >= 0 && v < n; }

}  // namespace

std::vector<Edge> SurfaceEdges(const ObjectTopology& topology) {
  if (!topology.edges.empty()) return topology.edges;
  std::vector<Edge> edges;
  std::map<Edge, Index> seen;
  for (const auto& t : topology.triangles)
    for (int j = 0; j < 3; ++j) {
      const Index v1 = t[static_cast<std::size_t>((j + 1) % 3)];
      const Index v2 = t[static_cast<std::size_t>((j + 2) % 3)];
      if (seen.emplace(Unordered(v1, v2), static_cast<Index>(edges.size())).second)
        edges.push_back({v1, v2});
    }
  return edges;
}

IndexLists::IndexLists(const std::vector<std::vector<Index>>& rows) {
  offsets_.reserve(rows.size() + 1);
  offsets_.push_back(0);
  for (const auto& row : rows) {
    items_.insert(items_.end(), row.begin(), row.end());
    offsets_.push_back(items_.size());
  }
}

SurfaceNeighbourhood::SurfaceNeighbourhood(const ObjectTopology& topology)
    : triangles_(topology.triangles), edges_(SurfaceEdges(topology)) {
  const Index n = topology.num_points;
  const auto points = static_cast<std::size_t>(n > 0 ? n : 0);
  // Around each vertex: its triangles and edges, in index order.
  std::vector<std::vector<Index>> triangles_of(points), edges_of(points);
  for (std::size_t t = 0; t < triangles_.size(); ++t)
    for (const Index v : triangles_[t])
      if (Within(v, n)) triangles_of[static_cast<std::size_t>(v)].push_back(static_cast<Index>(t));
  std::map<Edge, Index> index_of;
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    index_of.emplace(Unordered(edges_[e][0], edges_[e][1]), static_cast<Index>(e));
    for (const Index v : edges_[e])
      if (Within(v, n)) edges_of[static_cast<std::size_t>(v)].push_back(static_cast<Index>(e));
  }
  // Around each edge: a triangle whose side j = (t[j+1], t[j+2]) starts where the edge starts is
  // on its left and goes first; the others are appended (a side the edges lack is skipped).
  std::vector<std::vector<Index>> around(edges_.size());
  for (std::size_t t = 0; t < triangles_.size(); ++t)
    for (int j = 0; j < 3; ++j) {
      const Index v1 = triangles_[t][static_cast<std::size_t>((j + 1) % 3)];
      const Index v2 = triangles_[t][static_cast<std::size_t>((j + 2) % 3)];
      const auto found = index_of.find(Unordered(v1, v2));
      if (found == index_of.end()) continue;
      std::vector<Index>& list = around[static_cast<std::size_t>(found->second)];
      if (edges_[static_cast<std::size_t>(found->second)][0] == v1)
        list.insert(list.begin(), static_cast<Index>(t));
      else
        list.push_back(static_cast<Index>(t));
    }
  around_vertex_ = IndexLists(triangles_of);
  edges_around_vertex_ = IndexLists(edges_of);
  around_edge_ = IndexLists(around);
}

}  // namespace fluxion::internal::collision
