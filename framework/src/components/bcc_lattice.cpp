#include "components/bcc_lattice.h"

#include <cmath>

namespace fluxion::internal {

namespace {

// The lowest and highest primary grid index relative to the box's centre along one axis, as SOFA
// computes them (truncation towards zero of the half-extent in cells, plus 2).
std::array<double, 2> IndexRange(double low, double high, double cell) {
  const double centre = (low + high) / 2;
  return {-(std::trunc((centre - low) / cell) + 2), std::trunc((high - centre) / cell) + 2};
}

// Offsets (0 or 1 per axis) from a primary point's index to the dual points of its short edges
// 6–13, in SOFA's order; entries 2j and 2j+1 are opposite corners, so edge e^1 reverses edge e.
constexpr std::array<std::array<int, 3>, 8> kCorner = {
    {{0, 0, 0}, {1, 1, 1}, {0, 1, 0}, {1, 0, 1}, {0, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 0}}};

}  // namespace

double BccLattice::PointCount(const std::array<double, 3>& low, const std::array<double, 3>& high,
                              double cell) {
  double primary = 1, dual = 1;
  for (int axis = 0; axis < 3; ++axis) {
    const auto [first, last] = IndexRange(low[axis], high[axis], cell);
    primary *= last - first + 1;
    dual *= last - first + 2;
  }
  return primary + dual;
}

BccLattice::BccLattice(const std::array<double, 3>& low, const std::array<double, 3>& high,
                       double cell)
    : cell_(cell) {
  for (int axis = 0; axis < 3; ++axis) {
    const auto [first, last] = IndexRange(low[axis], high[axis], cell);
    primary_[axis] = static_cast<Index>(last - first) + 1;
    dual_[axis] = primary_[axis] + 1;
    primary_origin_[axis] = (low[axis] + high[axis]) / 2 + first * cell;
    dual_origin_[axis] = primary_origin_[axis] - cell / 2;
  }
  first_dual_ = primary_[0] * primary_[1] * primary_[2];
}

std::array<double, 3> BccLattice::Position(Index point) const {
  const bool primary = is_primary(point);
  const std::array<Index, 3>& n = primary ? primary_ : dual_;
  const std::array<double, 3>& origin = primary ? primary_origin_ : dual_origin_;
  Index rest = primary ? point : point - first_dual_;
  std::array<double, 3> x{};
  for (int axis = 0; axis < 3; ++axis) {
    x[axis] = origin[axis] + static_cast<double>(rest % n[axis]) * cell_;
    rest /= n[axis];
  }
  return x;
}

Index BccLattice::Neighbour(Index point, int edge) const {
  const bool primary = is_primary(point);
  const std::array<Index, 3>& n = primary ? primary_ : dual_;
  Index rest = primary ? point : point - first_dual_;
  std::array<Index, 3> c{};
  for (int axis = 0; axis < 3; ++axis) {
    c[axis] = rest % n[axis];
    rest /= n[axis];
  }
  // Long edges stay in the point's grid; short edges go to the other grid, whose index is the
  // primary index plus the corner offset (dual index minus one minus the offset, coming back).
  const bool to_primary = edge < 6 ? primary : !primary;
  if (edge < 6) {
    c[edge / 2] += edge % 2 == 1 ? 1 : -1;
  } else {
    for (int axis = 0; axis < 3; ++axis) c[axis] += kCorner[edge - 6][axis] - (primary ? 0 : 1);
  }
  const std::array<Index, 3>& m = to_primary ? primary_ : dual_;
  for (int axis = 0; axis < 3; ++axis)
    if (c[axis] < 0 || c[axis] >= m[axis]) return -1;
  return (to_primary ? 0 : first_dual_) + c[0] + m[0] * (c[1] + m[1] * c[2]);
}

}  // namespace fluxion::internal
