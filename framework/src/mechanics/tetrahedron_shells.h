// SOFA's removal of tetrahedra applied to a live tetrahedral topology, at the cost of what it
// removes: the shells SOFA's TetrahedronSetTopologyContainer keeps (the triangles and edges of
// each tetrahedron, the tetrahedra around each triangle, edge and point) are built once and kept
// current, so a removal touches only the removed tetrahedra, the faces, edges and points they
// free and the last elements moved into the freed slots — never the whole mesh.
// RemoveElements (mechanics/topology_removal.h) builds its shells anew on a copy each time: the
// reference these shells are tested against. mechanics/triangle_shells.h is the same for
// triangles; the two are kept apart so that neither path slows the other.
// Sources (SOFA tree, Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/
// container/dynamic/):
//   TetrahedronSetTopologyModifier.cpp (removeItems = removeTetrahedra(ids, true);
//     removeTetrahedraWarning sorts the ids descending; removeTetrahedraProcess: each removed
//     tetrahedron leaves the shells of its vertices, edges and triangles — a vertex, edge or
//     triangle whose shell becomes empty is collected — and the last tetrahedron takes its slot,
//     renamed in the shells of its vertices, edges and triangles; then the collected triangles
//     (removeTrianglesWarning: descending) are removed by removeTrianglesProcess(…, false,
//     false), the edges by removeEdgesProcess(…, false), each slot taking the last element,
//     renamed in trianglesInTetrahedron / edgesInTetrahedron; last the collected points by
//     removePointsProcess: descending, the last point moved into each slot and renamed in the
//     elements around it);
//   TetrahedronSetTopologyContainer.cpp (m_trianglesInTetrahedron, m_edgesInTetrahedron,
//     m_tetrahedraAroundVertex/Edge/Triangle).
// A container that lists no triangles (or no edges) follows no triangles (edges), as SOFA's
// hasTriangles() / hasEdges() decide.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"
#include "mechanics/shell_additions.h"

namespace fluxion::internal {

/// What one in-place removal of tetrahedra did (its lists keep their capacity from one removal
/// to the next).
struct TetrahedronRemoval {
  std::vector<Index> removed_tetrahedra;  ///< in range, distinct, descending (SOFA's order)
  std::vector<Index> removed_triangles;   ///< the triangles left without a tetrahedron, descending
  std::vector<Index> removed_edges;       ///< the edges left without a tetrahedron, descending
  std::vector<Index> out_of_range;  ///< ids at or past the tetrahedron count (SOFA skips them)
  /// The points left without a tetrahedron, descending: removed_points[i] took the point then
  /// last, moved_points[i] (equal when the removed point was the last one).
  std::vector<Index> removed_points, moved_points;
};

class TetrahedronShells {
 public:
  /// The shells of `topology`: tetrahedra whose four faces are among its triangles (when it
  /// lists triangles) and whose six edges are among its edges (when it lists edges), no quads or
  /// hexahedra, no triangle or edge listed twice, every vertex a point. nullopt otherwise (the
  /// caller removes through RemoveElements, which reports what is wrong).
  static std::optional<TetrahedronShells> Build(const Topology& topology);

  /// True when removing `ids` would leave some point of the removed tetrahedra without a
  /// tetrahedron (SOFA then removes it and renumbers the points). Changes nothing.
  bool WouldFreePoints(const Topology& topology, std::span<const Index> ids) const;

  /// SOFA's removeTetrahedra(ids, removeIsolatedItems = true) on `topology` itself: the
  /// tetrahedra, then the triangles and edges left without one, then (with `free_points`) the
  /// points left without one, each removed slot taking the last element; the shells follow.
  /// Without `free_points` the caller must have checked !WouldFreePoints(ids); with it,
  /// points_follow() must hold. `topology` must be the one the shells were built from, as
  /// earlier removals left it. Work proportional to the removed elements and the shells of the
  /// moved ones. `done` lists what went.
  void Remove(Topology& topology, std::span<const Index> ids, bool free_points,
              TetrahedronRemoval& done);

  /// True when every triangle and edge of the topology belongs to some tetrahedron: a freed
  /// point then has no triangle or edge left (all went with its tetrahedra), and its removal is
  /// followed here.
  bool points_follow() const { return bare_triangles_ == 0 && bare_edges_ == 0; }

  /// SOFA's addTetrahedra on `topology` itself (TetrahedronSetTopologyModifier::
  /// addTetrahedronProcess: each face {1,2,3} {0,3,2} {1,3,0} {0,2,1} missing from the triangles
  /// added as addTriangleProcess adds one — its missing sides first — then the edges 01 02 03 12
  /// 13 23 still missing, then the tetrahedron), `vertices` giving 4 per tetrahedron; the shells
  /// follow. The result is AddElements' (mechanics/topology_addition.h), at the cost of the added
  /// tetrahedra and their vertices' shells. False, nothing changed, when a vertex is not a point,
  /// the container lists no triangles or edges, or one is in no tetrahedron (!points_follow(): a
  /// face or edge could not be found through the shells). mechanics/shell_additions.cpp.
  bool Add(Topology& topology, std::span<const Index> vertices, ShellAddition& done);

  /// The tetrahedra around point `v`, in no particular order.
  const std::vector<Index>& TetrahedraAroundVertex(Index v) const {
    return tetrahedra_around_vertex_[static_cast<std::size_t>(v)];
  }
  /// The edges of tetrahedron `t` (SOFA's edgesInTetrahedron order: 01 02 03 12 13 23), when the
  /// topology lists edges.
  const std::array<Index, 6>& EdgesInTetrahedron(Index t) const {
    return edges_in_tetrahedron_[static_cast<std::size_t>(t)];
  }
  bool has_edges() const { return has_edges_; }
  /// The triangles of tetrahedron `t` (SOFA's trianglesInTetrahedron: face j opposite vertex j)
  /// and the tetrahedra around triangle `f` (in no particular order), when the topology lists
  /// triangles: what a Tetra2TriangleTopologicalMapping reads of a removal before it is applied
  /// (build/mapped_child_in_place.h).
  const std::array<Index, 4>& TrianglesInTetrahedron(Index t) const {
    return triangles_in_tetrahedron_[static_cast<std::size_t>(t)];
  }
  const std::vector<Index>& TetrahedraAroundTriangle(Index f) const {
    return tetrahedra_around_triangle_[static_cast<std::size_t>(f)];
  }
  bool has_triangles() const { return has_triangles_; }

 private:
  std::vector<std::array<Index, 4>> triangles_in_tetrahedron_;  // face j opposite vertex j
  std::vector<std::array<Index, 6>> edges_in_tetrahedron_;
  std::vector<std::vector<Index>> tetrahedra_around_triangle_;
  std::vector<std::vector<Index>> tetrahedra_around_edge_;
  std::vector<std::vector<Index>> tetrahedra_around_vertex_;
  bool has_triangles_ = false, has_edges_ = false;
  std::size_t bare_triangles_ = 0, bare_edges_ = 0;  // in no tetrahedron
  // Scratch of WouldFreePoints (the sorted ids), kept to reuse its capacity.
  mutable std::vector<Index> sorted_;
};

}  // namespace fluxion::internal
