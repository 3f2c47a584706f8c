// A triangle's rest data as TriangularFEMForceField (and its Optim) compute it from the rest
// positions: written once for the component's build (components/triangle_fem_force_field.cpp)
// and an addition of triangles followed in place (build/addition_in_place.cpp), so that both
// give the same bits.
// Source: SOFA's TriangularFEMForceField.inl (initSmall, initLarge, computeRotationLarge) and
// TriangularFEMForceFieldOptim.inl (initTriangleInfo).
#pragma once

#include <Eigen/Dense>

#include "mechanics/tetrahedron_fem.h"

namespace fluxion::internal {

/// What a component gives per triangle: its rest points in the rest frame (a at 0) and its area.
struct TriangleRestShape {
  Eigen::Vector2d b, c;
  double area = 0.0;
};

/// SOFA's initLarge: the rest triangle in its computeRotationLarge frame, b on e_x (its y is 0),
/// and its area b_x·c_y/2.
inline TriangleRestShape LargeRest(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                   const Eigen::Vector3d& c) {
  const Eigen::Matrix3d r = EdgeFrame(a, b, c);
  TriangleRestShape s;
  s.b = Eigen::Vector2d(r.row(0).dot(b - a), 0.0);
  s.c = (r.topRows<2>() * (c - a)).eval();
  s.area = 0.5 * s.b.x() * s.c.y();
  return s;
}

/// SOFA's initSmall: the world's x, y of the edges from a, and the 3-D area.
inline TriangleRestShape SmallRest(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                   const Eigen::Vector3d& c) {
  return {(b - a).head<2>(), (c - a).head<2>(), 0.5 * (b - a).cross(c - a).norm()};
}

/// TriangularFEMForceFieldOptim's initTriangleInfo: the edges from a scaled by restScale, in
/// initLarge's frame.
inline TriangleRestShape ScaledLargeRest(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                         const Eigen::Vector3d& c, double scale) {
  return LargeRest(a, a + scale * (b - a), a + scale * (c - a));
}

}  // namespace fluxion::internal
