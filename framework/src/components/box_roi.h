// SOFA's BoxROI.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/BoxROI.{h,inl} and
//         BaseROI.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Selects the points (and edges, triangles, quads, tetrahedra, hexahedra) inside boxes, for
/// other components to take through links: indices="@box.indices". Points are the node's
/// object's rest positions unless `position` is given; elements are the node topology's unless
/// given. An element is inside when all its points are (strict, SOFA's default) or its center
/// is. Outputs as SOFA names them: indices, edgeIndices, …, pointsInROI, edgesInROI, …,
/// nbIndices, and the …Out… complements. Deviation: the selection is made once, when the scene is
/// built (SOFA's doUpdate re-selects each step from rest positions, which do not change).
class BoxRoiComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
