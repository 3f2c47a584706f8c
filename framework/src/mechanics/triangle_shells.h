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
// Fluxion differs from SOFA in one deliberate way: a removal that would leave a point without a
// triangle is not applied here (WouldFreePoints says so first); the caller then removes through
// RemoveElements, which renumbers the points.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// What one in-place removal did (its lists keep their capacity from one removal to the next).
struct ShellRemoval {
  std::vector<Index> removed_triangles;  ///< in range, distinct, descending (SOFA's order)
  std::vector<Index> removed_edges;      ///< the edges left without a triangle, descending
  std::vector<Index> out_of_range;       ///< ids at or past the triangle count (SOFA skips them)
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

  /// The triangles around point `v`, in no particular order.
  const std::vector<Index>& TrianglesAroundVertex(Index v) const {
    return triangles_around_vertex_[static_cast<std::size_t>(v)];
  }

 private:
  std::vector<std::array<Index, 3>> edges_in_triangle_;  // SOFA's local order: edge j opposite j
  std::vector<std::vector<Index>> triangles_around_edge_;
  std::vector<std::vector<Index>> triangles_around_vertex_;
  // Scratch of WouldFreePoints / Remove (sorted ids, counts), kept to reuse its capacity.
  mutable std::vector<Index> sorted_;
};

/// `ids` in range of `count`, distinct, in descending order, into `sorted`; the others into
/// `out_of_range` (both cleared first). SOFA's removeTrianglesWarning after its range check.
void SortRemovalIds(std::span<const Index> ids, Index count, std::vector<Index>& sorted,
                    std::vector<Index>* out_of_range);

}  // namespace fluxion::internal
