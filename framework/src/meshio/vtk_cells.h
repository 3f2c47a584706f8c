// VTK cells, both ways. Reading (the legacy and the XML readers): one VTK cell kept as SOFA's
// MeshVTKLoader keeps it (Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshVTKLoader.cpp,
// setInputsMesh). Writing (SOFA's exporters, the --vtk trajectory): a topology's elements as VTK
// cells, in the order SOFA's VTKExporter writes them.
#pragma once

#include <span>
#include <string>
#include <vector>

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

/// VTK's cell type numbers for the elements a Topology holds.
inline constexpr int kVtkVertex = 1, kVtkLine = 3, kVtkTriangle = 5, kVtkQuad = 9,
                     kVtkTetrahedron = 10, kVtkHexahedron = 12;

/// The cells SOFA's VTK writers export, in SOFA's order (edges, triangles, quads, tetrahedra,
/// hexahedra), each with its VTK cell type.
struct VtkCells {
  std::vector<std::vector<Index>> cells;
  std::vector<int> types;
  Index total_size() const;  ///< Σ (1 + points of the cell): the legacy CELLS size
};
VtkCells CollectVtkCells(const Topology& topology, bool edges, bool triangles, bool quads,
                         bool tetras, bool hexas);

}  // namespace fluxion::internal
