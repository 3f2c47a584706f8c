// SOFA's RegularGridTopology.
// Source: Sofa/Component/Topology/Container/Grid/src/sofa/component/topology/container/grid/
//         RegularGridTopology.{h,cpp} and GridTopology.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A regular grid of nx×ny×nz points between min and max with its edges, quads, triangles and
/// hexahedra in SOFA's numbering (mechanics/regular_grid.cpp). Sizes come from `n`, or from the
/// legacy nx ny nz when all three are given (as SOFA); the legacy xmin…zmax (read as floats, as
/// SOFA does) replace min/max when all six are given.
/// Deviation: `p0` is refused unless 0 0 0.
class RegularGridTopologyComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
