// The live triangle shells (see the header). Shell lists are unordered: an element leaves one by
// taking the list's last entry into its place, and the lists keep their capacity.
#include "mechanics/triangle_shells.h"

#include <algorithm>
#include <functional>

namespace fluxion::internal {

namespace {

// Removes `value` from `list` (present once), the last entry taking its place.
void DropFromShell(std::vector<Index>& list, Index value) {
  const auto found = std::find(list.begin(), list.end(), value);
  if (found == list.end()) return;
  *found = list.back();
  list.pop_back();
}

// Renames `from` to `to` in `list`.
void RenameInShell(std::vector<Index>& list, Index from, Index to) {
  std::replace(list.begin(), list.end(), from, to);
}

}  // namespace

void SortRemovalIds(std::span<const Index> ids, Index count, std::vector<Index>& sorted,
                    std::vector<Index>* out_of_range) {
  sorted.clear();
  if (out_of_range != nullptr) out_of_range->clear();
  for (const Index id : ids) {
    if (id >= 0 && id < count)
      sorted.push_back(id);
    else if (out_of_range != nullptr)
      out_of_range->push_back(id);
  }
  std::sort(sorted.begin(), sorted.end(), std::greater<Index>());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
}

std::optional<TriangleShells> TriangleShells::Build(const Topology& topology) {
  if (!topology.quads.empty() || !topology.tetrahedra.empty() || !topology.hexahedra.empty())
    return std::nullopt;
  const std::size_t points = topology.points.size();
  const auto is_point = [&](Index v) { return v >= 0 && static_cast<std::size_t>(v) < points; };
  // The edges around each point, to find each triangle side's edge (and a repeated edge).
  std::vector<std::vector<Index>> edges_around(points);
  const auto find_edge = [&](Index a, Index b) -> Index {
    for (const Index e : edges_around[static_cast<std::size_t>(a)]) {
      const auto& edge = topology.edges[static_cast<std::size_t>(e)];
      if ((edge[0] == a && edge[1] == b) || (edge[0] == b && edge[1] == a)) return e;
    }
    return -1;
  };
  for (std::size_t e = 0; e < topology.edges.size(); ++e) {
    const auto [a, b] = topology.edges[e];
    if (!is_point(a) || !is_point(b) || a == b || find_edge(a, b) >= 0) return std::nullopt;
    edges_around[static_cast<std::size_t>(a)].push_back(static_cast<Index>(e));
    edges_around[static_cast<std::size_t>(b)].push_back(static_cast<Index>(e));
  }
  TriangleShells shells;
  shells.edges_in_triangle_.resize(topology.triangles.size());
  shells.triangles_around_edge_.resize(topology.edges.size());
  shells.triangles_around_vertex_.resize(points);
  for (std::size_t t = 0; t < topology.triangles.size(); ++t) {
    const auto& triangle = topology.triangles[t];
    for (int j = 0; j < 3; ++j) {
      const Index v = triangle[static_cast<std::size_t>(j)];
      if (!is_point(v)) return std::nullopt;
      shells.triangles_around_vertex_[static_cast<std::size_t>(v)].push_back(static_cast<Index>(t));
    }
    for (int j = 0; j < 3; ++j) {
      const Index e = find_edge(triangle[static_cast<std::size_t>((j + 1) % 3)],
                                triangle[static_cast<std::size_t>((j + 2) % 3)]);
      if (e < 0) return std::nullopt;
      shells.edges_in_triangle_[t][static_cast<std::size_t>(j)] = e;
      shells.triangles_around_edge_[static_cast<std::size_t>(e)].push_back(static_cast<Index>(t));
    }
  }
  for (const std::vector<Index>& shell : shells.triangles_around_edge_)
    if (shell.empty()) ++shells.bare_edges_;
  return shells;
}

bool TriangleShells::WouldFreePoints(const Topology& topology, std::span<const Index> ids) const {
  SortRemovalIds(ids, static_cast<Index>(topology.triangles.size()), sorted_, nullptr);
  // A point is freed when every triangle around it is removed (sorted_ is descending).
  const auto removed = [&](Index t) {
    return std::binary_search(sorted_.begin(), sorted_.end(), t, std::greater<Index>());
  };
  for (const Index t : sorted_)
    for (const Index v : topology.triangles[static_cast<std::size_t>(t)]) {
      const std::vector<Index>& shell = triangles_around_vertex_[static_cast<std::size_t>(v)];
      if (std::all_of(shell.begin(), shell.end(), removed)) return true;
    }
  return false;
}

void TriangleShells::Remove(Topology& topology, std::span<const Index> ids, ShellRemoval& done) {
  RemoveTrianglesAndEdges(topology, ids, done, false);
}

void TriangleShells::RemoveFreeingPoints(Topology& topology, std::span<const Index> ids,
                                         ShellRemoval& done) {
  RemoveTrianglesAndEdges(topology, ids, done, true);
  // removePointsProcess: the freed points in descending order, the last point taking each slot
  // and renamed in the triangles around it and their sides (every edge of it is one: its edges
  // without a triangle went with its triangles).
  std::sort(done.removed_points.begin(), done.removed_points.end(), std::greater<Index>());
  done.moved_points.clear();
  for (const Index slot : done.removed_points) {
    const auto s = static_cast<std::size_t>(slot);
    const auto last = static_cast<Index>(topology.points.size() - 1);
    done.moved_points.push_back(last);
    if (slot != last) {
      for (const Index t : triangles_around_vertex_.back()) {
        const auto ts = static_cast<std::size_t>(t);
        for (Index& v : topology.triangles[ts])
          if (v == last) v = slot;
        for (const Index e : edges_in_triangle_[ts])
          for (Index& v : topology.edges[static_cast<std::size_t>(e)])
            if (v == last) v = slot;
      }
      std::swap(triangles_around_vertex_[s], triangles_around_vertex_.back());  // capacity kept
      topology.points[s] = topology.points.back();
    }
    topology.points.pop_back();
    triangles_around_vertex_.pop_back();
  }
}

void TriangleShells::RemoveTrianglesAndEdges(Topology& topology, std::span<const Index> ids,
                                             ShellRemoval& done, bool collect_points) {
  auto& triangles = topology.triangles;
  auto& edges = topology.edges;
  SortRemovalIds(ids, static_cast<Index>(triangles.size()), done.removed_triangles,
                 &done.out_of_range);
  done.removed_edges.clear();
  done.removed_points.clear();
  done.moved_points.clear();
  // removeTrianglesProcess: each removed triangle leaves the shells of its edges and vertices
  // (an edge whose shell empties is removed after), the last triangle takes its slot.
  for (const Index slot : done.removed_triangles) {
    const auto s = static_cast<std::size_t>(slot);
    for (const Index e : edges_in_triangle_[s]) {
      std::vector<Index>& shell = triangles_around_edge_[static_cast<std::size_t>(e)];
      DropFromShell(shell, slot);
      if (shell.empty()) done.removed_edges.push_back(e);
    }
    for (const Index v : triangles[s]) {
      std::vector<Index>& shell = triangles_around_vertex_[static_cast<std::size_t>(v)];
      DropFromShell(shell, slot);
      if (collect_points && shell.empty()) done.removed_points.push_back(v);
    }
    const auto last = static_cast<Index>(triangles.size() - 1);
    if (slot != last) {
      for (const Index e : edges_in_triangle_.back())
        RenameInShell(triangles_around_edge_[static_cast<std::size_t>(e)], last, slot);
      for (const Index v : triangles.back())
        RenameInShell(triangles_around_vertex_[static_cast<std::size_t>(v)], last, slot);
      triangles[s] = triangles.back();
      edges_in_triangle_[s] = edges_in_triangle_.back();
    }
    triangles.pop_back();
    edges_in_triangle_.pop_back();
  }
  // removeEdgesProcess: the freed edges in descending order, the last edge taking each slot and
  // renamed in the triangles around it.
  std::sort(done.removed_edges.begin(), done.removed_edges.end(), std::greater<Index>());
  for (const Index slot : done.removed_edges) {
    const auto s = static_cast<std::size_t>(slot);
    const auto last = static_cast<Index>(edges.size() - 1);
    if (slot != last) {
      for (const Index t : triangles_around_edge_.back())
        for (Index& e : edges_in_triangle_[static_cast<std::size_t>(t)])
          if (e == last) e = slot;
      std::swap(triangles_around_edge_[s], triangles_around_edge_.back());  // capacity kept
      edges[s] = edges.back();
    }
    edges.pop_back();
    triangles_around_edge_.pop_back();
  }
}

}  // namespace fluxion::internal
