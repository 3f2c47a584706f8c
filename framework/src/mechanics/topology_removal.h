// Element removal as SOFA's dynamic topology modifiers do it: which elements and points go, and
// how the survivors are renumbered. Every component that follows a change (the object's state,
// index lists, per-element data) renumbers through the maps this returns.
// Sources (SOFA tree, Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/
// container/dynamic/):
//   TriangleSetTopologyModifier.cpp (removeItems = removeTriangles(ids, true, true);
//     removeTrianglesWarning sorts the ids in descending order; removeTrianglesProcess moves the
//     last triangle into each removed slot, and collects the edges and the points whose shell of
//     triangles became empty);
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

/// What a removal did: the reduced topology and, per level, where each old element went.
struct TopologyRemoval {
  /// What a map holds for an element or point that was removed.
  static constexpr Index kRemoved = -1;

  Topology topology;  ///< the reduced topology (points included, renumbered)
  /// Old index → new index or kRemoved, one entry per old point / edge / triangle.
  std::vector<Index> point_map, edge_map, triangle_map;
  /// New index → old index (the inverse of the maps on their survivors).
  std::vector<Index> point_origin, edge_origin, triangle_origin;
  /// The triangles removed (old indices, after dropping out-of-range ones: SOFA's order,
  /// descending), then the edges and points found isolated, descending.
  std::vector<Index> removed_triangles, removed_edges, removed_points;
  /// Indices at or beyond the triangle count: SOFA skips them with a warning.
  std::vector<Index> out_of_range;
};

/// SOFA's TriangleSetTopologyModifier::removeItems(ids): the listed triangles, then the edges
/// and points no remaining triangle uses (only those of the removed triangles: an edge or point
/// that had no triangle before stays). `topology` must list every edge of its triangles (SOFA's
/// containers create them: CompleteTopology) and hold no quads or volumes. Throws ConfigError
/// naming the first triangle side missing from the edges.
TopologyRemoval RemoveTriangles(const Topology& topology, const std::vector<Index>& ids);

/// An index list of points after a removal, as SOFA's TopologySubsetIndices follow it: the
/// removed points dropped, the others renamed, the order kept.
std::vector<Index> RenumberPointSubset(const std::vector<Index>& indices,
                                       const std::vector<Index>& point_map);

/// A vector of `dimension` values per point after a removal: entry i of the result is the old
/// entry point_origin[i] (SOFA moves the last point's values into each removed slot).
Vector RenumberPointValues(const Vector& values, int dimension,
                           const std::vector<Index>& point_origin);

}  // namespace fluxion::internal
