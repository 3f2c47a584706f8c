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
/// With `flip_normals` each new triangle is then reversed, as SOFA's addTriangle reverses every
/// triangle it adds under `flipNormals` (the quads were reversed when read: FlipElements).
void TriangulateQuads(Topology& mesh, bool flip_normals = false);

/// SOFA's MeshLoader `flipNormals`: its addTriangle and addQuad store each element the file gives
/// in reverse order, (t2 t1 t0) and (q3 q2 q1 q0), which turns every normal (a pressure's
/// direction, a surface's outside). Volumes, edges and the faces createSubelements adds are not
/// reversed (SOFA pushes those directly).
void FlipElements(Topology& mesh);

}  // namespace fluxion::internal
