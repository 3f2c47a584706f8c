// SOFA's RegularGridTopology: points and elements of a regular grid.
#pragma once

#include <array>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// The points (always 3-D coordinates) and elements of a mesh, as SOFA's topology containers
/// expose them. Element vertex indices refer to `points`.
struct Topology {
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<Index, 2>> edges;
  std::vector<std::array<Index, 3>> triangles;
  std::vector<std::array<Index, 4>> quads;
  std::vector<std::array<Index, 4>> tetrahedra;
  std::vector<std::array<Index, 8>> hexahedra;
  std::array<Index, 3> grid_size = {0, 0, 0};  ///< nx, ny, nz for grids
};

/// Largest grid accepted (points): a hostile scene must not make us allocate without bound.
inline constexpr Index kMaxGridPoints = 20'000'000;

/// The grid of n[0]×n[1]×n[2] points from `min` to `max` (see regular_grid.cpp for SOFA's
/// numbering and element lists). Preconditions: every n ≥ 1 and the product ≤ kMaxGridPoints.
FLUXION_API Topology MakeRegularGrid(const std::array<Index, 3>& n,
                                     const std::array<double, 3>& min,
                                     const std::array<double, 3>& max);

}  // namespace fluxion::internal
