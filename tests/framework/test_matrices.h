// Test matrices for the linear solvers' tests: small random SPD systems and the matrix of a cloth's
// implicit step.
#pragma once

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "fluxion/types.h"

namespace fluxion::internal::test_matrices {

// A sparse SPD matrix: a 1-D Laplacian-like band plus random symmetric couplings, made diagonally
// dominant (so its condition number stays modest), and a random right-hand side.
struct SpdSystem {
  SparseMatrix A;
  Vector b;
  double condition = 0;
};
inline SpdSystem MakeSpdSystem(Index n, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
  for (Index i = 0; i + 1 < n; ++i)
    dense(i, i + 1) = dense(i + 1, i) = -1.0 + 0.2 * uniform(generator);
  for (int k = 0; k < 2 * n; ++k) {
    const Index i = static_cast<Index>(generator() % static_cast<unsigned>(n));
    const Index j = static_cast<Index>(generator() % static_cast<unsigned>(n));
    if (i != j) dense(i, j) = dense(j, i) = 0.5 * uniform(generator);
  }
  for (Index i = 0; i < n; ++i)
    dense(i, i) = dense.row(i).cwiseAbs().sum() + 1.0 + uniform(generator) * 0.5;
  SpdSystem system;
  system.A = dense.sparseView();
  system.A.makeCompressed();
  system.b = Vector::NullaryExpr(n, [&] { return uniform(generator); });
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(dense);
  system.condition = eigen.eigenvalues().maxCoeff() / eigen.eigenvalues().minCoeff();
  return system;
}

// The matrix of a cloth's implicit step on an n × n grid: 3 × 3 blocks coupling each point to its
// grid neighbours and one diagonal per quad (MeshSpringForceField on RegularGridTopology's edges),
// each spring k·u·uᵀ for a random unit u, plus a diagonal mass term: symmetric positive definite.
inline SparseMatrix ClothMatrix(int n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<Eigen::Triplet<double, int>> triplets;
  const auto spring = [&](int a, int b) {
    Eigen::Vector3d u(uniform(random), uniform(random), uniform(random));
    u.normalize();
    const Eigen::Matrix3d k = 50.0 * u * u.transpose() + 0.5 * Eigen::Matrix3d::Identity();
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        triplets.emplace_back(3 * a + r, 3 * a + c, k(r, c));
        triplets.emplace_back(3 * b + r, 3 * b + c, k(r, c));
        triplets.emplace_back(3 * a + r, 3 * b + c, -k(r, c));
        triplets.emplace_back(3 * b + r, 3 * a + c, -k(r, c));
      }
  };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = i + n * j;
      if (i + 1 < n) spring(a, a + 1);
      if (j + 1 < n) spring(a, a + n);
      if (i + 1 < n && j + 1 < n) spring(a, a + n + 1);
    }
  for (int k = 0; k < 3 * n * n; ++k) triplets.emplace_back(k, k, 1.0);
  SparseMatrix A(3 * n * n, 3 * n * n);
  A.setFromTriplets(triplets.begin(), triplets.end());
  A.makeCompressed();
  return A;
}

}  // namespace fluxion::internal::test_matrices
