#include "collision/static_grid.h"

#include <algorithm>

namespace fluxion::internal::collision {

bool StaticGrid::Build(std::span<const Box> leaves) {
  usable_ = false;
  const std::size_t n = leaves.size();
  if (n == 0) return false;
  bounds_ = leaves[0];
  extent_ = {0.0, 0.0, 0.0};
  for (const Box& box : leaves) {
    if (!box.min.allFinite() || !box.max.allFinite()) return false;
    bounds_.min = bounds_.min.cwiseMin(box.min);
    bounds_.max = bounds_.max.cwiseMax(box.max);
    for (int a = 0; a < 3; ++a) extent_[a] = std::max(extent_[a], box.max[a] - box.min[a]);
  }
  // Cell sides: no smaller than the largest box side on the axis (a box then starts at most one
  // cell before a query that it overlaps), nor than half the largest side of any axis (a flat
  // mesh's layer is not cut into thin slices along its normal).
  const double largest = std::max({extent_[0], extent_[1], extent_[2]});
  std::array<double, 3> count{1.0, 1.0, 1.0};
  for (int a = 0; a < 3; ++a) {
    const double side = std::max(extent_[a], 0.5 * largest);
    const double width = bounds_.max[a] - bounds_.min[a];
    if (side > 0.0 && width > side) count[a] = std::floor(width / side);
  }
  // At most about two cells per element: sparse boxes get a coarser grid.
  const double limit = 2.0 * static_cast<double>(n) + 64.0;
  const double total = count[0] * count[1] * count[2];
  if (total > limit) {
    const double shrink = std::cbrt(limit / total);
    for (double& c : count) c = std::max(1.0, std::floor(c * shrink));
  }
  for (int a = 0; a < 3; ++a) {
    cells_[a] = static_cast<std::size_t>(count[a]);
    origin_[a] = bounds_.min[a];
    const double width = bounds_.max[a] - bounds_.min[a];
    scale_[a] = cells_[a] > 1 && width > 0.0 ? count[a] / width : 0.0;
  }

  // Elements bucketed by the cell of their lower corner, ascending within a cell.
  const std::size_t cells = cells_[0] * cells_[1] * cells_[2];
  const auto cell_of = [this](const Box& box) {
    return (static_cast<std::size_t>(Cell(2, box.min[2])) * cells_[1] +
            static_cast<std::size_t>(Cell(1, box.min[1]))) *
               cells_[0] +
           static_cast<std::size_t>(Cell(0, box.min[0]));
  };
  start_.assign(cells + 1, 0);
  for (const Box& box : leaves) ++start_[cell_of(box) + 1];
  std::size_t occupied = 0;
  for (std::size_t c = 0; c < cells; ++c) {
    occupied += start_[c + 1] > 0 ? 1 : 0;
    start_[c + 1] += start_[c];
  }
  std::vector<std::size_t> next(start_.begin(), start_.end() - 1);
  boxes_.resize(n);
  elements_.resize(n);
  for (std::size_t e = 0; e < n; ++e) {
    const std::size_t k = next[cell_of(leaves[e])]++;
    boxes_[k] = leaves[e];
    elements_[k] = static_cast<Index>(e);
  }
  // Uneven sizes (a few large boxes set the cell size for many small ones) crowd the cells: a
  // query would then compare many boxes, and the bounding tree is the better search.
  usable_ = n <= 16 * occupied;
  return usable_;
}

}  // namespace fluxion::internal::collision
