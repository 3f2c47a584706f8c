// The ray–triangle intersection SOFA's engines use to tell inside from outside.
// Source: sofa::geometry::Triangle::rayIntersection
//         (Sofa/framework/Geometry/src/sofa/geometry/Triangle.h), the Möller–Trumbore test
//         (T. Möller, B. Trumbore, "Fast, minimum storage ray-triangle intersection", Journal of
//         Graphics Tools 2(1), 1997).
#pragma once

#include <Eigen/Core>
#include <optional>

namespace fluxion::internal {

/// Where the line origin + t·direction meets the plane of a triangle (a, b, c):
/// origin + t·direction = a + u·(b − a) + v·(c − a).
struct RayHit {
  double t, u, v;
};

/// The line's coordinates on the triangle's plane, whether or not it meets the triangle; nothing
/// when it is parallel to the plane (|det| ≤ machine epsilon, as SOFA tests it).
std::optional<RayHit> RayPlaneCoordinates(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                          const Eigen::Vector3d& c, const Eigen::Vector3d& origin,
                                          const Eigen::Vector3d& direction);

/// Where the ray meets triangle (a, b, c), or nothing. SOFA's tolerances: a hit on an edge or a
/// vertex (barycentric coordinates within machine epsilon of the triangle) counts; a hit with t
/// below machine epsilon does not (the ray starts just after its origin); a ray parallel to the
/// triangle misses it. `direction` need not be a unit vector: t is in multiples of it.
std::optional<RayHit> RayTriangleHit(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                     const Eigen::Vector3d& c, const Eigen::Vector3d& origin,
                                     const Eigen::Vector3d& direction);

}  // namespace fluxion::internal
