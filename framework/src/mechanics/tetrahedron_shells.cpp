// The live tetrahedron shells (see the header). Shell lists are unordered: an element leaves one
// by taking the list's last entry into its place, and the lists keep their capacity.
#include "mechanics/tetrahedron_shells.h"

#include <algorithm>
#include <functional>
#include <map>

#include "mechanics/triangle_shells.h"

namespace fluxion::internal {

namespace {

// SOFA's local faces (face j opposite vertex j) and edges of a tetrahedron
// (Sofa/framework/Core/src/sofa/core/topology/Topology.cpp); only membership matters here.
constexpr std::array<std::array<int, 3>, 4> kFaces{{{1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}}};
constexpr std::array<std::array<int, 2>, 6> kEdges{
    {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}};

// Removes `value` from `list` (present once), the last entry taking its place.
void DropFromShell(std::vector<Index>& list, Index value) {
  const auto found = std::find(list.begin(), list.end(), value);
  if (found == list.end()) return;
  *found = list.back();
  list.pop_back();
}

void RenameInShell(std::vector<Index>& list, Index from, Index to) {
  std::replace(list.begin(), list.end(), from, to);
}

template <std::size_t N>
std::array<Index, N> Sorted(std::array<Index, N> vertices) {
  std::sort(vertices.begin(), vertices.end());
  return vertices;
}

// Removes the slots `sorted_descending` of `items` (each taking the last item) and of their
// shells `around`; `in_element` (per tetrahedron) renames the moved last item.
template <class Item, std::size_t N>
void RemoveMovingLast(std::vector<Item>& items, std::vector<std::vector<Index>>& around,
                      std::vector<std::array<Index, N>>& in_element,
                      std::span<const Index> sorted_descending) {
  for (const Index slot : sorted_descending) {
    const auto s = static_cast<std::size_t>(slot);
    const auto last = static_cast<Index>(items.size() - 1);
    if (slot != last) {
      for (const Index t : around.back())
        for (Index& item : in_element[static_cast<std::size_t>(t)])
          if (item == last) item = slot;
      std::swap(around[s], around.back());  // capacity kept
      items[s] = items.back();
    }
    items.pop_back();
    around.pop_back();
  }
}

}  // namespace

std::optional<TetrahedronShells> TetrahedronShells::Build(const Topology& topology) {
  if (!topology.quads.empty() || !topology.hexahedra.empty()) return std::nullopt;
  const std::size_t points = topology.points.size();
  const auto is_point = [&](Index v) { return v >= 0 && static_cast<std::size_t>(v) < points; };
  TetrahedronShells shells;
  shells.has_triangles_ = !topology.triangles.empty();
  shells.has_edges_ = !topology.edges.empty();
  // The triangles and edges by their sorted vertices (one listed twice: not followed here).
  std::map<std::array<Index, 3>, Index> triangle_index;
  std::map<std::array<Index, 2>, Index> edge_index;
  for (std::size_t k = 0; k < topology.triangles.size(); ++k) {
    const auto& triangle = topology.triangles[k];
    if (!std::all_of(triangle.begin(), triangle.end(), is_point) ||
        !triangle_index.emplace(Sorted(triangle), static_cast<Index>(k)).second)
      return std::nullopt;
  }
  for (std::size_t k = 0; k < topology.edges.size(); ++k) {
    const auto& edge = topology.edges[k];
    if (!is_point(edge[0]) || !is_point(edge[1]) || edge[0] == edge[1] ||
        !edge_index.emplace(Sorted(edge), static_cast<Index>(k)).second)
      return std::nullopt;
  }
  const std::size_t count = topology.tetrahedra.size();
  shells.tetrahedra_around_vertex_.resize(points);
  shells.tetrahedra_around_triangle_.resize(topology.triangles.size());
  shells.tetrahedra_around_edge_.resize(topology.edges.size());
  shells.triangles_in_tetrahedron_.resize(shells.has_triangles_ ? count : 0);
  shells.edges_in_tetrahedron_.resize(shells.has_edges_ ? count : 0);
  for (std::size_t t = 0; t < count; ++t) {
    const auto& tetrahedron = topology.tetrahedra[t];
    if (!std::all_of(tetrahedron.begin(), tetrahedron.end(), is_point)) return std::nullopt;
    for (const Index v : tetrahedron)
      shells.tetrahedra_around_vertex_[static_cast<std::size_t>(v)].push_back(
          static_cast<Index>(t));
    const auto vertex = [&](int j) { return tetrahedron[static_cast<std::size_t>(j)]; };
    for (std::size_t j = 0; shells.has_triangles_ && j < kFaces.size(); ++j) {
      const auto found = triangle_index.find(Sorted(
          std::array<Index, 3>{vertex(kFaces[j][0]), vertex(kFaces[j][1]), vertex(kFaces[j][2])}));
      if (found == triangle_index.end()) return std::nullopt;
      shells.triangles_in_tetrahedron_[t][j] = found->second;
      shells.tetrahedra_around_triangle_[static_cast<std::size_t>(found->second)].push_back(
          static_cast<Index>(t));
    }
    for (std::size_t j = 0; shells.has_edges_ && j < kEdges.size(); ++j) {
      const auto found =
          edge_index.find(Sorted(std::array<Index, 2>{vertex(kEdges[j][0]), vertex(kEdges[j][1])}));
      if (found == edge_index.end()) return std::nullopt;
      shells.edges_in_tetrahedron_[t][j] = found->second;
      shells.tetrahedra_around_edge_[static_cast<std::size_t>(found->second)].push_back(
          static_cast<Index>(t));
    }
  }
  for (const std::vector<Index>& shell : shells.tetrahedra_around_triangle_)
    if (shell.empty()) ++shells.bare_triangles_;
  for (const std::vector<Index>& shell : shells.tetrahedra_around_edge_)
    if (shell.empty()) ++shells.bare_edges_;
  return shells;
}

bool TetrahedronShells::WouldFreePoints(const Topology& topology,
                                        std::span<const Index> ids) const {
  SortRemovalIds(ids, static_cast<Index>(topology.tetrahedra.size()), sorted_, nullptr);
  // A point is freed when every tetrahedron around it is removed (sorted_ is descending).
  const auto removed = [&](Index t) {
    return std::binary_search(sorted_.begin(), sorted_.end(), t, std::greater<Index>());
  };
  for (const Index t : sorted_)
    for (const Index v : topology.tetrahedra[static_cast<std::size_t>(t)]) {
      const std::vector<Index>& shell = tetrahedra_around_vertex_[static_cast<std::size_t>(v)];
      if (std::all_of(shell.begin(), shell.end(), removed)) return true;
    }
  return false;
}

void TetrahedronShells::Remove(Topology& topology, std::span<const Index> ids, bool free_points,
                               TetrahedronRemoval& done) {
  auto& tetrahedra = topology.tetrahedra;
  SortRemovalIds(ids, static_cast<Index>(tetrahedra.size()), done.removed_tetrahedra,
                 &done.out_of_range);
  done.removed_triangles.clear();
  done.removed_edges.clear();
  done.removed_points.clear();
  done.moved_points.clear();
  // removeTetrahedraProcess: each removed tetrahedron leaves the shells of its vertices, edges
  // and triangles (one whose shell empties is removed after), the last one takes its slot.
  for (const Index slot : done.removed_tetrahedra) {
    const auto s = static_cast<std::size_t>(slot);
    for (const Index v : tetrahedra[s]) {
      std::vector<Index>& shell = tetrahedra_around_vertex_[static_cast<std::size_t>(v)];
      DropFromShell(shell, slot);
      if (free_points && shell.empty()) done.removed_points.push_back(v);
    }
    if (has_edges_)
      for (const Index e : edges_in_tetrahedron_[s]) {
        std::vector<Index>& shell = tetrahedra_around_edge_[static_cast<std::size_t>(e)];
        DropFromShell(shell, slot);
        if (shell.empty()) done.removed_edges.push_back(e);
      }
    if (has_triangles_)
      for (const Index f : triangles_in_tetrahedron_[s]) {
        std::vector<Index>& shell = tetrahedra_around_triangle_[static_cast<std::size_t>(f)];
        DropFromShell(shell, slot);
        if (shell.empty()) done.removed_triangles.push_back(f);
      }
    const auto last = static_cast<Index>(tetrahedra.size() - 1);
    if (slot != last) {
      for (const Index v : tetrahedra.back())
        RenameInShell(tetrahedra_around_vertex_[static_cast<std::size_t>(v)], last, slot);
      if (has_edges_) {
        for (const Index e : edges_in_tetrahedron_.back())
          RenameInShell(tetrahedra_around_edge_[static_cast<std::size_t>(e)], last, slot);
        edges_in_tetrahedron_[s] = edges_in_tetrahedron_.back();
      }
      if (has_triangles_) {
        for (const Index f : triangles_in_tetrahedron_.back())
          RenameInShell(tetrahedra_around_triangle_[static_cast<std::size_t>(f)], last, slot);
        triangles_in_tetrahedron_[s] = triangles_in_tetrahedron_.back();
      }
      tetrahedra[s] = tetrahedra.back();
    }
    tetrahedra.pop_back();
    if (has_edges_) edges_in_tetrahedron_.pop_back();
    if (has_triangles_) triangles_in_tetrahedron_.pop_back();
  }
  // removeTrianglesProcess, then removeEdgesProcess: descending, the last one taking each slot
  // and renamed in the tetrahedra around it.
  std::sort(done.removed_triangles.begin(), done.removed_triangles.end(), std::greater<Index>());
  std::sort(done.removed_edges.begin(), done.removed_edges.end(), std::greater<Index>());
  RemoveMovingLast(topology.triangles, tetrahedra_around_triangle_, triangles_in_tetrahedron_,
                   done.removed_triangles);
  RemoveMovingLast(topology.edges, tetrahedra_around_edge_, edges_in_tetrahedron_,
                   done.removed_edges);
  if (!free_points) return;
  // removePointsProcess: the freed points in descending order, the last point taking each slot
  // and renamed in the tetrahedra around it, their faces and edges (every triangle and edge on
  // it is one: those in no tetrahedron would have to be looked for, and points_follow() says
  // there are none).
  std::sort(done.removed_points.begin(), done.removed_points.end(), std::greater<Index>());
  for (const Index slot : done.removed_points) {
    const auto s = static_cast<std::size_t>(slot);
    const auto last = static_cast<Index>(topology.points.size() - 1);
    done.moved_points.push_back(last);
    if (slot != last) {
      const auto rename = [&](auto& vertices) {
        for (Index& v : vertices)
          if (v == last) v = slot;
      };
      for (const Index t : tetrahedra_around_vertex_.back()) {
        const auto ts = static_cast<std::size_t>(t);
        rename(tetrahedra[ts]);
        if (has_triangles_)
          for (const Index f : triangles_in_tetrahedron_[ts])
            rename(topology.triangles[static_cast<std::size_t>(f)]);
        if (has_edges_)
          for (const Index e : edges_in_tetrahedron_[ts])
            rename(topology.edges[static_cast<std::size_t>(e)]);
      }
      std::swap(tetrahedra_around_vertex_[s], tetrahedra_around_vertex_.back());  // capacity
      topology.points[s] = topology.points.back();
    }
    topology.points.pop_back();
    tetrahedra_around_vertex_.pop_back();
  }
}

}  // namespace fluxion::internal
