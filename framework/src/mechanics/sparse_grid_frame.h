// The regular grid under a sparse grid, as SOFA's RegularGridTopology holds it after setPos:
// its points, cells and the cell of a point (shared by mechanics/sparse_grid.cpp and
// mechanics/sparse_grid_ramification.cpp).
// Source: Sofa/Component/Topology/Container/Grid/src/sofa/component/topology/container/grid/
//         RegularGridTopology.cpp (setPos, getPoint, cube, findCube).
#pragma once

#include <array>
#include <cmath>

#include "mechanics/sparse_grid.h"

namespace fluxion::internal::sparse_grid {

using GridPoint = std::array<double, 3>;
using GridCell = std::array<Index, 3>;

// The regular grid's geometry as SOFA's RegularGridTopology holds it after setPos.
class GridFrame {
 public:
  explicit GridFrame(const VoxelGrid& grid) : grid_(grid) {
    for (int a = 0; a < 3; ++a) {
      step_[a] = (grid.max[a] - grid.min[a]) / static_cast<double>(grid.n[a] - 1);
      inverse_step2_[a] = 1.0 / (step_[a] * step_[a]);
    }
  }
  Index cells(int axis) const { return grid_.n[axis] - 1; }
  Index num_cells() const { return cells(0) * cells(1) * cells(2); }
  Index CellIndex(const GridCell& c) const { return c[0] + cells(0) * (c[1] + cells(1) * c[2]); }
  GridCell CellOf(Index index) const {
    return {index % cells(0), (index / cells(0)) % cells(1), index / (cells(0) * cells(1))};
  }
  // Grid point (i, j, k): SOFA's p0 + dx·i + dy·j + dz·k with p0 = min.
  GridPoint PointAt(Index i, Index j, Index k) const {
    return {grid_.min[0] + step_[0] * static_cast<double>(i),
            grid_.min[1] + step_[1] * static_cast<double>(j),
            grid_.min[2] + step_[2] * static_cast<double>(k)};
  }
  // SOFA's RegularGridTopology::findCube: t = (p − p0)·d / |d|² per axis, the cell ⌊t⌋ when it is
  // one of the grid's.
  bool FindCell(const GridPoint& p, GridCell& cell) const {
    for (int a = 0; a < 3; ++a) {
      const double t = (p[a] - grid_.min[a]) * step_[a] * inverse_step2_[a];
      const double floor = std::floor(t);
      if (!(floor >= 0.0) || floor > static_cast<double>(cells(a) - 1)) return false;
      cell[a] = static_cast<Index>(floor);
    }
    return true;
  }
  const VoxelGrid& grid() const { return grid_; }
  double step(int axis) const { return step_[axis]; }

 private:
  VoxelGrid grid_;
  GridPoint step_{}, inverse_step2_{};
};

// The corners of cell (x, y, z) as grid point coordinates, in SOFA's hexahedron order.
inline std::array<GridCell, 8> CellCorners(const GridCell& c) {
  const Index x = c[0], y = c[1], z = c[2];
  return {GridCell{x, y, z},
          GridCell{x + 1, y, z},
          GridCell{x + 1, y + 1, z},
          GridCell{x, y + 1, z},
          GridCell{x, y, z + 1},
          GridCell{x + 1, y, z + 1},
          GridCell{x + 1, y + 1, z + 1},
          GridCell{x, y + 1, z + 1}};
}

}  // namespace fluxion::internal::sparse_grid
