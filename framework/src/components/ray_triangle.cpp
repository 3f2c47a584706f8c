#include "components/ray_triangle.h"

#include <Eigen/Geometry>
#include <cmath>
#include <limits>

namespace fluxion::internal {

namespace {
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
}  // namespace

std::optional<RayHit> RayPlaneCoordinates(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                          const Eigen::Vector3d& c, const Eigen::Vector3d& origin,
                                          const Eigen::Vector3d& direction) {
  // Solve origin + t·direction = a + u·(b − a) + v·(c − a) by Cramer's rule.
  const Eigen::Vector3d e0 = b - a, e1 = c - a;
  const Eigen::Vector3d pvec = direction.cross(e1);
  const double det = e0.dot(pvec);
  if (std::abs(det) <= kEpsilon) return std::nullopt;
  const Eigen::Vector3d tvec = origin - a;
  const Eigen::Vector3d qvec = tvec.cross(e0);
  return RayHit{e1.dot(qvec) / det, tvec.dot(pvec) / det, direction.dot(qvec) / det};
}

std::optional<RayHit> RayTriangleHit(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                     const Eigen::Vector3d& c, const Eigen::Vector3d& origin,
                                     const Eigen::Vector3d& direction) {
  const std::optional<RayHit> hit = RayPlaneCoordinates(a, b, c, origin, direction);
  if (!hit) return std::nullopt;
  const auto [t, u, v] = *hit;
  if (u < -kEpsilon || u > 1.0 + kEpsilon) return std::nullopt;
  if (v < -kEpsilon || u + v > 1.0 + kEpsilon) return std::nullopt;
  if (!(t >= kEpsilon)) return std::nullopt;
  return hit;
}

}  // namespace fluxion::internal
