// SOFA's removal of elements applied to a live topology at the cost of what it removes, written
// once over the element kind: quads (their edges), hexahedra (their quads and edges) and
// tetrahedra (their triangles and edges). The shells SOFA's containers keep (the faces and edges
// of each element, the elements around each face, edge and point) are built once and kept
// current, so a removal touches only the removed elements, the faces, edges and points they free
// and the last elements moved into the freed slots — never the whole mesh. RemoveElements
// (mechanics/topology_removal.h) builds its shells anew on a copy each time: the reference these
// shells are tested against (tests/framework/element_shells_test.cpp).
// Sources (SOFA tree, Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/
// container/dynamic/):
//   QuadSetTopologyModifier.cpp (removeItems = removeQuads(ids, true, true);
//     removeQuadsProcess: the ids descending (removeQuadsWarning), each removed quad leaves the
//     shells of its edges and vertices — an edge or vertex whose shell empties is collected — and
//     the last quad takes its slot, renamed in the shells of its edges and vertices; then the
//     collected edges by removeEdgesProcess, the points by removePointsProcess);
//   HexahedronSetTopologyModifier.cpp (removeHexahedraProcess: the same with the quads, edges and
//     vertices of each hexahedron, then removeQuadsProcess(…, false, false), removeEdgesProcess,
//     removePointsProcess on what was collected, each level descending);
//   TetrahedronSetTopologyModifier.cpp (removeTetrahedraProcess: the same with triangles);
//   PointSetTopologyModifier.cpp (removePointsProcess: the last point moved into each removed
//     slot and renamed in the elements around it);
//   {Quad,Hexahedron,Tetrahedron}SetTopologyContainer.cpp (m_edgesInQuad, m_quadsInHexahedron,
//     m_edgesInHexahedron, m_*Around{Vertex,Edge,Quad,Triangle}).
// A container that lists no faces (no edges) follows none, as SOFA's hasQuads() / hasEdges()
// decide. mechanics/triangle_shells.h and mechanics/tetrahedron_shells.h are the triangle and
// tetrahedron shells the followers use today; the tetrahedron one gives the same removals as
// ElementShells<TetrahedronShape> (tested), and can become that instantiation.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// Quads: 4 vertices, SOFA's edgesInQuad (edge j = (j, j+1)), no faces.
struct QuadShape {
  static constexpr auto kElements = &Topology::quads;
  static constexpr auto kFaceList = &Topology::triangles;  // unused: no faces
  static constexpr std::array<std::array<int, 3>, 0> kFaces{};
  static constexpr std::array<std::array<int, 2>, 4> kEdges{{{0, 1}, {1, 2}, {2, 3}, {3, 0}}};
};

/// Hexahedra: 8 vertices, SOFA's quadsInHexahedron and edgesInHexahedron
/// (Sofa/framework/Core/src/sofa/core/topology/Topology.cpp); only membership matters.
struct HexahedronShape {
  static constexpr auto kElements = &Topology::hexahedra;
  static constexpr auto kFaceList = &Topology::quads;
  static constexpr std::array<std::array<int, 4>, 6> kFaces{
      {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}};
  static constexpr std::array<std::array<int, 2>, 12> kEdges{{{0, 1},
                                                              {1, 2},
                                                              {2, 3},
                                                              {3, 0},
                                                              {4, 5},
                                                              {5, 6},
                                                              {6, 7},
                                                              {7, 4},
                                                              {0, 4},
                                                              {1, 5},
                                                              {2, 6},
                                                              {3, 7}}};
};

/// Tetrahedra: 4 vertices, face j opposite vertex j, SOFA's edgesInTetrahedron.
struct TetrahedronShape {
  static constexpr auto kElements = &Topology::tetrahedra;
  static constexpr auto kFaceList = &Topology::triangles;
  static constexpr std::array<std::array<int, 3>, 4> kFaces{
      {{1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}}};
  static constexpr std::array<std::array<int, 2>, 6> kEdges{
      {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}};
};

/// What one in-place removal did (its lists keep their capacity from one removal to the next).
struct ElementRemoval {
  std::vector<Index> removed_elements;  ///< in range, distinct, descending (SOFA's order)
  std::vector<Index> removed_faces;     ///< the faces left without an element, descending
  std::vector<Index> removed_edges;     ///< the edges left without an element, descending
  std::vector<Index> out_of_range;      ///< ids at or past the element count (SOFA skips them)
  /// The points left without an element, descending: removed_points[i] took the point then
  /// last, moved_points[i] (equal when the removed point was the last one).
  std::vector<Index> removed_points, moved_points;
};

/// What one in-place addition did (its lists keep their capacity from one addition to the next).
struct ElementAddition {
  Index first_added = 0;             ///< the first added element (the others follow it)
  Index added = 0;                   ///< how many were added
  std::vector<Index> created_faces;  ///< the faces created (hexahedra's quads), ascending
  std::vector<Index> created_edges;  ///< the edges created, ascending (SOFA's creation order)
};

template <class Shape>
class ElementShells {
 public:
  static constexpr std::size_t kFaces = Shape::kFaces.size();
  static constexpr std::size_t kEdges = Shape::kEdges.size();

  /// The shells of `topology`: elements whose faces are among its faces (when it lists faces)
  /// and whose edges are among its edges (when it lists edges), no list of another kind than
  /// the elements, their faces and edges, no face or edge listed twice, every vertex a point.
  /// nullopt otherwise (the caller removes through RemoveElements, which reports what is wrong).
  static std::optional<ElementShells> Build(const Topology& topology);

  /// True when removing `ids` would leave some point of the removed elements without an
  /// element (SOFA then removes it and renumbers the points). Changes nothing.
  bool WouldFreePoints(const Topology& topology, std::span<const Index> ids) const;

  /// SOFA's removeItems(ids) on `topology` itself: the elements, then the faces and edges left
  /// without one (and, with `free_points`, the edges in no element on a freed point), then (with
  /// `free_points`) the points left without one, each removed slot
  /// taking the last element; the shells follow. Without `free_points` the caller must have
  /// checked !WouldFreePoints(ids); with it, points_follow() must hold. `topology` must be the
  /// one the shells were built from, as earlier removals left it. Work proportional to the
  /// removed elements and the shells of the moved ones. `done` lists what went.
  void Remove(Topology& topology, std::span<const Index> ids, bool free_points,
              ElementRemoval& done);

  /// SOFA's addQuads / addHexahedra of the elements `vertices` lists (their vertices one element
  /// after the other) on `topology` itself, as AddElements (mechanics/topology_addition.h) adds
  /// them: for each element, each face it needs that the topology lacks is added (its sides
  /// missing from the edges appended first, (f[j+1], f[j+2]), j in order), then the edges it
  /// still lacks (SOFA's edgesInHexahedronArray order), then the element — a quad being its own
  /// face. The shells follow; work proportional to the added elements and the shells of their
  /// vertices. False, with nothing changed, when the addition is not followed here: a vertex not
  /// a point or repeated, an element already in the topology or twice in the list (SOFA appends
  /// it again), a topology without edges (or without faces, or with a face in no element).
  bool Add(Topology& topology, std::span<const Index> vertices, ElementAddition& done);

  /// True when every face of the topology belongs to some element: a freed point then has no
  /// face left (all went with its elements), and its removal is followed here. An edge in no
  /// element (a grid's quad diagonal, which SOFA's src="@grid" gives a hexahedron container) on a
  /// freed point goes with it, as RemoveElements removes it (mechanics/topology_removal.h: SOFA
  /// would leave it naming the point moved into the freed slot).
  bool points_follow() const { return bare_faces_ == 0; }
  bool has_edges() const { return has_edges_; }

  /// The elements around point `v`, in no particular order.
  const std::vector<Index>& ElementsAroundVertex(Index v) const {
    return around_vertex_[static_cast<std::size_t>(v)];
  }
  /// The elements around edge `e`, in no particular order (the topology lists edges).
  const std::vector<Index>& ElementsAroundEdge(Index e) const {
    return around_edge_[static_cast<std::size_t>(e)];
  }
  /// The edges of element `t` in Shape::kEdges's order (the topology lists edges).
  const std::array<Index, kEdges>& EdgesInElement(Index t) const {
    return edges_in_element_[static_cast<std::size_t>(t)];
  }
  /// The faces of element `t` in Shape::kFaces's order (the topology lists faces).
  const std::array<Index, kFaces>& FacesInElement(Index t) const {
    return faces_in_element_[static_cast<std::size_t>(t)];
  }
  /// The elements around face `f`, in no particular order (the topology lists faces).
  const std::vector<Index>& ElementsAroundFace(Index f) const {
    return around_face_[static_cast<std::size_t>(f)];
  }
  bool has_faces() const { return has_faces_; }
  /// The edges on point `v` that are in no element, in no particular order.
  const std::vector<Index>& BareEdgesAroundVertex(Index v) const {
    return bare_edges_around_vertex_[static_cast<std::size_t>(v)];
  }

 private:
  std::vector<std::array<Index, kFaces>> faces_in_element_;
  std::vector<std::array<Index, kEdges>> edges_in_element_;
  std::vector<std::vector<Index>> around_face_, around_edge_, around_vertex_;
  std::vector<std::vector<Index>> bare_edges_around_vertex_;  // edges in no element, per point
  bool has_faces_ = false, has_edges_ = false;
  std::size_t bare_faces_ = 0;  // in no element
  // Scratch of WouldFreePoints (the sorted ids), kept to reuse its capacity.
  mutable std::vector<Index> sorted_;
  // Scratch of Add: the faces made for the element being added (not yet in an element).
  std::vector<Index> pending_faces_;
  Index FindEdge(const Topology& topology, Index a, Index b) const;
  template <class Face>
  Index FindFace(const Topology& topology, const Face& face) const;
  bool HasElement(const Topology& topology, std::span<const Index> vertices) const;
};

using QuadShells = ElementShells<QuadShape>;
using HexahedronShells = ElementShells<HexahedronShape>;

extern template class ElementShells<QuadShape>;
extern template class ElementShells<HexahedronShape>;
extern template class ElementShells<TetrahedronShape>;

}  // namespace fluxion::internal
