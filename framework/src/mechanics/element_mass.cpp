#include "mechanics/element_mass.h"

#include <cmath>

#include <Eigen/LU>  // determinant

namespace fluxion::internal {

namespace {

// The reference corner ξ_a ∈ {−1, 1}³ of hexahedron vertex a (SOFA's referenceElementNodes).
constexpr int kHexahedronCorner[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                         {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

}  // namespace

Eigen::Matrix4d TetrahedronMassMatrix(const std::array<Eigen::Vector3d, 4>& X,
                                      const std::array<double, 4>& rho) {
  // J = [X₁ − X₀, X₂ − X₀, X₃ − X₀] (constant), N = ¼ at the one point, weight ⅙.
  Eigen::Matrix3d J;
  for (int k = 0; k < 3; ++k) J.col(k) = X[static_cast<std::size_t>(k + 1)] - X[0];
  const double det_J = std::abs(J.determinant());
  const double density = 0.25 * (rho[0] + rho[1] + rho[2] + rho[3]);
  return Eigen::Matrix4d::Constant((1.0 / 6.0) * density * det_J * (0.25 * 0.25));
}

Eigen::Matrix<double, 8, 8> HexahedronMassMatrix(const std::array<Eigen::Vector3d, 8>& X,
                                                 const std::array<double, 8>& rho) {
  Eigen::Matrix<double, 8, 8> M = Eigen::Matrix<double, 8, 8>::Zero();
  const double gauss = 1.0 / std::sqrt(3.0);
  for (const auto& corner : kHexahedronCorner) {
    const double q[3] = {corner[0] * gauss, corner[1] * gauss, corner[2] * gauss};
    // N_a and ∂N_a/∂ξ at this point; J = Σ_a X_a ⊗ ∂N_a/∂ξ.
    Eigen::Matrix<double, 8, 1> N;
    Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
    for (int a = 0; a < 8; ++a) {
      const double s0 = kHexahedronCorner[a][0], s1 = kHexahedronCorner[a][1],
                   s2 = kHexahedronCorner[a][2];
      const double f0 = 1 + s0 * q[0], f1 = 1 + s1 * q[1], f2 = 1 + s2 * q[2];
      N[a] = f0 * f1 * f2 / 8.0;
      const Eigen::Vector3d dN(s0 * f1 * f2 / 8.0, f0 * s1 * f2 / 8.0, f0 * f1 * s2 / 8.0);
      J.noalias() += X[static_cast<std::size_t>(a)] * dN.transpose();
    }
    double density = 0.0;
    for (int a = 0; a < 8; ++a) density += N[a] * rho[static_cast<std::size_t>(a)];
    M.noalias() += (density * std::abs(J.determinant())) * (N * N.transpose());  // weight 1
  }
  return M;
}

}  // namespace fluxion::internal
