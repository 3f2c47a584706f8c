// The size of a SOFA grid topology (GridTopology and its subclasses: RegularGridTopology,
// CylinderGridTopology, SphereGridTopology): `n`, or the legacy nx ny nz given together.
#pragma once

#include <array>
#include <string>

#include "fluxion/component.h"
#include "mechanics/regular_grid.h"

namespace fluxion::internal {

/// Reads the points along each axis into `n` (`counts` as written: a legacy nx may exceed any
/// Index); false after reporting against `type`. The component's spec declares `n` (an index
/// list) and `nx`, `ny`, `nz` (optional reals, at least 1).
bool GridSize(BuildContext& context, const std::string& type, std::array<Index, 3>& n,
              std::array<double, 3>& counts);

/// The four fields computeHexaList, computeQuadList, computeTriangleList, computeEdgeList
/// (booleans, default true), declared by every grid topology.
std::vector<FieldSpec> GridListFields();
/// Their values.
GridLists ReadGridLists(const Parameters& parameters);

}  // namespace fluxion::internal
