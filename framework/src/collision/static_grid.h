// A uniform grid over the boxes of a model that does not move (a static obstacle): which of its
// elements' boxes overlap a given box, found by visiting the few cells around that box instead of
// descending a bounding tree from its root.
#pragma once

#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "collision/bounding_tree.h"

namespace fluxion::internal::collision {

/// The elements of a non-moving model bucketed by the cell of their box's lower corner. The grid
/// is built once, from the boxes SOFA keeps for a model that is not `moving` (it never refits
/// them); its cells are at least as large as the largest element box on each axis, so that a box
/// overlapping a query reaches back at most one cell from it.
///
/// ForEachOverlap visits exactly the elements BoxesOverlap(element box, query, margin) accepts —
/// the same set as a bounding tree's traversal, so the same element pairs are tested — each once.
/// Proof sketch: the cell index of a coordinate, ⌊(x − origin)·cells/width⌋ clamped, is a
/// non-decreasing function of x in floating point. An element box A overlapping query Q has
/// A.min ≤ Q.max + margin (so its cell is at most the query's upper cell) and
/// A.min ≥ A.max − extent ≥ Q.min − margin − extent (so at least the cell of that bound, taken
/// lower by a relative 1e-9 that covers every rounding in between). A query with a NaN coordinate
/// (which BoxesOverlap never rejects on that axis) is compared with every element.
class StaticGrid {
 public:
  /// Builds the grid over `leaves` (their boxes are copied). Returns false, leaving the grid
  /// unusable, when the boxes do not suit a grid: none, a non-finite one, or sizes so uneven that
  /// the cells would hold more than a few elements each on average (a bounding tree is then the
  /// better search). Allocates.
  bool Build(std::span<const Box> leaves);
  bool usable() const { return usable_; }

  /// Calls visit(e) for every element e whose box overlaps `query` within `margin`
  /// (BoxesOverlap), each once, in an order that depends only on the query and the grid. No
  /// allocation.
  template <class Visit>
  void ForEachOverlap(const Box& query, double margin, Visit&& visit) const {
    if (query.min.hasNaN() || query.max.hasNaN()) {
      for (std::size_t k = 0; k < elements_.size(); ++k)
        if (BoxesOverlap(boxes_[k], query, margin)) visit(elements_[k]);
      return;
    }
    // Outside the union of the boxes within the margin: no box can overlap.
    if (!BoxesOverlap(bounds_, query, margin)) return;
    std::array<int, 3> lo, hi;
    for (int a = 0; a < 3; ++a) {
      const double low = query.min[a] - margin - extent_[a];
      const double slack = 1e-9 * (std::abs(query.min[a]) + margin + extent_[a]);
      lo[a] = Cell(a, low - slack);
      hi[a] = Cell(a, query.max[a] + margin);
    }
    for (int z = lo[2]; z <= hi[2]; ++z)
      for (int y = lo[1]; y <= hi[1]; ++y) {
        // The cells [lo.x, hi.x] of one row are consecutive: one run of boxes.
        const std::size_t row = (static_cast<std::size_t>(z) * cells_[1] + y) * cells_[0];
        const std::size_t end = start_[row + hi[0] + 1];
        for (std::size_t k = start_[row + lo[0]]; k < end; ++k)
          if (BoxesOverlap(boxes_[k], query, margin)) visit(elements_[k]);
      }
  }

 private:
  // The cell along axis a of coordinate x: non-decreasing in x, clamped to the grid (NaN: 0).
  int Cell(int a, double x) const {
    const double v = (x - origin_[a]) * scale_[a];
    if (!(v > 0.0)) return 0;
    if (v >= static_cast<double>(cells_[a] - 1)) return static_cast<int>(cells_[a] - 1);
    return static_cast<int>(v);
  }

  bool usable_ = false;
  Box bounds_;                                // the union of the boxes
  std::array<double, 3> origin_{}, scale_{};  // cell = (x − origin)·scale
  std::array<double, 3> extent_{};            // the largest box side per axis
  std::array<std::size_t, 3> cells_{1, 1, 1};
  std::vector<std::size_t> start_;  // per cell (x fastest), the first of its boxes; one past
  std::vector<Box> boxes_;          // the boxes, cell by cell, ascending element within a cell
  std::vector<Index> elements_;     // the element of each box
};

}  // namespace fluxion::internal::collision
