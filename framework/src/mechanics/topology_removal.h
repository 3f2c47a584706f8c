// Element removal as SOFA's dynamic topology modifiers do it: which elements and points go, and
// how the survivors are renumbered. Every component that follows a change (the object's state,
// index lists, per-element data) renumbers through the maps this returns.
// Sources (SOFA tree, Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/
// container/dynamic/):
//   TriangleSetTopologyModifier.cpp (removeItems = removeTriangles(ids, true, true);
//     removeTrianglesWarning sorts the ids in descending order; removeTrianglesProcess moves the
//     last triangle into each removed slot, and collects the edges and the points whose shell of
//     triangles became empty);
//   QuadSetTopologyModifier.cpp (removeQuadsProcess: the same for quads, their edges and
//     points); TetrahedronSetTopologyModifier.cpp (removeTetrahedraProcess: the triangles, edges
//     and points left without a tetrahedron, the triangles and edges removed without looking
//     for isolated points); HexahedronSetTopologyModifier.cpp (removeHexahedraProcess: the
//     same with quads); EdgeSetTopologyModifier.cpp (removeEdges(ids, true): the points left
//     without an edge);
//   EdgeSetTopologyModifier.cpp (removeEdgesWarning sorts descending, removeEdgesProcess moves
//     the last edge into each removed slot);
//   PointSetTopologyModifier.cpp (removePointsWarning sorts descending; the MechanicalObject and
//     every point data move the last point into each removed slot, the elements are renamed);
//   Sofa/framework/Core/src/sofa/core/topology/TopologySubsetData.inl (remove: an index list
//     drops the removed points, keeps its order, and renames the moved last point).
#pragma once

#include <string>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// The element lists of a Topology by dimension, points first: the levels of a removal.
enum class TopologyLevel { kPoint, kEdge, kTriangle, kQuad, kTetrahedron, kHexahedron };
inline constexpr std::size_t kTopologyLevels = 6;

/// What a removal did: the reduced topology and, per level, where each old element went.
struct TopologyRemoval {
  /// What a map holds for an element or point that was removed.
  static constexpr Index kRemoved = -1;

  Topology topology;  ///< the reduced topology (points included, renumbered)
  /// Old index → new index or kRemoved, one entry per old point / edge / triangle / ….
  std::vector<Index> point_map, edge_map, triangle_map, quad_map, tetrahedron_map, hexahedron_map;
  /// New index → old index (the inverse of the maps on their survivors).
  std::vector<Index> point_origin, edge_origin, triangle_origin, quad_origin, tetrahedron_origin,
      hexahedron_origin;
  /// The elements removed (old indices, after dropping out-of-range ones: SOFA's order,
  /// descending), then the faces, edges and points found isolated, each level descending.
  std::vector<Index> removed_points, removed_edges, removed_triangles, removed_quads,
      removed_tetrahedra, removed_hexahedra;
  /// Indices at or beyond the element count: SOFA skips them with a warning.
  std::vector<Index> out_of_range;

  /// The map, origin and removed list of one level.
  std::vector<Index>& map(TopologyLevel level);
  std::vector<Index>& origin(TopologyLevel level);
  std::vector<Index>& removed(TopologyLevel level);
  const std::vector<Index>& map(TopologyLevel level) const;
  const std::vector<Index>& origin(TopologyLevel level) const;
  const std::vector<Index>& removed(TopologyLevel level) const;
};

/// SOFA's *SetTopologyModifier::removeItems(ids) on the elements of `level` (points, edges,
/// triangles, quads, tetrahedra or hexahedra): the listed elements (descending, the last one moved
/// into each removed slot), then the elements of each lower level that no remaining element of
/// `level` uses — faces (the triangles of tetrahedra, the quads of hexahedra), edges, points —
/// only those of the removed elements. A lower level is followed only where the topology has
/// it (SOFA's hasTriangles(), hasEdges()); a level above `level` must be empty. Throws
/// ConfigError naming the first face or edge of an element missing from its list. Without
/// `isolated_points` (SOFA's removeIsolatedPoints = false: a topological mapping's output),
/// points are never removed. A face or edge of a lower level that is in no element of `level`
/// and uses a removed point is removed with it (deviation: SOFA leaves it naming the point moved
/// into the removed one's slot).
TopologyRemoval RemoveElements(const Topology& topology, TopologyLevel level,
                               const std::vector<Index>& ids, bool isolated_points = true);

/// SOFA's TriangleSetTopologyModifier::removeItems(ids): the listed triangles, then the edges
/// and points no remaining triangle uses (only those of the removed triangles: an edge or point
/// that had no triangle before stays). `topology` must list every edge of its triangles (SOFA's
/// containers create them: CompleteTopology) and hold no quads or volumes. Throws ConfigError
/// naming the first triangle side missing from the edges.
TopologyRemoval RemoveTriangles(const Topology& topology, const std::vector<Index>& ids);

/// For each element of `level`, its sub-elements of level `sub` (indices into the topology's
/// list of `sub`) in SOFA's local order: edgesInTriangle (edge j opposite vertex j),
/// edgesInQuad, trianglesInTetrahedron (face j opposite vertex j), quadsInHexahedron (faces
/// {0,3,2,1} {4,5,6,7} {0,1,5,4} {1,2,6,5} {2,3,7,6} {3,0,4,7}); `sub` kPoint gives the
/// vertices. Throws ConfigError naming the first one missing from its list.
std::vector<std::vector<Index>> SubelementsOf(const Topology& topology, TopologyLevel level,
                                              TopologyLevel sub);

/// The number of elements of `level` in `topology`.
std::size_t ElementCount(const Topology& topology, TopologyLevel level);

/// An index list of points after a removal, as SOFA's TopologySubsetIndices follow it: the
/// removed points dropped, the others renamed, the order kept.
std::vector<Index> RenumberPointSubset(const std::vector<Index>& indices,
                                       const std::vector<Index>& point_map);

/// A vector of `dimension` values per point after a removal: entry i of the result is the old
/// entry point_origin[i] (SOFA moves the last point's values into each removed slot).
Vector RenumberPointValues(const Vector& values, int dimension,
                           const std::vector<Index>& point_origin);

}  // namespace fluxion::internal
