// Whether a triangle meets a closed axis-aligned box: the test SOFA's SparseGridTopology uses to
// find the cells a surface crosses (Sofa/Component/Topology/Container/Grid/src/sofa/component/
// topology/container/grid/polygon_cube_intersection/, Green and Hatch's fast_polygon_intersects_
// cube, Graphics Gems V: the triangle scaled into the unit cube [−½, ½]³ in float).
// Fluxion decides it with the separating-axis theorem (Akenine-Möller, "Fast 3D Triangle-Box
// Overlap Testing", 2001): the box's 3 face normals, the triangle's normal and the 9 cross
// products of a box edge with a triangle edge. Both tests count touching as meeting (closed box);
// on the same float-scaled input they agree except where a contact is decided by SOFA's float
// rounding (a triangle exactly on a cell's face, edge or corner).
#pragma once

#include <array>

namespace fluxion::internal {

/// True when the triangle (a, b, c) meets the closed box [−half, half]³ centred at the origin,
/// touching included. Degenerate triangles (segments, points) are handled as what they are.
bool TriangleMeetsCentredBox(const std::array<double, 3>& a, const std::array<double, 3>& b,
                             const std::array<double, 3>& c, double half);

}  // namespace fluxion::internal
