#include "components/ray_triangle.h"

#include <Eigen/Geometry>
#include <cmath>
#include <limits>

namespace fluxion::internal {

std::optional<double> RayTriangleHit(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                     const Eigen::Vector3d& c, const Eigen::Vector3d& origin,
                                     const Eigen::Vector3d& direction) {
  constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
  // Solve origin + t·direction = a + u·(b − a) + v·(c − a) by Cramer's rule.
  const Eigen::Vector3d e0 = b - a, e1 = c - a;
  const Eigen::Vector3d pvec = direction.cross(e1);
  const double det = e0.dot(pvec);
  if (std::abs(det) <= kEpsilon) return std::nullopt;
  const Eigen::Vector3d tvec = origin - a;
  const double u = tvec.dot(pvec) / det;
  if (u < -kEpsilon || u > 1.0 + kEpsilon) return std::nullopt;
  const Eigen::Vector3d qvec = tvec.cross(e0);
  const double v = direction.dot(qvec) / det;
  if (v < -kEpsilon || u + v > 1.0 + kEpsilon) return std::nullopt;
  const double t = e1.dot(qvec) / det;
  if (!(t >= kEpsilon)) return std::nullopt;
  return t;
}

}  // namespace fluxion::internal
