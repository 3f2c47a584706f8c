// The few operations on 3-vectors that SOFA's region-of-interest engines compute with, written
// as SOFA's type::Vec does them (so that a selection on a boundary goes the same way).
#pragma once

#include <array>
#include <cmath>
#include <limits>

namespace fluxion::internal::roi {

using Point = std::array<double, 3>;

inline Point Plus(const Point& a, const Point& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Point Minus(const Point& a, const Point& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Point Times(const Point& a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }
inline double Dot(const Point& a, const Point& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline Point Cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
/// SOFA's Vec::normalize: unchanged when the norm is not above the machine epsilon.
inline Point Normalized(const Point& a) {
  const double norm = std::sqrt(Dot(a, a));
  if (norm <= std::numeric_limits<double>::epsilon()) return a;
  return {a[0] / norm, a[1] / norm, a[2] / norm};
}

}  // namespace fluxion::internal::roi
