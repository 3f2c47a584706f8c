#include "components/box_region.h"

#include <cmath>

namespace fluxion::internal {

namespace {

using Vec3 = std::array<double, 3>;

Vec3 Minus(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 Plus(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 Times(const Vec3& a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }
double Dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
// SOFA's Vec::normalize: a zero vector stays zero.
Vec3 Normalized(const Vec3& a) {
  const double norm = std::sqrt(Dot(a, a));
  return norm > 0 ? Times(a, 1.0 / norm) : a;
}

}  // namespace

bool BoxRegion::Set(const std::vector<double>& boxes, const std::vector<double>& oriented,
                    std::string& why) {
  if (boxes.size() % 6 != 0) {
    why = "'box' has " + std::to_string(boxes.size()) +
          " numbers (expected 6 per box: xmin ymin zmin xmax ymax zmax)";
    return false;
  }
  if (oriented.size() % 10 != 0) {
    why = "'orientedBox' has " + std::to_string(oriented.size()) +
          " numbers (expected 10 per box: p0 p1 p2 depth)";
    return false;
  }
  aligned_.clear();
  for (std::size_t b = 0; b < boxes.size(); b += 6) {
    std::array<double, 6> box{};
    for (int k = 0; k < 6; ++k) box[k] = boxes[b + k];
    for (int axis = 0; axis < 3; ++axis)
      if (box[axis] > box[axis + 3]) std::swap(box[axis], box[axis + 3]);
    aligned_.push_back(box);
  }
  oriented_.clear();
  for (std::size_t b = 0; b < oriented.size(); b += 10) {
    const Vec3 p0 = {oriented[b], oriented[b + 1], oriented[b + 2]};
    const Vec3 p1 = {oriented[b + 3], oriented[b + 4], oriented[b + 5]};
    const Vec3 p2 = {oriented[b + 6], oriented[b + 7], oriented[b + 8]};
    Oriented box;
    box.depth = oriented[b + 9];
    box.normal = Normalized(Cross(Minus(p1, p0), Minus(p2, p0)));
    if (Dot(box.normal, box.normal) == 0.0) {
      why = "'orientedBox' " + std::to_string(b / 10) +
            " has p0, p1, p2 on one line (expected a rectangle's three corners)";
      return false;
    }
    const Vec3 p3 = Plus(p0, Minus(p2, p1));
    const Vec3 p6 = Plus(p2, Times(box.normal, box.depth));
    box.p0 = p0;
    box.p2 = p2;
    box.plane0 = Normalized(Cross(Minus(p1, p0), box.normal));
    box.plane1 = Normalized(Cross(Minus(p2, p3), Minus(p6, p3)));
    box.plane2 = Normalized(Cross(Minus(p3, p0), box.normal));
    box.plane3 = Normalized(Cross(Minus(p2, p1), Minus(p6, p2)));
    box.width = std::fabs(Dot(Minus(p2, p0), box.plane0));
    box.length = std::fabs(Dot(Minus(p2, p0), box.plane2));
    oriented_.push_back(box);
  }
  return true;
}

bool BoxRegion::Contains(const double* p, int dimension) const {
  for (const std::array<double, 6>& box : aligned_) {
    bool inside = true;
    for (int i = 0; i < dimension && inside; ++i) inside = p[i] >= box[i] && p[i] <= box[i + 3];
    if (inside) return true;
  }
  if (dimension != 3) return false;
  const Vec3 point = {p[0], p[1], p[2]};
  for (const Oriented& box : oriented_) {
    const Vec3 v0 = Minus(point, box.p0);
    const Vec3 v1 = Minus(point, box.p2);
    if (std::fabs(Dot(v0, box.plane0)) <= box.width &&
        std::fabs(Dot(v1, box.plane1)) <= box.width &&
        std::fabs(Dot(v0, box.plane2)) <= box.length &&
        std::fabs(Dot(v1, box.plane3)) <= box.length &&
        std::fabs(Dot(v0, box.normal)) <= std::fabs(box.depth / 2))
      return true;
  }
  return false;
}

}  // namespace fluxion::internal
