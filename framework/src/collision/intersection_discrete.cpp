#include "collision/intersection_discrete.h"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "collision/intersection_min_proximity.h"

namespace fluxion::internal::collision::discrete {

int SphereSphere(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out) {
  // MinProximityIntersection's sphere test is SOFA's DiscreteIntersection one, with the pair's
  // distances (here 0).
  return min_proximity::SphereSphere(pair, a, b, out);
}

int TriangleLine(const ElementPair& pair, Index t, Index line, std::vector<DetectionOutput>& out) {
  const Vec3 a = pair.point(0, t, 0);
  const Vec3 ab = pair.point(0, t, 1) - a, ac = pair.point(0, t, 2) - a;
  const Vec3 p = pair.point(1, line, 0);
  const Vec3 pq = pair.point(1, line, 1) - p;
  Eigen::Matrix3d m;
  m << ab, ac, -pq;
  const double det = m.determinant();
  if (std::abs(det) <= std::numeric_limits<double>::epsilon()) return 0;
  const Vec3 coords = m.inverse() * (p - a);
  if (coords[0] < 0 || coords[1] < 0 || coords[0] + coords[1] > 1) return 0;  // off the triangle
  if (coords[2] < 0 || coords[2] > 1) return 0;                               // off the segment
  const Vec3 x = p + pq * coords[2];
  DetectionOutput& o = out.emplace_back();
  o.point[0] = x;
  o.point[1] = x;
  o.normal = ab.cross(ac).normalized();
  o.value = 0.0;
  o.id = line;
  return 1;
}

}  // namespace fluxion::internal::collision::discrete
