// Masses from a mesh, as SOFA's DiagonalMass computes them: each element of the topology's
// highest kind (hexahedra, else tetrahedra, quads, triangles, edges) gives density × its measure
// (length, area, volume) in equal parts to its vertices.
// Source: Sofa/Component/Mass/src/sofa/component/mass/DiagonalMass.inl (computeVertexMass,
//         massInitialization, initFromTotalMass) and Sofa/framework/Geometry/src/sofa/geometry/
//         {Edge,Triangle,Quad,Tetrahedron,Hexahedron}.h (the measures, in SOFA's order of
//         operations: a quad is two triangles, a hexahedron six tetrahedra).
#pragma once

#include <array>
#include <vector>

#include "fluxion/topology.h"

namespace fluxion::internal {

/// What MeshMatrixMass's consistent mass matrix of linear elements is made of (SOFA's
/// MeshMatrixMass::computeMass): per element of the highest kind with measure μ (area or volume),
/// ρμ/k_v added to each of its vertices' diagonal and ρμ/k_e to each of its edges' off-diagonal
/// pair, with (k_v, k_e) = (6, 12) for a triangle, (8, 16) for a quad, (10, 20) for a
/// tetrahedron and (20, 40) for a hexahedron (its 12 edges only, SOFA's approximation). The rows
/// sum to the lumped mass, which SOFA gets as `vertex × lumping_coefficient` (2, 2, 2.5, 2.5).
/// Source: Sofa/Component/Mass/src/sofa/component/mass/MeshMatrixMass.inl
///         (applyVertexMass*Creation, applyEdgeMass*Creation, computeMass).
struct MassMatrixParts {
  struct Edge {
    Index a, b;   ///< the two points, in first-seen order of the elements
    double mass;  ///< the off-diagonal entry M(a,b) = M(b,a) per axis
  };
  std::vector<double> vertex;  ///< the diagonal entry per point (per axis)
  std::vector<Edge> edges;     ///< one per element edge, each edge once
  double lumping_coefficient = 1.0;
  double total = 0.0;    ///< Σ vertex + 2 Σ edge mass: the mass the matrix holds
  int element_kind = 0;  ///< as LumpedMass::element_kind; edges-only meshes have none
};

/// MeshMatrixMass's parts for `density` (triangles, quads, tetrahedra or hexahedra).
MassMatrixParts MeshMassMatrixParts(const Topology& topology,
                                    const std::vector<std::array<double, 3>>& points,
                                    double density);

struct LumpedMass {
  std::vector<double> vertex;  ///< one mass per point
  double total = 0.0;          ///< summed in SOFA's order (element by element)
  int element_kind = 0;        ///< 1 edges, 2 triangles, 3 quads, 4 tetrahedra, 5 hexahedra; 0 none
};

/// The masses for `density` on `points` (3 coordinates each; `num_points` of them).
LumpedMass LumpedVertexMass(const Topology& topology,
                            const std::vector<std::array<double, 3>>& points, double density);

double EdgeLength(const std::array<double, 3>& a, const std::array<double, 3>& b);
double TriangleArea(const std::array<double, 3>& a, const std::array<double, 3>& b,
                    const std::array<double, 3>& c);
double TetrahedronVolume(const std::array<double, 3>& a, const std::array<double, 3>& b,
                         const std::array<double, 3>& c, const std::array<double, 3>& d);
/// SOFA's quad area: the triangles (q0, q1, q2) and (q0, q2, q3), summed in that order.
double QuadArea(const std::vector<std::array<double, 3>>& points, const std::array<Index, 4>& q);
/// SOFA's hexahedron volume: its six tetrahedra (geometry/Hexahedron.h), summed in that order.
double HexahedronVolume(const std::vector<std::array<double, 3>>& points,
                        const std::array<Index, 8>& h);

}  // namespace fluxion::internal
