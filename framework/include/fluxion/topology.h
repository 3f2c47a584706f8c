// The connectivity of a mechanical object: points and the elements built on them, as SOFA's
// topology containers expose them (MeshTopology, RegularGridTopology, …).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "fluxion/types.h"

namespace fluxion {

/// What a SparseGridTopology adds to its hexahedra (defined in the framework, opaque to plugins).
struct SparseGridCells;

/// The element lists of a Topology, to name one of them (e.g. which elements a per-element
/// output belongs to).
enum class ElementType { kEdge, kTriangle, kQuad, kTetrahedron, kHexahedron };

/// Points (always 3-D coordinates, as SOFA stores them whatever the object's template) and the
/// elements of a mesh. Element vertex indices refer to `points`. A topology is a plain value:
/// components build it once while the scene is built, and the model keeps it unchanged.
struct Topology {
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<Index, 2>> edges;
  std::vector<std::array<Index, 3>> triangles;
  std::vector<std::array<Index, 4>> quads;
  std::vector<std::array<Index, 4>> tetrahedra;
  std::vector<std::array<Index, 8>> hexahedra;
  std::array<Index, 3> grid_size = {0, 0, 0};  ///< nx, ny, nz for regular grids, else 0 0 0
  /// For a SparseGridTopology: the regular grid its hexahedra are cells of and each cell's kind
  /// (BarycentricMapping locates points by it, as SOFA's sparse-grid mapper); else null.
  std::shared_ptr<const SparseGridCells> sparse_grid;

  bool empty() const {
    return points.empty() && edges.empty() && triangles.empty() && quads.empty() &&
           tetrahedra.empty() && hexahedra.empty();
  }
};

}  // namespace fluxion
