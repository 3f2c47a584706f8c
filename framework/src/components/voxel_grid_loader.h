// SOFA's VoxelGridLoader.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/VoxelGridLoader.{h,cpp}
// (init, reinit, isActive, loadImage), Sofa/framework/Core/src/sofa/core/loader/VoxelLoader.cpp
// (its data position and hexahedra) and Sofa/framework/Helper/src/sofa/helper/io/ImageRAW.cpp
// (the raw file: `header` bytes skipped, then one byte per voxel, x fastest, then y, then z).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads a raw 8-bit voxel image of `resolution` nx ny nz and makes one hexahedron per active
/// voxel of the region of interest, publishing position, hexahedra and idxInRegularGrid.
///
/// As SOFA: the ROI is clamped to the image; voxel (i, j, k) has index i + nx·(j + ny·k) and is
/// active when its byte is one of `dataValue` (if given), else when it is not one of `bgValue`
/// (if given), else always; the grid point (i, j, k) sits at (i·sx, j·sy, k·sz) (the voxel
/// sizes); only the points active voxels use are kept, numbered in the order k, then j, then i
/// (i fastest); a voxel's hexahedron is its corners (i,j,k) (i+1,j,k) (i+1,j+1,k) (i,j+1,k) and
/// the same at k+1; idxInRegularGrid lists the active voxels' indices. With generateHexa=0 the
/// points are the active voxels' corners (i·sx, j·sy, k·sz) and there are no hexahedra.
///
/// Deliberate differences: a file shorter than header + nx·ny·nz bytes, a resolution with a 0,
/// or a file name not ending in .raw is an error (SOFA logs and loads nothing); `dataValue` and
/// `bgValue` are matched as sets (SOFA binary-searches them unsorted as written, which misses
/// values of an unsorted list); `segmentationHeader` is accepted and, as in SOFA, unused.
class VoxelGridLoaderComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
