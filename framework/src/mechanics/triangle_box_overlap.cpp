#include "mechanics/triangle_box_overlap.h"

#include <algorithm>
#include <cmath>

namespace fluxion::internal {

namespace triangle_box {  // named, not anonymous: unity builds merge this file with others

using Vec = std::array<double, 3>;

Vec Minus(const Vec& u, const Vec& v) { return {u[0] - v[0], u[1] - v[1], u[2] - v[2]}; }
double Dot(const Vec& u, const Vec& v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }
Vec Cross(const Vec& u, const Vec& v) {
  return {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
}

// True when `axis` separates the triangle from the box: the triangle's projection lies wholly
// beyond the box's projection radius half·(|ax| + |ay| + |az|), strictly (touching meets).
bool Separates(const Vec& axis, const Vec& a, const Vec& b, const Vec& c, double half) {
  const double pa = Dot(axis, a), pb = Dot(axis, b), pc = Dot(axis, c);
  const double radius = half * (std::abs(axis[0]) + std::abs(axis[1]) + std::abs(axis[2]));
  return std::min({pa, pb, pc}) > radius || std::max({pa, pb, pc}) < -radius;
}

}  // namespace triangle_box

bool TriangleMeetsCentredBox(const std::array<double, 3>& a, const std::array<double, 3>& b,
                             const std::array<double, 3>& c, double half) {
  using namespace triangle_box;
  // The box's face normals: the triangle's bounding box against the box.
  for (int axis = 0; axis < 3; ++axis) {
    const double lo = std::min({a[axis], b[axis], c[axis]});
    const double hi = std::max({a[axis], b[axis], c[axis]});
    if (lo > half || hi < -half) return false;
  }
  // The triangle's plane (a zero normal, for a degenerate triangle, separates nothing).
  const std::array<Vec, 3> edges = {Minus(b, a), Minus(c, b), Minus(a, c)};
  if (Separates(Cross(edges[0], edges[1]), a, b, c, half)) return false;
  // Each box edge direction crossed with each triangle edge.
  for (int axis = 0; axis < 3; ++axis) {
    Vec unit = {0.0, 0.0, 0.0};
    unit[axis] = 1.0;
    for (const Vec& edge : edges)
      if (Separates(Cross(unit, edge), a, b, c, half)) return false;
  }
  return true;
}

}  // namespace fluxion::internal
