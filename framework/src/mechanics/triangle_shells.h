// SOFA's removal of triangles applied to a live triangle topology, at the cost of what it
// removes: the shells SOFA's TriangleSetTopologyContainer keeps (the edges of each triangle, the
// triangles around each edge and each point) are built once and kept current, so a removal
// touches only the removed triangles, the edges they free and the last elements moved into the
// freed slots — never the whole mesh (RemoveElements, mechanics/topology_removal.h, builds its
// shells anew on a copy each time: the reference these shells are tested against).
// Sources (SOFA tree, Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/
// container/dynamic/): TriangleSetTopologyModifier.cpp (removeTrianglesProcess: the ids sorted
// descending, the last triangle moved into each removed slot and renamed in the shells of its
// edges and vertices; the edges whose shell became empty removed by removeEdgesProcess, sorted
// descending, the last edge moved into each slot and renamed in the triangles around it),
// TriangleSetTopologyContainer.cpp (m_edgesInTriangle, m_trianglesAroundEdge,
// m_trianglesAroundVertex).
// Points left without a triangle are removed as SOFA's removeIsolatedPoints does
// (PointSetTopologyModifier.cpp, removePointsProcess: the freed points sorted descending, the last
// point moved into each freed slot and renamed in the triangles and edges around it), when the
// caller asks for it (RemoveFreeingPoints); otherwise such a removal is not applied here
// (WouldFreePoints says so first) and the caller removes through RemoveElements.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"
#include "mechanics/shell_additions.h"

namespace fluxion::internal {

/// What one in-place removal did (its lists keep their capacity from one removal to the next).
struct ShellRemoval {
  std::vector<Index> removed_triangles;  ///< in range, distinct, descending (SOFA's order)
  std::vector<Index> removed_edges;      ///< the edges left without a triangle, descending
  std::vector<Index> out_of_range;       ///< ids at or past the triangle count (SOFA skips them)
  /// The points left without a triangle, descending: removed_points[i] took the point then last,
  /// moved_points[i] (equal when the removed point was the last one).
  std::vector<Index> removed_points, moved_points;
};

class TriangleShells {
 public:
  /// The shells of `topology`: triangles whose three sides are among its edges, no quads or
  /// volumes, no edge listed twice, every vertex a point. nullopt otherwise (the caller removes
  /// through RemoveElements, which reports what is wrong).
  static std::optional<TriangleShells> Build(const Topology& topology);

  /// True when removing `ids` would leave some point of the removed triangles without a
  /// triangle (SOFA would then remove it and renumber the points). `topology` as for Remove.
  /// Changes nothing.
  bool WouldFreePoints(const Topology& topology, std::span<const Index> ids) const;

  /// SOFA's removeTriangles(ids, removeIsolatedEdges = true, removeIsolatedPoints = true) on
  /// `topology` itself, when !WouldFreePoints(ids): the triangles, then the edges left without
  /// one, each removed slot taking the last element; the shells follow. `topology` must be the
  /// one the shells were built from, as earlier removals left it. `done` lists what went.
  void Remove(Topology& topology, std::span<const Index> ids, ShellRemoval& done);

  /// As Remove, with the points left without a triangle removed too (SOFA's removeIsolatedPoints):
  /// each, in descending order, takes the point then last, renamed in the triangles and edges
  /// around it. Work proportional to the removed elements and the moved points' shells. Requires
  /// points_follow().
  void RemoveFreeingPoints(Topology& topology, std::span<const Index> ids, ShellRemoval& done);

  /// True when every edge of the topology is a side of some triangle: a freed point then has no
  /// edge left (all went with its triangles), and its removal is followed here. Otherwise
  /// RemoveElements reports the edge that would keep a removed point.
  bool points_follow() const { return bare_edges_ == 0; }

  /// SOFA's addTriangles on `topology` itself (TriangleSetTopologyModifier::addTrianglesProcess:
  /// each side (t[j+1], t[j+2]) missing from the edges appended, j = 0, 1, 2, then the triangle,
  /// appended even when it exists), `vertices` giving 3 per triangle; the shells follow. The
  /// result is AddElements' (mechanics/topology_addition.h), at the cost of the added triangles
  /// and their vertices' shells. False, nothing changed, when a vertex is not a point or an edge
  /// is no triangle's side (!points_follow(): a side could not be found through the shells).
  /// mechanics/shell_additions.cpp.
  bool Add(Topology& topology, std::span<const Index> vertices, ShellAddition& done);

  /// The triangles around point `v`, in no particular order.
  const std::vector<Index>& TrianglesAroundVertex(Index v) const {
    return triangles_around_vertex_[static_cast<std::size_t>(v)];
  }
  /// The triangles around edge `e`, in no particular order.
  const std::vector<Index>& TrianglesAroundEdge(Index e) const {
    return triangles_around_edge_[static_cast<std::size_t>(e)];
  }
  /// The edges of triangle `t` (edge j opposite vertex j).
  const std::array<Index, 3>& EdgesInTriangle(Index t) const {
    return edges_in_triangle_[static_cast<std::size_t>(t)];
  }

 private:
  void RemoveTrianglesAndEdges(Topology& topology, std::span<const Index> ids, ShellRemoval& done,
                               bool collect_points);

  std::vector<std::array<Index, 3>> edges_in_triangle_;  // SOFA's local order: edge j opposite j
  std::vector<std::vector<Index>> triangles_around_edge_;
  std::vector<std::vector<Index>> triangles_around_vertex_;
  std::size_t bare_edges_ = 0;  // edges that are no triangle's side
  // Scratch of WouldFreePoints / Remove (sorted ids, counts), kept to reuse its capacity.
  mutable std::vector<Index> sorted_;
};

/// `ids` in range of `count`, distinct, in descending order, into `sorted`; the others into
/// `out_of_range` (both cleared first). SOFA's removeTrianglesWarning after its range check.
void SortRemovalIds(std::span<const Index> ids, Index count, std::vector<Index>& sorted,
                    std::vector<Index>* out_of_range);

}  // namespace fluxion::internal
