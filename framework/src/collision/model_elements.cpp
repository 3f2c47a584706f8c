#include "collision/model_elements.h"

#include <algorithm>
#include <map>
#include <utility>

namespace fluxion::internal::collision {

VertexLists::VertexLists(Index num_vertices, std::span<const std::array<Index, 2>> pairs) {
  offsets_.assign(static_cast<std::size_t>(num_vertices) + 1, 0);
  for (const auto& [vertex, item] : pairs)
    if (vertex >= 0 && vertex < num_vertices) ++offsets_[static_cast<std::size_t>(vertex) + 1];
  for (std::size_t v = 1; v < offsets_.size(); ++v) offsets_[v] += offsets_[v - 1];
  items_.resize(offsets_.back());
  std::vector<std::size_t> next(offsets_.begin(), offsets_.end() - 1);
  for (const auto& [vertex, item] : pairs)
    if (vertex >= 0 && vertex < num_vertices)
      items_[next[static_cast<std::size_t>(vertex)]++] = item;
}

namespace {

using Edge = std::array<Index, 2>;

Edge Unordered(Index a, Index b) { return a < b ? Edge{a, b} : Edge{b, a}; }

// The edges joining vertices: the topology's, else every triangle and quad side.
std::vector<Edge> ObjectEdges(const ObjectTopology& topology) {
  if (!topology.edges.empty()) return topology.edges;
  std::vector<Edge> sides;
  for (const auto& t : topology.triangles)
    for (int j = 0; j < 3; ++j)
      sides.push_back(
          Unordered(t[static_cast<std::size_t>(j)], t[static_cast<std::size_t>((j + 1) % 3)]));
  for (const auto& q : topology.quads)
    for (int j = 0; j < 4; ++j)
      sides.push_back(
          Unordered(q[static_cast<std::size_t>(j)], q[static_cast<std::size_t>((j + 1) % 4)]));
  std::sort(sides.begin(), sides.end());
  sides.erase(std::unique(sides.begin(), sides.end()), sides.end());
  return sides;
}

VertexLists Neighbours(Index num_points, const std::vector<Edge>& edges) {
  std::vector<std::array<Index, 2>> pairs;
  pairs.reserve(edges.size() * 2);
  for (const auto& [a, b] : edges) {
    pairs.push_back({a, b});
    pairs.push_back({b, a});
  }
  return VertexLists(num_points, pairs);
}

// SOFA's getTriangleFlags for the topology's triangles: the owner of a vertex or an edge is the
// first triangle (lowest index) around it; an edge with one triangle around it is a boundary.
std::vector<int> TriangleFlags(const std::vector<std::array<Index, 3>>& triangles,
                               std::size_t num_elements) {
  std::vector<int> flags(num_elements, 0);
  std::map<Index, Index> first_around_vertex;
  struct EdgeUse {
    Index first_triangle;
    int count;
  };
  std::map<Edge, EdgeUse> edge_use;
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const auto& t = triangles[i];
    for (int j = 0; j < 3; ++j) {
      first_around_vertex.emplace(t[static_cast<std::size_t>(j)], static_cast<Index>(i));
      const Edge e = Unordered(t[static_cast<std::size_t>((j + 1) % 3)],
                               t[static_cast<std::size_t>((j + 2) % 3)]);
      auto [it, inserted] = edge_use.emplace(e, EdgeUse{static_cast<Index>(i), 0});
      ++it->second.count;
    }
  }
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const auto& t = triangles[i];
    int f = 0;
    for (int j = 0; j < 3; ++j) {
      if (first_around_vertex.at(t[static_cast<std::size_t>(j)]) == static_cast<Index>(i))
        f |= kFlagP1 << j;
      const EdgeUse& use = edge_use.at(Unordered(t[static_cast<std::size_t>((j + 1) % 3)],
                                                 t[static_cast<std::size_t>((j + 2) % 3)]));
      if (use.first_triangle == static_cast<Index>(i)) f |= kFlagE23 << j;
      if (use.count == 1) f |= kFlagBoundaryE23 << j;
    }
    flags[i] = f;
  }
  return flags;
}

}  // namespace

ModelElements::ModelElements(const CollisionModelDescription& model)
    : kind_(model.kind), line_model_in_context_(model.line_model_in_context) {
  const ObjectTopology& topology = model.topology;
  switch (kind_) {
    case ElementKind::kPoint:
    case ElementKind::kSphere:
      stride_ = 1;
      size_ = topology.num_points;
      vertices_.resize(static_cast<std::size_t>(size_));
      for (Index i = 0; i < size_; ++i) vertices_[static_cast<std::size_t>(i)] = i;
      radii_ = model.radii;
      default_radius_ = model.radius;
      if (kind_ == ElementKind::kPoint) surface_ = SurfaceNeighbourhood(topology);
      break;
    case ElementKind::kLine: {
      stride_ = 2;
      const std::vector<Edge> edges = SurfaceEdges(topology);
      size_ = static_cast<Index>(edges.size());
      std::vector<std::array<Index, 2>> around;
      for (std::size_t e = 0; e < edges.size(); ++e)
        for (const Index v : edges[e]) {
          vertices_.push_back(v);
          around.push_back({v, static_cast<Index>(e)});
        }
      lines_around_ = VertexLists(topology.num_points, around);
      surface_ = SurfaceNeighbourhood(topology);
      break;
    }
    case ElementKind::kTriangle:
      stride_ = 3;
      for (const auto& t : topology.triangles)
        vertices_.insert(vertices_.end(), t.begin(), t.end());
      for (const auto& q : topology.quads)
        vertices_.insert(vertices_.end(), {q[1], q[2], q[0], q[3], q[0], q[2]});
      size_ = static_cast<Index>(vertices_.size() / 3);
      flags_ = TriangleFlags(topology.triangles, static_cast<std::size_t>(size_));
      break;
  }
  neighbours_ = Neighbours(topology.num_points, ObjectEdges(topology));
}

}  // namespace fluxion::internal::collision
