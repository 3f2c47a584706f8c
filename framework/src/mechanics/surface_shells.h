// A topological mapping's output of triangles (Tetra2TriangleTopologicalMapping's surface) kept
// live while its input changes, at the cost of the change: the shells of SOFA's
// TriangleSetTopologyContainer the output's modifier uses (the edges of each triangle, the
// triangles around each edge and point, the edges around each point) are built once and kept
// current, so that the faces a removal uncovers are appended and the faces it removes taken out
// without reading the whole surface. The result is what mechanics/mapped_topology_follow.h's
// FollowRemoval (the rebuild's reference, which works on copies) gives, element for element.
// Sources (SOFA tree, Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/
// container/dynamic/): TriangleSetTopologyModifier.cpp (addTriangleProcess: each side
// (v[j+1], v[j+2]) not yet an edge appended; removeTrianglesProcess(ids, true, false): the ids
// descending, the last triangle moved into each removed slot, then the edges left without a
// triangle, descending, the last edge moved into each slot — the points stay, the output's
// modifier being told not to remove isolated points); PointSetTopologyModifier.cpp
// (removePointsProcess as the input's renames the output's points).
// mechanics/triangle_shells.h follows removals from a triangle container itself (no additions,
// points freed); this one adds and never frees points.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

class SurfaceShells {
 public:
  /// The shells of `surface` (triangles and edges, every triangle side one of its edges, no
  /// edge twice, every vertex a point), with room reserved for `max_triangles` and `max_edges`
  /// (the input's faces and edges: the output never has more), so that following a change
  /// allocates nothing for the lists; nullopt when the surface is not such a topology.
  static std::optional<SurfaceShells> Build(const Topology& surface, std::size_t max_triangles,
                                            std::size_t max_edges);

  /// Appends `triangle` to `surface` (addTriangleProcess): each side (v[j+1], v[j+2]) that is not
  /// yet an edge is appended to the edges, in j order.
  void Add(Topology& surface, const std::array<Index, 3>& triangle);

  /// Removes the triangles `descending` (distinct, descending, in range) from `surface`, each
  /// slot taking the triangle then last, then the edges they leave without a triangle
  /// (descending, each slot taking the edge then last). Points stay.
  void Remove(Topology& surface, std::span<const Index> descending);

  /// The input's point `removed` (no longer in any surface element) takes the point then last,
  /// `moved` (its number, its coordinates): removePointsProcess on the output.
  void MovePoint(Topology& surface, Index removed, Index moved);

  /// Appends `edge` to `surface`'s edges, in no triangle (EDGESADDED: the mapping copies each
  /// edge its input creates, mechanics/mapped_topology_follow.cpp's FollowAddition).
  void AddEdge(Topology& surface, const std::array<Index, 2>& edge);

  /// The shells the components on the surface read (build/mapped_child_in_place.h): the edges
  /// of triangle `t` (edge j opposite vertex j), the triangles around edge `e` and point `v`,
  /// each in no particular order.
  const std::array<Index, 3>& EdgesInTriangle(Index t) const {
    return edges_in_triangle_[static_cast<std::size_t>(t)];
  }
  const std::vector<Index>& TrianglesAroundEdge(Index e) const {
    return triangles_around_edge_[static_cast<std::size_t>(e)];
  }
  const std::vector<Index>& TrianglesAroundVertex(Index v) const {
    return triangles_around_vertex_[static_cast<std::size_t>(v)];
  }
  /// True when some edge of the surface is in no triangle (an edge EDGESADDED copied).
  bool has_bare_edges() const { return bare_edges_ != 0; }

 private:
  Index FindEdge(const Topology& surface, Index a, Index b) const;

  std::vector<std::array<Index, 3>> edges_in_triangle_;  // edge j opposite vertex j
  std::vector<std::vector<Index>> triangles_around_edge_;
  std::vector<std::vector<Index>> triangles_around_vertex_;
  std::vector<std::vector<Index>> edges_around_vertex_;
  std::vector<Index> freed_edges_;  // scratch of Remove
  std::size_t bare_edges_ = 0;      // edges in no triangle (AddEdge's, until a triangle takes one)
};

}  // namespace fluxion::internal
