// SOFA's SphereGridTopology.
// Source: Sofa/Component/Topology/Container/Grid/src/sofa/component/topology/container/grid/
//         SphereGridTopology.{h,cpp} and GridTopology.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A grid of nx×ny×nz points squeezed from the cube [−r, r]³ onto the ball of radius r around
/// `center`, oriented by `axis`; the elements are the regular grid's
/// (mechanics/shaped_grids.h). Sizes from `n` or the legacy nx ny nz given together.
/// Deviation: any size below 2 is refused (SOFA divides by n − 1 and makes NaN points).
class SphereGridTopologyComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
