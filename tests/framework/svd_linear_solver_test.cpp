// SVDLinearSolver (linear/svd_linear_solver.h), SOFA's x = V·Σ⁺·Uᵀ·b with singular values at or
// below minSingularValue dropped, on systems whose decomposition is known by hand.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/parameters.h"
#include "linear/svd_linear_solver.h"

namespace fluxion::internal {
namespace {

SparseMatrix FromDense(const Eigen::MatrixXd& dense) {
  SparseMatrix A = dense.sparseView();
  A.makeCompressed();
  return A;
}

SvdLinearSolver Make(const std::string& min_singular_value = "1e-6") {
  return SvdLinearSolver(
      ParseParameters(SvdLinearSolver::Spec(), {{"minSingularValue", min_singular_value}}));
}

// A free spring between two points, A = [[1, −1], [−1, 1]]: σ = 2 along u = (1, −1)/√2 and 0
// along (1, 1)/√2. The solution is the minimum-norm least-squares one: b = (1, −1) = √2·u gives
// x = u·√2/2 = (½, −½); b = (1, 0) has u-component 1/√2, so x = u·(1/√2)/2 = (¼, −¼) — the
// part of b along the null space is dropped, not divided by 0.
TEST(SvdLinearSolver, GivesTheMinimumNormSolutionOfASingularSystem) {
  Eigen::MatrixXd dense(2, 2);
  dense << 1, -1, -1, 1;
  SvdLinearSolver svd = Make();
  ASSERT_TRUE(svd.Factorize(FromDense(dense)).ok);
  Vector x;
  ASSERT_TRUE(svd.Solve(Vector{{1.0, -1.0}}, x).ok);
  EXPECT_NEAR(x[0], 0.5, 1e-15);
  EXPECT_NEAR(x[1], -0.5, 1e-15);
  ASSERT_TRUE(svd.Solve(Vector{{1.0, 0.0}}, x).ok);
  EXPECT_NEAR(x[0], 0.25, 1e-15);
  EXPECT_NEAR(x[1], -0.25, 1e-15);
}

// diag(1, 1e-7, 3): with SOFA's default threshold 1e-6 the middle component is dropped; with a
// threshold of 0 it is divided by 1e-7. The condition number is σ_max/σ_min = 3e7 either way.
TEST(SvdLinearSolver, DropsSingularValuesAtOrBelowTheThreshold) {
  const Eigen::MatrixXd dense = Eigen::Vector3d(1.0, 1e-7, 3.0).asDiagonal();
  const Vector b{{2.0, 5.0, 6.0}};
  for (const auto& [threshold, middle] :
       std::vector<std::pair<std::string, double>>{{"1e-6", 0.0}, {"0", 5.0e7}}) {
    SvdLinearSolver svd = Make(threshold);
    ASSERT_TRUE(svd.Factorize(FromDense(dense)).ok);
    Vector x;
    ASSERT_TRUE(svd.Solve(b, x).ok);
    EXPECT_NEAR(x[0], 2.0, 1e-15) << threshold;
    EXPECT_NEAR(x[1], middle, 1e-15 * 5.0e7) << threshold;
    EXPECT_NEAR(x[2], 2.0, 1e-15) << threshold;
    EXPECT_NEAR(svd.condition_number(), 3.0e7, 1e-8 * 3.0e7);
  }
}

// Misuse: a solve before any factorisation throws; a non-finite matrix fails, and so do the
// solves after it.
TEST(SvdLinearSolver, RefusesMisuseAndNonFiniteMatrices) {
  SvdLinearSolver svd = Make();
  Vector x;
  EXPECT_THROW(svd.Solve(Vector{{1.0}}, x), UsageError);
  Eigen::MatrixXd dense = Eigen::MatrixXd::Identity(2, 2);
  dense(1, 1) = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(svd.Factorize(FromDense(dense)).ok);
  EXPECT_FALSE(svd.Solve(Vector{{1.0, 1.0}}, x).ok);
}

}  // namespace
}  // namespace fluxion::internal
