// A mapped surface kept live (see the header).
#include "mechanics/surface_shells.h"

#include <algorithm>
#include <map>
#include <utility>

#include "mechanics/topology_elements.h"

namespace fluxion::internal {

namespace {

// Takes `value` out of `list` (its order does not matter: the last entry takes its place).
void Erase(std::vector<Index>& list, Index value) {
  const auto found = std::find(list.begin(), list.end(), value);
  if (found == list.end()) return;
  *found = list.back();
  list.pop_back();
}

void Rename(std::vector<Index>& list, Index from, Index to) {
  for (Index& v : list)
    if (v == from) v = to;
}

template <std::size_t N>
void Rename(std::array<Index, N>& element, Index from, Index to) {
  for (Index& v : element)
    if (v == from) v = to;
}

}  // namespace

std::optional<SurfaceShells> SurfaceShells::Build(const Topology& surface,
                                                  std::size_t max_triangles,
                                                  std::size_t max_edges) {
  if (!surface.quads.empty() || !surface.tetrahedra.empty() || !surface.hexahedra.empty())
    return std::nullopt;
  const std::size_t points = surface.points.size();
  SurfaceShells shells;
  shells.triangles_around_vertex_.resize(points);
  shells.edges_around_vertex_.resize(points);
  std::map<ElementKey, Index> edge_index;
  for (std::size_t e = 0; e < surface.edges.size(); ++e) {
    const auto& edge = surface.edges[e];
    if (edge[0] < 0 || edge[1] < 0 || static_cast<std::size_t>(edge[0]) >= points ||
        static_cast<std::size_t>(edge[1]) >= points || edge[0] == edge[1] ||
        !edge_index.emplace(SortedElementKey(edge), static_cast<Index>(e)).second)
      return std::nullopt;
    for (const Index v : edge)
      shells.edges_around_vertex_[static_cast<std::size_t>(v)].push_back(static_cast<Index>(e));
  }
  shells.triangles_around_edge_.resize(surface.edges.size());
  for (std::size_t t = 0; t < surface.triangles.size(); ++t) {
    const auto& triangle = surface.triangles[t];
    std::array<Index, 3> edges{};
    for (std::size_t j = 0; j < 3; ++j) {
      if (triangle[j] < 0 || static_cast<std::size_t>(triangle[j]) >= points) return std::nullopt;
      const std::array<Index, 2> side = {triangle[(j + 1) % 3], triangle[(j + 2) % 3]};
      const auto found = edge_index.find(SortedElementKey(side));
      if (found == edge_index.end()) return std::nullopt;
      edges[j] = found->second;
    }
    shells.edges_in_triangle_.push_back(edges);
    for (const Index e : edges)
      shells.triangles_around_edge_[static_cast<std::size_t>(e)].push_back(static_cast<Index>(t));
    for (const Index v : triangle)
      shells.triangles_around_vertex_[static_cast<std::size_t>(v)].push_back(static_cast<Index>(t));
  }
  // An edge in no triangle (copied from the input's additions, EDGESADDED) stays when the
  // triangles around its points go: counted, so that a removal freeing points can refuse.
  shells.bare_edges_ = static_cast<std::size_t>(
      std::count_if(shells.triangles_around_edge_.begin(), shells.triangles_around_edge_.end(),
                    [](const std::vector<Index>& around) { return around.empty(); }));
  shells.edges_in_triangle_.reserve(max_triangles);
  shells.triangles_around_edge_.reserve(max_edges);
  shells.freed_edges_.reserve(max_edges);
  return shells;
}

Index SurfaceShells::FindEdge(const Topology& surface, Index a, Index b) const {
  for (const Index e : edges_around_vertex_[static_cast<std::size_t>(a)]) {
    const auto& edge = surface.edges[static_cast<std::size_t>(e)];
    if ((edge[0] == a && edge[1] == b) || (edge[0] == b && edge[1] == a)) return e;
  }
  return -1;
}

void SurfaceShells::Add(Topology& surface, const std::array<Index, 3>& triangle) {
  std::array<Index, 3> edges{};
  const auto first_new = static_cast<Index>(surface.edges.size());
  for (std::size_t j = 0; j < 3; ++j) {
    const Index a = triangle[(j + 1) % 3], b = triangle[(j + 2) % 3];
    Index e = FindEdge(surface, a, b);
    if (e < 0) {
      e = static_cast<Index>(surface.edges.size());
      surface.edges.push_back({a, b});
      triangles_around_edge_.emplace_back();
      edges_around_vertex_[static_cast<std::size_t>(a)].push_back(e);
      edges_around_vertex_[static_cast<std::size_t>(b)].push_back(e);
    }
    edges[j] = e;
  }
  const auto t = static_cast<Index>(surface.triangles.size());
  surface.triangles.push_back(triangle);
  edges_in_triangle_.push_back(edges);
  for (const Index e : edges) {
    std::vector<Index>& around = triangles_around_edge_[static_cast<std::size_t>(e)];
    if (around.empty() && e < first_new) --bare_edges_;  // an AddEdge edge now in a triangle
    around.push_back(t);
  }
  for (const Index v : triangle) triangles_around_vertex_[static_cast<std::size_t>(v)].push_back(t);
}

void SurfaceShells::Remove(Topology& surface, std::span<const Index> descending) {
  freed_edges_.clear();
  for (const Index t : descending) {
    const auto slot = static_cast<std::size_t>(t);
    const auto last = static_cast<Index>(surface.triangles.size()) - 1;
    for (const Index e : edges_in_triangle_[slot]) {
      std::vector<Index>& around = triangles_around_edge_[static_cast<std::size_t>(e)];
      Erase(around, t);
      if (around.empty()) freed_edges_.push_back(e);
    }
    for (const Index v : surface.triangles[slot])
      Erase(triangles_around_vertex_[static_cast<std::size_t>(v)], t);
    if (t != last) {
      surface.triangles[slot] = surface.triangles.back();
      edges_in_triangle_[slot] = edges_in_triangle_.back();
      for (const Index e : edges_in_triangle_[slot])
        Rename(triangles_around_edge_[static_cast<std::size_t>(e)], last, t);
      for (const Index v : surface.triangles[slot])
        Rename(triangles_around_vertex_[static_cast<std::size_t>(v)], last, t);
    }
    surface.triangles.pop_back();
    edges_in_triangle_.pop_back();
  }
  // removeEdgesProcess: the freed edges, descending, each slot taking the edge then last.
  std::sort(freed_edges_.begin(), freed_edges_.end(), std::greater<Index>());
  for (const Index e : freed_edges_) {
    const auto slot = static_cast<std::size_t>(e);
    const auto last = static_cast<Index>(surface.edges.size()) - 1;
    for (const Index v : surface.edges[slot])
      Erase(edges_around_vertex_[static_cast<std::size_t>(v)], e);
    if (e != last) {
      surface.edges[slot] = surface.edges.back();
      std::swap(triangles_around_edge_[slot], triangles_around_edge_.back());
      for (const Index v : surface.edges[slot])
        Rename(edges_around_vertex_[static_cast<std::size_t>(v)], last, e);
      for (const Index t : triangles_around_edge_[slot])
        Rename(edges_in_triangle_[static_cast<std::size_t>(t)], last, e);
    }
    surface.edges.pop_back();
    triangles_around_edge_.pop_back();
  }
}

void SurfaceShells::MovePoint(Topology& surface, Index removed, Index moved) {
  const auto slot = static_cast<std::size_t>(removed);
  if (removed != moved) {
    const auto from = static_cast<std::size_t>(moved);
    for (const Index t : triangles_around_vertex_[from])
      Rename(surface.triangles[static_cast<std::size_t>(t)], moved, removed);
    for (const Index e : edges_around_vertex_[from])
      Rename(surface.edges[static_cast<std::size_t>(e)], moved, removed);
    std::swap(triangles_around_vertex_[slot], triangles_around_vertex_[from]);
    std::swap(edges_around_vertex_[slot], edges_around_vertex_[from]);
    surface.points[slot] = surface.points[from];
  }
  triangles_around_vertex_.pop_back();
  edges_around_vertex_.pop_back();
  surface.points.pop_back();
}

void SurfaceShells::AddEdge(Topology& surface, const std::array<Index, 2>& edge) {
  const auto e = static_cast<Index>(surface.edges.size());
  surface.edges.push_back(edge);
  triangles_around_edge_.emplace_back();
  for (const Index v : edge) edges_around_vertex_[static_cast<std::size_t>(v)].push_back(e);
  ++bare_edges_;
}

}  // namespace fluxion::internal
