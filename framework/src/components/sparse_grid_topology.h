// SOFA's SparseGridTopology: a closed surface mesh voxelized into the cells of a regular grid; the
// cells the surface crosses and those it encloses become the node's hexahedra.
// Source: Sofa/Component/Topology/Container/Grid/src/sofa/component/topology/container/grid/
//         SparseGridTopology.{h,cpp} (fields and defaults, init, buildAsFinest,
//         buildFromTriangleMesh, buildVirtualFinerLevels); mechanics/sparse_grid.h has the
//         voxelization, the numbering and their sources.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// The surface comes from `fileTopology` (alias `filename`, a Wavefront .obj, read under the
/// data-file policy) or, without a file, from `position` with `triangles` and `quads` (SOFA's
/// MeshTopology inputs, e.g. linked to a loader). The regular grid has `n` points per axis
/// between `min` and `max`; when both are 0 0 0 (SOFA's defaults) it is the mesh's bounding box
/// grown by 1 % of its size on each side; `cellWidth` > 0 replaces n by ⌈size/w⌉ + 1 per axis.
/// With `nbVirtualFinerLevels` = L, the mesh is voxelized on the grid of (n − 1)·2^L + 1 points
/// and coarsened L times (SOFA's buildFromFiner). `fillWeighted` gives boundary cells the
/// stiffness and mass coefficient 0.5 (else 1; kept in Topology::sparse_grid);
/// `onlyInsideCells` drops the boundary cells. The node's topology is the points and hexahedra
/// only, as SOFA's (its edges, quads and triangles stay empty, so a MeshSpringForceField makes
/// springs on every vertex pair of each cube).
///
/// Deliberate differences from SOFA, each an error where SOFA logs and goes on (or silently
/// changes the input): n < 2 on an axis (SOFA raises it to 2); a mesh file that is missing,
/// unreadable, not a .obj (SOFA's .voxel and .raw voxel files and VoxelLoader are not
/// supported), has no vertices or a non-finite one; min ≥ max on an axis; a grid larger than the
/// memory budget allows; no cell kept. The voxel options (dataResolution, voxelSize,
/// marchingCubeStep, convolutionSize, dataVoxels) are accepted and, as in SOFA for a surface mesh,
/// unused. A surface that is not closed (an edge used by an odd number of faces) is voxelized as
/// SOFA does, with a warning: the flood from the grid's border leaks in through its holes and keeps
/// only the cells the surface crosses there.
class SparseGridTopologyComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

/// SOFA's SparseGridRamificationTopology (mechanics/sparse_grid_ramification.h): the same
/// fields and checks, and `finestConnectivity` (SOFA's default 1): the finest level's boundary
/// cells are connected only where a surface edge crosses their common face. Deliberate
/// differences: those of SparseGridTopology above.
class SparseGridRamificationTopologyComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
