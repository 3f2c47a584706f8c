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

}  // namespace fluxion::internal
