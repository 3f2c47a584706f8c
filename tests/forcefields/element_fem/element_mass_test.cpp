// SOFA's FEMMass element matrices (mechanics/element_mass.h) against closed forms:
// - hexahedron: on a box a × b × c with a uniform density the 2×2×2 Gauss rule is exact, and
//   the trilinear mass matrix is ρV·Π_k m_k with m_k = ⅓ for two vertices at the same end of
//   axis k and ⅙ for opposite ends (the 1-D linear element's consistent mass ∫N_iN_j = h/3, h/6,
//   divided by h); on any hexahedron with a density linear in space the total mass is ∫ρ dV;
// - tetrahedron: SOFA's one-point rule gives V·ρ̄/16 for every pair (its total ρV is right;
//   the exact consistent matrix ρV/20·(1 + δ_ab) is not what SOFA computes: the test pins
//   both facts so that a change to either rule is seen).
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include <Eigen/Geometry>  // cross
#include <Eigen/LU>        // determinant

#include "mechanics/element_mass.h"

namespace fluxion::internal {
namespace {

// Round-off of sums of ~64 terms of size ρV: a few ulps each.
constexpr double kRoundOff = 1e-13;

constexpr int kCorner[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                               {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

std::array<Eigen::Vector3d, 8> Box(const Eigen::Vector3d& origin, const Eigen::Vector3d& size) {
  std::array<Eigen::Vector3d, 8> X;
  for (int a = 0; a < 8; ++a)
    for (int k = 0; k < 3; ++k)
      X[static_cast<std::size_t>(a)][k] = origin[k] + (kCorner[a][k] > 0 ? size[k] : 0.0);
  return X;
}

TEST(ElementMass, BoxIsTheExactTrilinearMassMatrix) {
  const Eigen::Vector3d size(0.3, 0.5, 1.7);
  const double rho = 1100.0, volume = size.prod();
  std::array<double, 8> density;
  density.fill(rho);
  const Eigen::Matrix<double, 8, 8> M = HexahedronMassMatrix(Box({1.0, -2.0, 0.5}, size), density);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      double expected = rho * volume;
      for (int k = 0; k < 3; ++k)
        expected *= kCorner[a][k] == kCorner[b][k] ? 1.0 / 3.0 : 1.0 / 6.0;
      EXPECT_NEAR(M(a, b), expected, kRoundOff * rho * volume) << a << " " << b;
    }
  // Diagonal ρV/27, three distinct off-diagonal values ρV/54, /108, /216; total ρV.
  EXPECT_NEAR(M(0, 0), rho * volume / 27.0, kRoundOff * rho * volume);
  EXPECT_NEAR(M(0, 6), rho * volume / 216.0, kRoundOff * rho * volume);
  EXPECT_NEAR(M.sum(), rho * volume, kRoundOff * rho * volume);
}

TEST(ElementMass, HexahedronIntegratesALinearDensityExactly) {
  // A sheared box (a parallelepiped, not axis-aligned) and ρ(X) = ρ₀ + g·X at its nodes: ρ is
  // linear in ξ there and N_a·N_b quadratic per axis, which two-point Gauss integrates exactly,
  // so Σ_ab M_ab = ∫ρ dV. The reference, independently: the box cut into six tetrahedra around
  // its diagonal 0–6, each contributing V_t·ρ(centroid) (exact for a linear ρ).
  std::array<Eigen::Vector3d, 8> X = Box({0.0, 0.0, 0.0}, {1.0, 2.0, 1.5});
  for (int a = 4; a < 8; ++a) X[static_cast<std::size_t>(a)] += Eigen::Vector3d(0.2, -0.1, 0.0);
  const Eigen::Vector3d gradient(3.0, -1.0, 2.0);
  const double rho0 = 10.0;
  std::array<double, 8> density;
  for (std::size_t a = 0; a < 8; ++a) density[a] = rho0 + gradient.dot(X[a]);
  // Six tetrahedra of the hexahedron around the diagonal 0–6 (each shares it).
  const int tetrahedra[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                                {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  double volume = 0.0, mass = 0.0;
  for (const auto& t : tetrahedra) {
    const Eigen::Vector3d& p0 = X[static_cast<std::size_t>(t[0])];
    const double v = std::abs((X[static_cast<std::size_t>(t[1])] - p0)
                                  .cross(X[static_cast<std::size_t>(t[2])] - p0)
                                  .dot(X[static_cast<std::size_t>(t[3])] - p0)) /
                     6.0;
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
    for (const int a : t) centroid += X[static_cast<std::size_t>(a)] / 4.0;
    volume += v;
    mass += v * (rho0 + gradient.dot(centroid));
  }
  const Eigen::Matrix<double, 8, 8> M = HexahedronMassMatrix(X, density);
  EXPECT_NEAR(volume, 3.0, 1e-14);  // a sheared box keeps its volume
  EXPECT_NEAR(M.sum(), mass, kRoundOff * mass);
}

TEST(ElementMass, TetrahedronIsSofasOnePointRule) {
  const std::array<Eigen::Vector3d, 4> X = {
      Eigen::Vector3d(0.1, 0.2, 0.0), Eigen::Vector3d(1.3, 0.1, 0.2),
      Eigen::Vector3d(0.2, 0.9, -0.1), Eigen::Vector3d(0.3, 0.4, 1.1)};
  const double volume = std::abs((X[1] - X[0]).cross(X[2] - X[0]).dot(X[3] - X[0])) / 6.0;
  const std::array<double, 4> density = {1000.0, 1200.0, 900.0, 1100.0};
  const double mean = 1050.0;
  const Eigen::Matrix4d M = TetrahedronMassMatrix(X, density);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      EXPECT_NEAR(M(a, b), volume * mean / 16.0, kRoundOff * volume * mean) << a << " " << b;
  // Right total mass and row sums; not the consistent matrix ρV/20·(1 + δ_ab) (diagonal ρV/10).
  EXPECT_NEAR(M.sum(), mean * volume, kRoundOff * mean * volume);
  EXPECT_NEAR(M.row(2).sum(), mean * volume / 4.0, kRoundOff * mean * volume);
  EXPECT_GT(std::abs(M(0, 0) - mean * volume / 10.0), 0.3 * mean * volume / 10.0);
}

}  // namespace
}  // namespace fluxion::internal
