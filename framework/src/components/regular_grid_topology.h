// SOFA's RegularGridTopology.
// Source: Sofa/Component/Topology/Container/Grid/src/sofa/component/topology/container/grid/
//         RegularGridTopology.{h,cpp} and GridTopology.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A regular grid of nx×ny×nz points between min and max with its edges, quads, triangles and
/// hexahedra in SOFA's numbering (mechanics/regular_grid.cpp). Sizes come from `n`, or from the
/// legacy nx ny nz when all three are given (as SOFA); the legacy xmin…zmax (read as floats, as
/// SOFA does) replace min/max when all six are given. computeHexaList, computeQuadList,
/// computeTriangleList and computeEdgeList choose the lists kept, as SOFA's GridUpdate
/// (mechanics/regular_grid.h, KeepGridLists): without triangles the edges are the grid lines.
/// `position` is SOFA's output data: GridTopology::init (computePointList, on by default) writes
/// the grid's own points there, and RegularGridTopology::getPointInGrid never reads it, so a
/// value or a link given there (SOFA's examples write `position="@object.position"`, a link back
/// to the object that takes its points from this grid) changes nothing. Fluxion accepts it and
/// neither reads it nor follows the link, which would otherwise build the object before its
/// topology. Deviation: with computePointList="false", SOFA's topology would publish the given
/// value as its `position`; Fluxion publishes the grid's points.
class RegularGridTopologyComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
