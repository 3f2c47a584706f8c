// SOFA's CylinderGridTopology.
// Source: Sofa/Component/Topology/Container/Grid/src/sofa/component/topology/container/grid/
//         CylinderGridTopology.{h,cpp} and GridTopology.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A grid of nx×ny×nz points bent into a cylinder: each (i, j) layer squeezed from the square
/// [−r, r]² onto the disc of radius r, layers spread over `length` along `axis`, around
/// `center`; the elements are the regular grid's (mechanics/shaped_grids.h). Sizes from `n` or
/// the legacy nx ny nz given together.
/// Deviation: nx or ny below 2 is refused (SOFA divides by nx − 1 and makes NaN points).
class CylinderGridTopologyComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
