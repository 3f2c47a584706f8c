// Barycentric weights of points embedded in a volume mesh: each point as a weighted sum of the
// vertices of the element that holds it (or of the nearest element, extrapolated), the constant
// Jacobian of SOFA's BarycentricMapping.
//
// Sources (read for the formulas, in Sofa/Component/Mapping/Linear/src/sofa/component/mapping/
// linear/BarycentricMappers/):
//  - BarycentricMapperRegularGridTopology.inl (init, apply) with RegularGridTopology::findCube
//    and findNearestCube (Sofa/Component/Topology/Container/Grid/…/RegularGridTopology.cpp): the
//    cell (ix, iy, iz) = ⌊(p − p0)·d / |d|²⌋ per axis (clamped into the grid when the point is
//    outside: it is then extrapolated), f = the fractional part, and trilinear weights
//    (1−fx)(1−fy)(1−fz) … fx·fy·fz on the cell's corners;
//  - BarycentricMapperTetrahedronSetTopology.inl / BarycentricMapperTopologyContainer.inl: the
//    coordinates v = B⁻¹(p − p0), B = [p1−p0, p2−p0, p3−p0], weights (1−v0−v1−v2, v0, v1, v2) in
//    the tetrahedron minimising d = max(−v0, −v1, −v2, v0+v1+v2−1), or, for a point outside every
//    tetrahedron (d > 0), |p − centre|²;
//  - BarycentricMapperHexahedronSetTopology.inl with HexahedronSetGeometryAlgorithms::
//    computeHexahedronRestBarycentricCoeficients: v = B⁻¹(p − p0), B = [p1−p0, p3−p0, p4−p0] (a
//    parallelepiped: exact for undeformed boxes, as in SOFA), trilinear weights as for the grid,
//    in the hexahedron minimising d = max(−v, v−1) (or |p − centre|² outside).
// Fluxion searches every element (SOFA hashes them first: it finds the same element, up to ties
// between elements that share the point's face, where both give the same position).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fluxion/topology.h"

namespace fluxion::internal {

/// The parents of one point: (parent point, weight) pairs, weights summing to 1.
using PointStencil = std::vector<std::pair<Index, double>>;
using Point3 = std::array<double, 3>;

/// Trilinear weights in a regular grid (`grid.grid_size` and its points, SOFA's cell and corner
/// order). Empty when the grid has no volume (fewer than 2 points along an axis).
std::vector<PointStencil> GridWeights(const Topology& grid, const std::vector<Point3>& points);

/// Trilinear weights in a SparseGridTopology's cells (`grid.sparse_grid` set), as SOFA's
/// BarycentricMapperSparseGridTopology::init with SparseGridTopology::findCube and
/// findNearestCube: the regular cell holding the point (RegularGridTopology::findCube's rule)
/// when it is one of the hexahedra, f its fractional part; otherwise the boundary hexahedron
/// whose centre (the midpoint of its corners 0 and 6) is nearest (distance rounded to float,
/// the first of equals), f = (p − corner 0)/(corner 6 − corner 0) per axis (extrapolated).
/// Both use the topology's own points, not the object's.
std::vector<PointStencil> SparseGridWeights(const Topology& grid,
                                            const std::vector<Point3>& points);

/// True when `topology` is a regular grid: grid_size set and its points on p0 + i·dx + j·dy +
/// k·dz (RegularGridTopology, not a cylinder or sphere grid).
bool IsRegularGrid(const Topology& topology);

/// Barycentric weights in tetrahedra whose vertices are `vertices` (one per point of the parent).
std::vector<PointStencil> TetrahedronWeights(const std::vector<std::array<Index, 4>>& tetrahedra,
                                             const std::vector<Point3>& vertices,
                                             const std::vector<Point3>& points);

/// Trilinear weights in hexahedra treated as parallelepipeds (SOFA's vertex order).
std::vector<PointStencil> HexahedronWeights(const std::vector<std::array<Index, 8>>& hexahedra,
                                            const std::vector<Point3>& vertices,
                                            const std::vector<Point3>& points);

}  // namespace fluxion::internal
