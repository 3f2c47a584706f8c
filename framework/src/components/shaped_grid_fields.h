// What CylinderGridTopology and SphereGridTopology share: their grid fields (SOFA's GridTopology
// ones plus center and axis) and the checks of their size, center and axis.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// n, nx/ny/nz, center, axis and SOFA's accepted compute* options.
std::vector<FieldSpec> ShapedGridFields();

/// Reads the size (at least 2 points along x and y, `min_z` along z), center and axis; false
/// after reporting. Also refuses grids too large for the scene.
bool ShapedGridSetup(BuildContext& context, const std::string& type, Index min_z,
                     std::array<Index, 3>& n, std::array<double, 3>& center,
                     std::array<double, 3>& axis);

}  // namespace fluxion::internal
