// What the legacy and the XML VTK readers share: one VTK cell kept as SOFA's MeshVTKLoader keeps
// it (Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshVTKLoader.cpp, setInputsMesh).
#pragma once

#include <span>
#include <string>

#include "fluxion/topology.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {

/// Adds the VTK cell of `type` whose vertices are `v` to `mesh`: 3 line (an edge), 5 triangle,
/// 6 triangle strip (SOFA's alternating orientation), 7 polygon (a fan), 8 pixel (the quad
/// 0 1 3 2), 9 quad, 10 tetrahedron, 11 voxel (the hexahedron 0 1 3 2 4 5 7 6), 12 hexahedron;
/// any other type is counted in `notes.skipped_elements`. Only the vertices the cell uses are
/// checked against `points`. Returns "" or what is wrong, for the caller's one-line error.
std::string AddVtkCell(long type, std::span<const Index> v, Index points, Topology& mesh,
                       MeshNotes& notes);

}  // namespace fluxion::internal
