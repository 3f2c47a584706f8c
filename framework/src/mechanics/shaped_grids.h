// SOFA's grids bent into a cylinder or a ball: a regular grid's numbering and elements, with each
// point (i, j, k) moved to SOFA's getPointInGrid of CylinderGridTopology or SphereGridTopology.
#pragma once

#include <array>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// An orthonormal frame (x, y, z) whose z is `axis` normalised, built as SOFA builds it: x starts
/// as (1, 0, 0), or (0, 1, 0) when the axis is (1, 0, 0); y = z × x; x = y × z.
/// Precondition: `axis` is not zero.
std::array<std::array<double, 3>, 3> SofaGridFrame(const std::array<double, 3>& axis);

/// CylinderGridTopology: the grid's (i, j) square [−r, r]² squeezed onto the disc of radius r
/// (p ← p·max(|p_x|, |p_y|)/‖p‖), k spread along the axis over [0, length] (0 when nz = 1),
/// around `center`. Preconditions: n[0], n[1] ≥ 2, every n ≥ 1, axis not zero.
Topology MakeCylinderGrid(const std::array<Index, 3>& n, const std::array<double, 3>& center,
                          const std::array<double, 3>& axis, double radius, double length);

/// SphereGridTopology: the cube [−r, r]³ squeezed onto the ball of radius r
/// (p ← p·max(|p_x|, |p_y|, |p_z|)/‖p‖), around `center`. Preconditions: every n ≥ 2, axis not
/// zero.
Topology MakeSphereGrid(const std::array<Index, 3>& n, const std::array<double, 3>& center,
                        const std::array<double, 3>& axis, double radius);

}  // namespace fluxion::internal
