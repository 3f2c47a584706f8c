// SOFA's GridMeshCreator.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/GridMeshCreator.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A `resolution` = nx ny grid of points on the unit square of the plane z = 0 (point x + nx·y at
/// (x/(nx − 1), y/(ny − 1), 0)), with quads (trianglePattern 0) or triangles (1 alternating,
/// 2 upward, 3 downward: SOFA's vertex orders), and their edges each once in SOFA's order (a set
/// of (a, b) pairs as first met); then MeshLoader's transformation. Published as data for links.
class GridMeshCreatorComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
