// SOFA's RegularGridTopology: points and elements of a regular grid.
#pragma once

#include <array>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// Largest grid accepted (points): a hostile scene must not make us allocate without bound.
inline constexpr Index kMaxGridPoints = 20'000'000;

/// The grid of n[0]×n[1]×n[2] points from `min` to `max` (see regular_grid.cpp for SOFA's
/// numbering and element lists); `p0`, when given, is its first point instead (SOFA's p0 data:
/// the spacing still comes from min and max). Preconditions: every n ≥ 1 and the product ≤
/// kMaxGridPoints.
Topology MakeRegularGrid(const std::array<Index, 3>& n, const std::array<double, 3>& min,
                         const std::array<double, 3>& max,
                         const std::array<double, 3>* p0 = nullptr);

/// Which element lists a grid keeps: SOFA's computeHexaList, computeQuadList,
/// computeTriangleList and computeEdgeList (GridTopology::GridUpdate).
struct GridLists {
  bool hexahedra = true;
  bool quads = true;
  bool triangles = true;
  bool edges = true;
};

/// Drops the lists of a grid made by MakeRegularGrid that `lists` turns off, as SOFA's
/// GridUpdate computes them: no hexahedra without computeHexaList; quads unless both
/// computeQuadList and computeTriangleList are off (SOFA's triangles build the quads they split
/// when none exist); no triangles without computeTriangleList, and then the edges are the grid's
/// axis lines instead of those of the triangles (no diagonals); no edges without computeEdgeList.
void KeepGridLists(Topology& grid, const GridLists& lists);

}  // namespace fluxion::internal
