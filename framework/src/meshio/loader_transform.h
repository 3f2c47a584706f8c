// What SOFA's MeshLoader does to every loaded mesh after reading it: the transformation of its
// points, and the triangulation of its quads.
#pragma once

#include <array>

#include "fluxion/topology.h"

namespace fluxion::internal {

/// SOFA's MeshLoader::reinit: x ← T·R·S·x with S = diag(scale3d), R the rotation of the Euler
/// angles `rotation` [degrees] (SOFA's Quat::createQuaterFromEuler: R = Rz·Ry·Rx) and T the
/// translation.
void ApplyLoaderTransform(Topology& mesh, const std::array<double, 3>& scale3d,
                          const std::array<double, 3>& rotation,
                          const std::array<double, 3>& translation);

/// SOFA's MeshLoader::updateElements with `triangulate`: each quad (q0 q1 q2 q3) becomes the
/// triangles (q0 q1 q2) and (q0 q2 q3), appended after the existing triangles; no quad remains.
void TriangulateQuads(Topology& mesh);

}  // namespace fluxion::internal
