#include "meshio/vtk_cells.h"

namespace fluxion::internal {

Index VtkCells::total_size() const {
  Index total = 0;
  for (const auto& cell : cells) total += 1 + static_cast<Index>(cell.size());
  return total;
}

VtkCells CollectVtkCells(const Topology& topology, bool edges, bool triangles, bool quads,
                         bool tetras, bool hexas) {
  VtkCells out;
  const auto add = [&](const auto& list, int type) {
    for (const auto& cell : list) {
      out.cells.emplace_back(cell.begin(), cell.end());
      out.types.push_back(type);
    }
  };
  if (edges) add(topology.edges, kVtkLine);
  if (triangles) add(topology.triangles, kVtkTriangle);
  if (quads) add(topology.quads, kVtkQuad);
  if (tetras) add(topology.tetrahedra, kVtkTetrahedron);
  if (hexas) add(topology.hexahedra, kVtkHexahedron);
  return out;
}

}  // namespace fluxion::internal
