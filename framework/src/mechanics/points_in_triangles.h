// Points added inside triangles, as SOFA's TopologicalChangeProcessor does for an
// `ADD= PointsInTriangle N` line followed by N records "triangle c0 c1": each new point has the
// triangle's three vertices as ancestors with the coefficients (c0, c1, 1 − c0 − c1), and every
// point vector (positions, velocities, rest positions) gains Σ_j w_j·value(vertex j), appended
// after the existing points in the order given.
// Sources: Sofa/Component/Topology/Utility/src/sofa/component/topology/utility/
//          TopologicalChangeProcessor.cpp (processTopologicalChanges: "PointsInTriangle", the
//          ancestors t[0], t[1], t[2] and coefficients c0, c1, 1 − c0 − c1, then
//          TriangleSetTopologyModifier::addPoints(n, ancestors, coefficients, true));
//          Sofa/Component/StateContainer/src/sofa/component/statecontainer/MechanicalObject.inl
//          (the PointsAdded handler: each vector's new entries are the weighted sums of their
//          ancestors).
#pragma once

#include <array>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// The ancestors and weights of points added inside triangles.
struct PointsInTriangles {
  std::vector<std::array<Index, 3>> ancestors;
  std::vector<std::array<double, 3>> weights;
};

/// The points of `records` (triangle, c0, c1 per point) in the triangles of `topology`. Throws
/// ConfigError naming a triangle the topology does not have.
PointsInTriangles LocatePointsInTriangles(const Topology& topology,
                                          const std::vector<Index>& triangles,
                                          const std::vector<double>& coordinates);

/// `values` (`dimension` values per point) with the new points' weighted sums appended.
Vector AppendPoints(const Vector& values, int dimension, const PointsInTriangles& points);

/// `topology` with the new points appended to its points (no element added).
Topology AppendPoints(const Topology& topology, const PointsInTriangles& points);

}  // namespace fluxion::internal
