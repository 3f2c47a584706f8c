// A topological mapping's output of triangles (Quad2TriangleTopologicalMapping) or of quads
// (Hexa2QuadTopologicalMapping) kept live while its input changes, at the cost of the change: the
// shells SOFA's TriangleSetTopologyContainer / QuadSetTopologyContainer keep for the output's
// modifier (the edges of each element, the elements around each edge and point, the edges around
// each point) are built once and kept current, so that the faces a removal uncovers are appended
// and the elements it removes taken out without reading the whole output. The result is
// mechanics/mapped_topology_follow.h's FollowRemoval (the rebuild's reference, which works on
// copies), element for element.
// Sources (SOFA tree, Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/
// container/dynamic/): TriangleSetTopologyModifier.cpp and QuadSetTopologyModifier.cpp
// (addTriangleProcess / addQuadProcess: each side (v[j+1], v[j+2]) not yet an edge appended, in j
// order; removeTrianglesProcess / removeQuadsProcess(ids, true, false): the ids descending, the
// last element moved into each removed slot, then the edges left without an element, descending,
// the last edge moved into each slot — the points stay, the output's modifier being told not to
// remove isolated points); PointSetTopologyModifier.cpp (removePointsProcess as the input's
// renames the output's points).
// mechanics/surface_shells.h is the triangle case written for the Tetra2Triangle child
// (build/mapped_child_in_place.h); FaceSurfaceShells<3> does the same and could replace it.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// N = 3: the output's triangles; N = 4: its quads. Edge j of an element is (v[j+1], v[j+2])
/// (indices mod N), as the output's modifier creates it.
template <std::size_t N>
class FaceSurfaceShells {
 public:
  using Element = std::array<Index, N>;

  /// The shells of `surface` (its elements of N vertices and its edges, no other list, every
  /// element side one of its edges, no edge twice, every edge in an element, every vertex a
  /// point), with room reserved for `max_elements` and `max_edges` elements and edges (the
  /// output never has more than its input's faces and edges), so that following a change
  /// allocates nothing for the lists; nullopt when the surface is not such a topology.
  static std::optional<FaceSurfaceShells> Build(const Topology& surface, std::size_t max_elements,
                                                std::size_t max_edges);

  /// Appends `element` to `surface` (addTriangleProcess / addQuadProcess).
  void Add(Topology& surface, const Element& element);

  /// Removes the elements `descending` (distinct, descending, in range) from `surface`, each slot
  /// taking the element then last, then the edges they leave without an element (descending,
  /// each slot taking the edge then last). Points stay.
  void Remove(Topology& surface, std::span<const Index> descending);

  /// The input's point `removed` (no longer in any element of the output) takes the point then
  /// last, `moved` (its number, its coordinates): removePointsProcess on the output.
  void MovePoint(Topology& surface, Index removed, Index moved);

  /// The elements around point `v`, in no particular order.
  const std::vector<Index>& ElementsAroundVertex(Index v) const {
    return around_vertex_[static_cast<std::size_t>(v)];
  }
  /// The elements around edge `e`, in no particular order.
  const std::vector<Index>& ElementsAroundEdge(Index e) const {
    return around_edge_[static_cast<std::size_t>(e)];
  }

  /// The edges of element `t`, edge j = (v[j+1], v[j+2]).
  const std::array<Index, N>& EdgesInElement(Index t) const {
    return edges_in_element_[static_cast<std::size_t>(t)];
  }

  /// The output's elements: its triangles (N = 3) or quads (N = 4).
  static std::vector<Element>& Elements(Topology& surface);
  static const std::vector<Element>& Elements(const Topology& surface);

 private:
  Index FindEdge(const Topology& surface, Index a, Index b) const;

  std::vector<std::array<Index, N>> edges_in_element_;  // edge j = (v[j+1], v[j+2])
  std::vector<std::vector<Index>> around_edge_, around_vertex_, edges_around_vertex_;
  std::vector<Index> freed_edges_;  // scratch of Remove
};

extern template class FaceSurfaceShells<3>;
extern template class FaceSurfaceShells<4>;

}  // namespace fluxion::internal
