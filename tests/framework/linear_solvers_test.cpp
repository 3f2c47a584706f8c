// The scene's linear solvers: CGLinearSolver (linear/cg_linear_solver.h) with SOFA's stopping
// rules, and SparseLDLSolver (linear/ldl_linear_solver.h) with its reused symbolic analysis (its
// CHOLMOD factorisation: cholmod_cholesky_test.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>
#include <cmath>
#include <limits>
#include <random>

#include "fluxion/errors.h"
#include "fluxion/parameters.h"
#include "linear/cg_linear_solver.h"
#include "linear/ldl_linear_solver.h"
#include "test_matrices.h"

namespace fluxion::internal {
namespace {

using test_matrices::MakeSpdSystem;
using test_matrices::SpdSystem;
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
using Dense = Eigen::MatrixXd;

// Textbook unpreconditioned CG from x = 0, `steps` updates, in dense arithmetic (independent of
// the solver under test). Returns x; `residuals[k]` = ‖r_k‖/‖b‖.
Vector ReferenceCg(const Dense& A, const Vector& b, int steps,
                   std::vector<double>* residuals = nullptr) {
  Vector x = Vector::Zero(b.size()), r = b, p = r;
  double rho = r.squaredNorm();
  if (residuals) residuals->push_back(std::sqrt(rho) / b.norm());
  for (int k = 0; k < steps; ++k) {
    const Vector q = A * p;
    const double alpha = rho / p.dot(q);
    x += alpha * p;
    r -= alpha * q;
    const double rho_next = r.squaredNorm();
    p = r + (rho_next / rho) * p;
    rho = rho_next;
    if (residuals) residuals->push_back(std::sqrt(rho) / b.norm());
  }
  return x;
}

CgLinearSolver MakeCg(const std::string& iterations, const std::string& tolerance,
                      const std::string& threshold, bool warm_start = false) {
  return CgLinearSolver(
      ParseParameters(CgLinearSolver::Spec(), {{"iterations", iterations},
                                               {"tolerance", tolerance},
                                               {"threshold", threshold},
                                               {"warmStart", warm_start ? "1" : "0"}}));
}

TEST(CgLinearSolver, SolvesSpdSystemToItsTolerance) {
  const SpdSystem system = MakeSpdSystem(40, 1);
  const double tolerance = 1e-10;
  CgLinearSolver cg = MakeCg("1000", "1e-10", "0");
  ASSERT_TRUE(cg.Factorize(system.A).ok);
  Vector x;
  const LinearSolveResult result = cg.Solve(system.b, x);
  EXPECT_TRUE(result.ok);
  EXPECT_TRUE(result.converged);
  EXPECT_LE(result.residual, tolerance);
  EXPECT_GT(result.iterations, 1);
  const Vector exact = Dense(system.A).ldlt().solve(system.b);
  // ‖r‖/‖b‖ ≤ tol bounds the relative error by κ(A)·tol; the recursive residual CG tests drifts
  // from the true one by O(ε·κ) per iteration, far below tol here (κ < 10).
  ASSERT_LT(system.condition, 10.0);
  EXPECT_LE((x - exact).norm() / exact.norm(), system.condition * tolerance * 1.01);
  EXPECT_LE((system.b - system.A * x).norm() / system.b.norm(), tolerance * 1.01);
}

TEST(CgLinearSolver, StopsAtFirstIterateMeetingTolerance) {
  const SpdSystem system = MakeSpdSystem(40, 2);
  std::vector<double> residuals;
  ReferenceCg(Dense(system.A), system.b, 40, &residuals);
  // The reference residual history tells after how many updates ‖r‖/‖b‖ first drops below 1e-4.
  int expected = 0;
  while (residuals[static_cast<std::size_t>(expected)] > 1e-4) ++expected;
  ASSERT_GT(expected, 2);
  CgLinearSolver cg = MakeCg("1000", "1e-4", "0");
  ASSERT_TRUE(cg.Factorize(system.A).ok);
  Vector x;
  const LinearSolveResult result = cg.Solve(system.b, x);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, expected);
  EXPECT_LE(result.residual, 1e-4);
  EXPECT_GT(residuals[static_cast<std::size_t>(expected - 1)], 1e-4);
}

TEST(CgLinearSolver, IterationCapLimitsUpdates) {
  const SpdSystem system = MakeSpdSystem(30, 3);
  for (const int cap : {1, 3, 7}) {
    CgLinearSolver cg = MakeCg(std::to_string(cap), "1e-14", "0");
    ASSERT_TRUE(cg.Factorize(system.A).ok);
    Vector x;
    const LinearSolveResult result = cg.Solve(system.b, x);
    EXPECT_TRUE(result.ok);
    EXPECT_FALSE(result.converged);
    EXPECT_EQ(result.iterations, cap);
    EXPECT_FALSE(result.message.empty());
    // The cap-th CG iterate: a few roundings per step on values O(‖x‖).
    const Vector expected = ReferenceCg(Dense(system.A), system.b, cap);
    EXPECT_LE((x - expected).norm(), 1e3 * kEpsilon * expected.norm()) << "cap " << cap;
  }
}

TEST(CgLinearSolver, ZeroRightHandSideGivesZero) {
  const SpdSystem system = MakeSpdSystem(10, 4);
  for (const bool warm_start : {false, true}) {
    CgLinearSolver cg = MakeCg("25", "1e-5", "1e-5", warm_start);
    ASSERT_TRUE(cg.Factorize(system.A).ok);
    Vector x = Vector::Constant(10, 3.0);  // a previous solution
    const LinearSolveResult result = cg.Solve(Vector::Zero(10), x);
    EXPECT_TRUE(result.ok);
    EXPECT_TRUE(result.converged);
    EXPECT_EQ(result.iterations, 0);
    EXPECT_EQ(x, Vector::Zero(10));
  }
}

// SOFA: meeting the tolerance at the first iteration of the *first* solve only warns ("tolerance
// reached at first iteration of CG") and iterates on; at any later solve it stops at once. With
// tolerance 1 and x starting at 0 the test ‖r‖/‖b‖ ≤ 1 holds at the first iteration.
TEST(CgLinearSolver, ToleranceAtFirstIterationIsIgnoredOnlyInFirstSolve) {
  const SpdSystem system = MakeSpdSystem(20, 5);
  std::vector<double> residuals;
  const Vector one_step = ReferenceCg(Dense(system.A), system.b, 1, &residuals);
  ASSERT_LE(residuals[1], 1.0);  // so the first solve stops after one update
  CgLinearSolver cg = MakeCg("25", "1", "0");
  ASSERT_TRUE(cg.Factorize(system.A).ok);
  Vector x;
  LinearSolveResult result = cg.Solve(system.b, x);
  EXPECT_EQ(result.iterations, 1);
  EXPECT_LE((x - one_step).norm(), 1e2 * kEpsilon * one_step.norm());
  result = cg.Solve(system.b, x);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(x, Vector::Zero(20));
}

// With warmStart, a solve starting from the solution meets the tolerance at its first iteration
// and leaves x exactly as it was.
TEST(CgLinearSolver, WarmStartFromSolutionStopsAtOnce) {
  const SpdSystem system = MakeSpdSystem(20, 6);
  CgLinearSolver cg = MakeCg("1000", "1e-8", "0", /*warm_start=*/true);
  ASSERT_TRUE(cg.Factorize(system.A).ok);
  Vector x;
  ASSERT_TRUE(cg.Solve(system.b, x).converged);
  const Vector first = x;
  const LinearSolveResult result = cg.Solve(system.b, x);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(x, first);
}

// SOFA: |pᵀAp| ≤ threshold stops the iterations, except at the first iteration of the first solve.
TEST(CgLinearSolver, DenominatorThresholdStopsIterations) {
  const SpdSystem system = MakeSpdSystem(20, 7);
  const Vector one_step = ReferenceCg(Dense(system.A), system.b, 1);
  CgLinearSolver cg = MakeCg("25", "1e-12", "1e30");
  ASSERT_TRUE(cg.Factorize(system.A).ok);
  Vector x;
  LinearSolveResult result = cg.Solve(system.b, x);
  EXPECT_EQ(result.iterations, 1);
  EXPECT_LE((x - one_step).norm(), 1e2 * kEpsilon * one_step.norm());
  result = cg.Solve(system.b, x);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(x, Vector::Zero(20));
}

// pᵀAp = 0 (here A = 0): SOFA stops without dividing by zero and keeps x; the solve did not
// converge but produced a finite x.
TEST(CgLinearSolver, ZeroDenominatorStopsWithoutDividing) {
  SparseMatrix zero(3, 3);
  zero.setIdentity();
  zero *= 0.0;
  CgLinearSolver cg = MakeCg("25", "1e-5", "0");
  ASSERT_TRUE(cg.Factorize(zero).ok);
  Vector x;
  const LinearSolveResult result = cg.Solve(Vector::Ones(3), x);
  EXPECT_TRUE(x.allFinite());
  EXPECT_EQ(x, Vector::Zero(3));
  EXPECT_FALSE(result.converged);
  EXPECT_FALSE(result.message.empty());
}

TEST(CgLinearSolver, SolveBeforeFactorizeIsUsageError) {
  CgLinearSolver cg = MakeCg("25", "1e-5", "1e-5");
  Vector x;
  EXPECT_THROW((void)cg.Solve(Vector::Ones(3), x), UsageError);
}

// --- SparseLDLSolver --------------------------------------------------------------------------

TEST(LdlLinearSolver, SolvesSpdSystemLikeDenseFactorisation) {
  const SpdSystem system = MakeSpdSystem(50, 8);
  LdlLinearSolver ldl(ParseParameters(LdlLinearSolver::Spec(), {}));
  ASSERT_TRUE(ldl.Factorize(system.A).ok);
  Vector x;
  ASSERT_TRUE(ldl.Solve(system.b, x).ok);
  const Vector exact = Dense(system.A).ldlt().solve(system.b);
  // Backward-stable factorisations: relative error ≲ n·ε·κ for both.
  EXPECT_LE((x - exact).norm() / exact.norm(), 50 * kEpsilon * system.condition * 10);
}

TEST(LdlLinearSolver, ReusesSymbolicAnalysisWhilePatternHolds) {
  SpdSystem system = MakeSpdSystem(30, 9);
  LdlLinearSolver ldl(ParseParameters(LdlLinearSolver::Spec(), {}));
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(ldl.Factorize(system.A).ok);
    EXPECT_EQ(ldl.symbolic_analyses(), 1);
    Vector x;
    ASSERT_TRUE(ldl.Solve(system.b, x).ok);
    const Vector exact = Dense(system.A).ldlt().solve(system.b);
    EXPECT_LE((x - exact).norm() / exact.norm(), 30 * kEpsilon * 10 * system.condition);
    // New values in the same pattern, still SPD: scale the diagonal up.
    for (Index k = 0; k < system.A.outerSize(); ++k)
      for (SparseMatrix::InnerIterator it(system.A, k); it; ++it)
        if (it.row() == it.col()) it.valueRef() *= 1.5;
  }
}

TEST(LdlLinearSolver, AnalysesAgainWhenPatternChanges) {
  // Two tridiagonal-plus-one-coupling matrices with the same number of entries but the extra
  // coupling in another place: the elimination tree differs.
  const auto make = [](Index i, Index j) {
    Dense dense = Dense::Zero(8, 8);
    for (Index k = 0; k < 8; ++k) dense(k, k) = 4.0;
    for (Index k = 0; k + 1 < 8; ++k) dense(k, k + 1) = dense(k + 1, k) = -1.0;
    dense(i, j) = dense(j, i) = 0.5;
    SparseMatrix sparse = dense.sparseView();
    sparse.makeCompressed();
    return sparse;
  };
  const SparseMatrix first = make(0, 7), second = make(2, 5);
  ASSERT_EQ(first.nonZeros(), second.nonZeros());
  LdlLinearSolver ldl(ParseParameters(LdlLinearSolver::Spec(), {}));
  const Vector b = Vector::LinSpaced(8, 1.0, 8.0);
  for (const SparseMatrix* A : {&first, &second, &first}) {
    ASSERT_TRUE(ldl.Factorize(*A).ok);
    Vector x;
    ASSERT_TRUE(ldl.Solve(b, x).ok);
    const Vector exact = Dense(*A).ldlt().solve(b);
    EXPECT_LE((x - exact).norm() / exact.norm(), 1e-14);  // κ < 3: a few ulps
  }
  EXPECT_EQ(ldl.symbolic_analyses(), 3);
}

TEST(LdlLinearSolver, ReportsMatrixThatIsNotPositiveDefinite) {
  LdlLinearSolver ldl(ParseParameters(LdlLinearSolver::Spec(), {}));
  for (const double pivot : {-1.0, 0.0}) {
    SparseMatrix A(3, 3);
    A.insert(0, 0) = 2.0;
    A.insert(1, 1) = pivot;
    A.insert(2, 2) = 3.0;
    A.makeCompressed();
    const LinearSolveResult result = ldl.Factorize(A);
    EXPECT_FALSE(result.ok) << "pivot " << pivot;
    EXPECT_FALSE(result.message.empty());
  }
  // A positive definite matrix of the same pattern factorises again afterwards.
  SparseMatrix A(3, 3);
  A.insert(0, 0) = 2.0;
  A.insert(1, 1) = 5.0;
  A.insert(2, 2) = 3.0;
  A.makeCompressed();
  ASSERT_TRUE(ldl.Factorize(A).ok);
  Vector x;
  ASSERT_TRUE(ldl.Solve(Vector::Ones(3), x).ok);
  EXPECT_NEAR(x[1], 0.2, kEpsilon);
}

// The FactorizeMass rule on a positive definite mass: CHOLMOD's Cholesky, no fallback, no message.
TEST(LdlLinearSolver, FactorizesPositiveMassWithCholesky) {
  const SpdSystem system = MakeSpdSystem(20, 10);
  LdlLinearSolver ldl(ParseParameters(LdlLinearSolver::Spec(), {}));
  const LinearSolveResult result = ldl.FactorizeMass(system.A);
  ASSERT_TRUE(result.ok);
  EXPECT_TRUE(result.message.empty()) << result.message;
  EXPECT_EQ(ldl.factor(), LdlLinearSolver::Factor::kCholesky);
  Vector x;
  ASSERT_TRUE(ldl.Solve(system.b, x).ok);
  const Vector exact = Dense(system.A).ldlt().solve(system.b);
  EXPECT_LE((x - exact).norm() / exact.norm(), 20 * kEpsilon * system.condition * 10);
}

// SOFA's consistent hexahedral MeshMatrixMass on one cube, per coordinate: (ρV/40)·(2I + A) with
// A the adjacency of the cube's 8 corners along its 12 edges. A's eigenvalues are 3, 1 (×3),
// −1 (×3), −3, so 2I + A has exactly one negative eigenvalue (−1): by Sylvester's law of inertia
// every LDLᵀ of it has exactly one negative pivot.
TEST(LdlLinearSolver, FactorizesIndefiniteMassAsSofaDoesButNotASystemMatrix) {
  Dense dense = 2.0 * Dense::Identity(8, 8);
  for (int a = 0; a < 8; ++a)
    for (int bit = 0; bit < 3; ++bit)
      dense(a, a ^ (1 << bit)) = 1.0;  // corners differing in one bit
  dense *= 1.0 / 40.0;                 // ρV = 1
  SparseMatrix mass = dense.sparseView();
  mass.makeCompressed();
  LdlLinearSolver ldl(ParseParameters(LdlLinearSolver::Spec(), {}));

  const LinearSolveResult system = ldl.Factorize(mass);
  EXPECT_FALSE(system.ok);
  EXPECT_THAT(system.message, testing::HasSubstr("not positive definite"));

  const LinearSolveResult factorized = ldl.FactorizeMass(mass);
  ASSERT_TRUE(factorized.ok) << factorized.message;
  EXPECT_THAT(factorized.message, testing::HasSubstr("indefinite (1 negative pivots)"));
  EXPECT_EQ(ldl.factor(), LdlLinearSolver::Factor::kIndefiniteLdl);
  const Vector b = Vector::LinSpaced(8, -1.0, 2.5);
  Vector x;
  ASSERT_TRUE(ldl.Solve(b, x).ok);
  // The exact inverse from the eigen-decomposition (dense, independent of the sparse code).
  const Eigen::SelfAdjointEigenSolver<Dense> eigen(dense);
  EXPECT_NEAR(eigen.eigenvalues()[0], -1.0 / 40.0, 1e-15);
  const Vector exact = eigen.eigenvectors() * eigen.eigenvalues().cwiseInverse().asDiagonal() *
                       (eigen.eigenvectors().transpose() * b);
  EXPECT_LE((x - exact).norm() / exact.norm(), 1e-13);  // κ = 5: a few ulps

  // A singular mass is still refused.
  SparseMatrix singular(2, 2);
  singular.insert(0, 0) = 1.0;
  singular.insert(1, 1) = 0.0;
  singular.makeCompressed();
  EXPECT_FALSE(ldl.FactorizeMass(singular).ok);
}

TEST(LdlLinearSolver, SolveAfterFailedFactorisationFails) {
  LdlLinearSolver ldl(ParseParameters(LdlLinearSolver::Spec(), {}));
  Vector x;
  EXPECT_THROW((void)ldl.Solve(Vector::Ones(2), x), UsageError);
  SparseMatrix A(2, 2);
  A.insert(0, 0) = 1.0;
  A.insert(1, 1) = -2.0;  // factorises numerically, but is not positive definite
  A.makeCompressed();
  ASSERT_FALSE(ldl.Factorize(A).ok);
  const LinearSolveResult result = ldl.Solve(Vector::Ones(2), x);
  EXPECT_FALSE(result.ok);
  EXPECT_FALSE(result.message.empty());
}

TEST(LdlLinearSolver, IndefiniteCouplingIsNotPositiveDefinite) {
  // [[1, 2], [2, 1]] has eigenvalues 3 and −1: the second pivot is 1 − 4 = −3.
  SparseMatrix A(2, 2);
  A.insert(0, 0) = 1.0;
  A.insert(0, 1) = 2.0;
  A.insert(1, 0) = 2.0;
  A.insert(1, 1) = 1.0;
  A.makeCompressed();
  LdlLinearSolver ldl(ParseParameters(LdlLinearSolver::Spec(), {}));
  EXPECT_FALSE(ldl.Factorize(A).ok);
}

// SparseLdl replaces Eigen's SimplicialLDLT<·, Lower> (AMD ordering) to avoid its per-step
// allocations, promising the same factorisation in the same operation order: solutions must be
// bit-identical to Eigen's on matrices whose fill-in exercises the elimination tree (a 3-D grid
// Laplacian plus a random symmetric coupling, shifted to be positive definite), refactorised with
// new values on the same pattern.
TEST(SparseLdl, IsBitIdenticalToEigensSimplicialLdlt) {
  constexpr int kSide = 6;  // 216 unknowns
  const int n = kSide * kSide * kSide;
  std::vector<Eigen::Triplet<double, int>> triplets;
  std::mt19937 random(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const auto id = [&](int i, int j, int k) { return i + kSide * (j + kSide * k); };
  for (int k = 0; k < kSide; ++k)
    for (int j = 0; j < kSide; ++j)
      for (int i = 0; i < kSide; ++i) {
        const int a = id(i, j, k);
        triplets.emplace_back(a, a, 0.0);
        for (const int b :
             {i + 1 < kSide ? id(i + 1, j, k) : -1, j + 1 < kSide ? id(i, j + 1, k) : -1,
              k + 1 < kSide ? id(i, j, k + 1) : -1, (a * 7919) % n}) {
          if (b < 0 || b == a) continue;
          triplets.emplace_back(a, b, 0.0);
          triplets.emplace_back(b, a, 0.0);
        }
      }
  SparseMatrix A(n, n);
  A.setFromTriplets(triplets.begin(), triplets.end());
  A.makeCompressed();
  SparseLdl ours;
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> eigen;
  for (int round = 0; round < 3; ++round) {
    // New symmetric values on the same pattern, diagonally dominant.
    for (int col = 0; col < n; ++col)
      for (SparseMatrix::InnerIterator it(A, col); it; ++it)
        if (it.row() > col) {
          const double value = uniform(random);
          it.valueRef() = value;
          A.coeffRef(col, it.row()) = value;
        }
    for (int i = 0; i < n; ++i) A.coeffRef(i, i) = 8.0 + uniform(random);
    if (round == 0) ours.Analyze(A);
    ASSERT_TRUE(ours.HasAnalysedPattern(A));
    ASSERT_EQ(ours.Factorize(A), SparseLdl::Status::kOk);
    eigen.compute(A);
    ASSERT_EQ(eigen.info(), Eigen::Success);
    Vector b(n);
    for (int i = 0; i < n; ++i) b[i] = uniform(random);
    Vector x;
    ours.Solve(b, x);
    const Vector expected = eigen.solve(b);
    ASSERT_EQ(x.size(), n);
    for (int i = 0; i < n; ++i) ASSERT_EQ(x[i], expected[i]) << "round " << round << " entry " << i;
    // And it solves the system (a check independent of Eigen): ‖Ax − b‖ ≤ 1e-12·‖b‖.
    EXPECT_LE((A * x - b).norm(), 1e-12 * b.norm());
  }
}

TEST(SparseLdl, ReportsTheFirstBadPivot) {
  SparseMatrix A(3, 3);
  A.insert(0, 0) = 2.0;
  A.insert(1, 1) = 0.0;
  A.insert(2, 2) = -1.0;
  A.makeCompressed();
  SparseLdl ldl;
  ldl.Analyze(A);
  const SparseLdl::Status status = ldl.Factorize(A);
  EXPECT_NE(status, SparseLdl::Status::kOk);
  EXPECT_GE(ldl.failed_pivot(), 0);
  A.coeffRef(1, 1) = 3.0;
  EXPECT_EQ(ldl.Factorize(A), SparseLdl::Status::kNegativePivot);
  A.coeffRef(2, 2) = 4.0;
  ASSERT_EQ(ldl.Factorize(A), SparseLdl::Status::kOk);
  Vector x;
  ldl.Solve(Vector::Constant(3, 12.0), x);
  EXPECT_EQ(x[0], 6.0);
  EXPECT_EQ(x[1], 4.0);
  EXPECT_EQ(x[2], 3.0);
}

}  // namespace
}  // namespace fluxion::internal
