// MinResLinearSolver (linear/minres_linear_solver.h), SOFA's MINRES, against hand computations
// and dense solutions: the first iterate is the minimiser of ‖b − A·x‖ over span{b}; the method
// solves symmetric indefinite systems (where CG's recurrence breaks down); it starts from the x it
// is given.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <string>

#include "fluxion/errors.h"
#include "fluxion/parameters.h"
#include "linear/minres_linear_solver.h"

namespace fluxion::internal {
namespace {

MinResLinearSolver Make(const std::string& iterations, const std::string& tolerance) {
  return MinResLinearSolver(ParseParameters(
      MinResLinearSolver::Spec(), {{"iterations", iterations}, {"tolerance", tolerance}}));
}

SparseMatrix FromDense(const Eigen::MatrixXd& dense) {
  SparseMatrix A = dense.sparseView();
  A.makeCompressed();
  return A;
}

// A = diag(2, 5), b = (1, 1), x₀ = 0. One iteration: x₁ = t·b minimising ‖b − t·A·b‖, t =
// bᵀA·b/‖A·b‖² = 7/29. Two: the Krylov space is all of R², x₂ = A⁻¹·b = (½, ⅕).
TEST(MinResLinearSolver, FirstIterateMinimisesTheResidualAlongB) {
  const SparseMatrix A = FromDense(Eigen::Vector2d(2.0, 5.0).asDiagonal());
  const Vector b{{1.0, 1.0}};
  MinResLinearSolver one = Make("1", "0");
  ASSERT_TRUE(one.Factorize(A).ok);
  Vector x;
  const LinearSolveResult first = one.Solve(b, x);
  EXPECT_TRUE(first.ok);
  EXPECT_EQ(first.iterations, 1);
  EXPECT_FALSE(first.converged);
  EXPECT_NEAR(x[0], 7.0 / 29.0, 1e-15);
  EXPECT_NEAR(x[1], 7.0 / 29.0, 1e-15);

  MinResLinearSolver two = Make("2", "1e-12");
  ASSERT_TRUE(two.Factorize(A).ok);
  x.resize(0);
  const LinearSolveResult second = two.Solve(b, x);
  EXPECT_NEAR(x[0], 0.5, 1e-14);
  EXPECT_NEAR(x[1], 0.2, 1e-14);
}

// A symmetric indefinite matrix (eigenvalues of both signs: a saddle point), which MINRES solves
// to its tolerance: the dense LU solution to 1e-9 relative.
TEST(MinResLinearSolver, SolvesASymmetricIndefiniteSystem) {
  Eigen::MatrixXd dense(4, 4);
  dense << 4, 1, 0, 2,  //
      1, -3, 1, 0,      //
      0, 1, 2, 1,       //
      2, 0, 1, -5;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(dense);
  ASSERT_LT(eigen.eigenvalues().minCoeff(), 0.0);
  ASSERT_GT(eigen.eigenvalues().maxCoeff(), 0.0);
  const Vector b{{1.0, -2.0, 0.5, 3.0}};
  MinResLinearSolver minres = Make("50", "1e-13");
  const SparseMatrix A = FromDense(dense);  // alive until the last Solve (LinearSolver's rule)
  ASSERT_TRUE(minres.Factorize(A).ok);
  Vector x;
  const LinearSolveResult result = minres.Solve(b, x);
  EXPECT_TRUE(result.ok);
  EXPECT_TRUE(result.converged) << result.message;
  const Vector exact = dense.partialPivLu().solve(b);
  EXPECT_LE((x - exact).norm(), 1e-9 * exact.norm());
}

// SOFA's MINRES starts from the solution vector it is handed: given the solution, r₀ = 0 and it
// returns it untouched after no iteration. Misuse throws.
TEST(MinResLinearSolver, StartsFromTheGivenSolution) {
  const SparseMatrix A = FromDense(Eigen::Vector2d(2.0, 5.0).asDiagonal());
  MinResLinearSolver minres = Make("10", "1e-10");
  Vector x;
  EXPECT_THROW(minres.Solve(Vector{{1.0, 1.0}}, x), UsageError);
  ASSERT_TRUE(minres.Factorize(A).ok);
  x = Vector{{0.5, 0.2}};
  const LinearSolveResult result = minres.Solve(Vector{{1.0, 1.0}}, x);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(x[0], 0.5);
  EXPECT_EQ(x[1], 0.2);
}

}  // namespace
}  // namespace fluxion::internal
