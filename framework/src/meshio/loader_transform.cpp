// Source: Sofa/framework/Core/src/sofa/core/loader/MeshLoader.cpp (reinit, applyTransformation,
// updateElements).
#include "meshio/loader_transform.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace fluxion::internal {

void ApplyLoaderTransform(Topology& mesh, const std::array<double, 3>& scale3d,
                          const std::array<double, 3>& rotation,
                          const std::array<double, 3>& translation) {
  const double degree = M_PI / 180.0;
  const Eigen::Quaterniond q = Eigen::AngleAxisd(rotation[2] * degree, Eigen::Vector3d::UnitZ()) *
                               Eigen::AngleAxisd(rotation[1] * degree, Eigen::Vector3d::UnitY()) *
                               Eigen::AngleAxisd(rotation[0] * degree, Eigen::Vector3d::UnitX());
  // One 4×4 product T·R·S, as SOFA forms it, applied to each point.
  Eigen::Matrix4d transform = Eigen::Matrix4d::Identity();
  transform.topLeftCorner<3, 3>() =
      q.toRotationMatrix() * Eigen::Vector3d(scale3d[0], scale3d[1], scale3d[2]).asDiagonal();
  transform.topRightCorner<3, 1>() =
      Eigen::Vector3d(translation[0], translation[1], translation[2]);
  if (transform == Eigen::Matrix4d::Identity()) return;
  for (std::array<double, 3>& point : mesh.points) {
    const Eigen::Vector4d moved = transform * Eigen::Vector4d(point[0], point[1], point[2], 1.0);
    point = {moved[0], moved[1], moved[2]};
  }
}

void TriangulateQuads(Topology& mesh, bool flip_normals) {
  for (const std::array<Index, 4>& q : mesh.quads) {
    if (flip_normals) {
      mesh.triangles.push_back({q[2], q[1], q[0]});
      mesh.triangles.push_back({q[3], q[2], q[0]});
    } else {
      mesh.triangles.push_back({q[0], q[1], q[2]});
      mesh.triangles.push_back({q[0], q[2], q[3]});
    }
  }
  mesh.quads.clear();
}

void FlipElements(Topology& mesh) {
  for (auto& triangle : mesh.triangles) std::reverse(triangle.begin(), triangle.end());
  for (auto& quad : mesh.quads) std::reverse(quad.begin(), quad.end());
}

}  // namespace fluxion::internal
