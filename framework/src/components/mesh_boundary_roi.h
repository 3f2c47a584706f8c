// SOFA's MeshBoundaryROI.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/MeshBoundaryROI.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// The points on the boundary of a triangle and quad surface: an edge (i, j) of the elements
/// (each triangle's and quad's consecutive corners, closing the loop) is on the boundary when
/// exactly one element has it; `indices` are the points of the boundary edges, sorted, each
/// once. Only elements whose points are all in `inputROI` count (all elements when it is empty).
/// `triangles` and `quads` default to the node topology's, each separately, as SOFA's init
/// takes them from the node's topology.
class MeshBoundaryRoiComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
