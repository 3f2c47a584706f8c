// PCGLinearSolver (linear/pcg_linear_solver.h) and SOFA's preconditioners
// (linear/preconditioners.h), on small SPD systems against computations done here in dense
// arithmetic: a textbook preconditioned CG (Saad, Iterative Methods for Sparse Linear Systems,
// 2nd ed., alg. 9.1), dense LDLᵀ solutions, and CGLinearSolver's iterates.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include "fluxion/errors.h"
#include "fluxion/parameters.h"
#include "linear/cg_linear_solver.h"
#include "linear/pcg_linear_solver.h"
#include "linear/preconditioners.h"

namespace fluxion::internal {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
using Dense = Eigen::MatrixXd;

// A random sparse SPD matrix with an uneven diagonal (so that Jacobi preconditioning changes the
// iterates), diagonally dominant for a modest condition number, and a random right-hand side.
struct Spd {
  SparseMatrix A;
  Dense dense;
  Vector b;
};
Spd MakeSpd(Index n, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Dense dense = Dense::Zero(n, n);
  for (Index i = 0; i + 1 < n; ++i)
    dense(i, i + 1) = dense(i + 1, i) = -1.0 + 0.3 * uniform(generator);
  for (int k = 0; k < 2 * n; ++k) {
    const Index i = static_cast<Index>(generator() % static_cast<unsigned>(n));
    const Index j = static_cast<Index>(generator() % static_cast<unsigned>(n));
    if (i != j) dense(i, j) = dense(j, i) = 0.5 * uniform(generator);
  }
  for (Index i = 0; i < n; ++i)
    dense(i, i) = (dense.row(i).cwiseAbs().sum() + 0.5) * (1.0 + 4.0 * (i % 5));
  Spd system;
  system.dense = dense;
  system.A = dense.sparseView();
  system.A.makeCompressed();
  system.b = Vector::NullaryExpr(n, [&] { return uniform(generator); });
  return system;
}

Parameters PcgParameters(const std::string& iterations, const std::string& tolerance,
                         bool use_precond = true) {
  return ParseParameters(PcgLinearSolver::Spec(), {{"iterations", iterations},
                                                   {"tolerance", tolerance},
                                                   {"use_precond", use_precond ? "1" : "0"}});
}

template <class Preconditioner>
LinearSolverHandle Make(const std::vector<std::pair<std::string, std::string>>& fields = {}) {
  return LinearSolverHandle(new Preconditioner(ParseParameters(Preconditioner::Spec(), fields)),
                            {});
}

// Textbook PCG (Saad alg. 9.1) from x = 0 with P⁻¹ given as a dense matrix: `steps` updates, or
// fewer when (rᵀz)/(bᵀb) ≤ `tolerance` first holds. Returns x; `measures[k]` = rₖᵀzₖ/bᵀb.
Vector ReferencePcg(const Dense& A, const Dense& inverse_P, const Vector& b, int steps,
                    double tolerance = 0.0, std::vector<double>* measures = nullptr) {
  Vector x = Vector::Zero(b.size()), r = b, z = inverse_P * r, p = z;
  double rz = r.dot(z);
  if (measures) measures->push_back(rz / b.squaredNorm());
  for (int k = 0; k < steps && rz > tolerance * b.squaredNorm(); ++k) {
    const Vector q = A * p;
    const double alpha = rz / p.dot(q);
    x += alpha * p;
    r -= alpha * q;
    z = inverse_P * r;
    const double rz_next = r.dot(z);
    p = z + (rz_next / rz) * p;
    rz = rz_next;
    if (measures) measures->push_back(rz / b.squaredNorm());
  }
  return x;
}

// P⁻¹ of the Jacobi and 3×3 block-Jacobi preconditioners, built densely here.
Dense InverseDiagonal(const Dense& A) { return A.diagonal().cwiseInverse().asDiagonal(); }
Dense InverseBlockDiagonal(const Dense& A) {
  const Index n = A.rows();
  Dense inverse = Dense::Zero(n, n);
  for (Index k = 0; k < n; k += 3) {
    const Index size = std::min<Index>(3, n - k);
    inverse.block(k, k, size, size) = A.block(k, k, size, size).inverse();
  }
  return inverse;
}

// The exact preconditioner P = A: w = A⁻¹·r, α = rᵀw/wᵀAw = 1, so x₁ = A⁻¹·b; the next
// residual is round-off, far below the tolerance. x agrees with the dense LDLᵀ solution to a few
// ulps times κ(A) (< 30 here): 1e-12 relative is a wide margin.
TEST(PcgLinearSolver, ExactPreconditionerSolvesInOneIteration) {
  const Spd system = MakeSpd(40, 1);
  PcgLinearSolver pcg(PcgParameters("1000", "1e-20"));
  pcg.SetPreconditioner(Make<AsyncSparseLdlSolver>());
  EXPECT_FALSE(pcg.accepts_operator());  // the factorisation needs the assembled matrix
  ASSERT_TRUE(pcg.Factorize(system.A).ok);
  Vector x;
  const LinearSolveResult result = pcg.Solve(system.b, x);
  EXPECT_TRUE(result.ok);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 1);
  const Vector exact = system.dense.ldlt().solve(system.b);
  EXPECT_LE((x - exact).norm(), 1e-12 * exact.norm());
  EXPECT_EQ(pcg.preconditioner_updates(), 1);
}

// Without a preconditioner (none linked, or use_precond="0") PCG runs CGLinearSolver's
// recurrences from x = 0: the same iterates after the same number of updates (tolerance 0 and
// threshold 0, so that neither solver stops early), matrix-free as CG. Both evaluate the same
// expressions in the same order, so agreement is to round-off of the last operations at most.
TEST(PcgLinearSolver, WithoutPreconditionerReproducesCgIterates) {
  const Spd system = MakeSpd(30, 2);
  for (const int cap : {1, 2, 5, 12}) {
    CgLinearSolver cg(ParseParameters(
        CgLinearSolver::Spec(),
        {{"iterations", std::to_string(cap)}, {"tolerance", "0"}, {"threshold", "0"}}));
    ASSERT_TRUE(cg.Factorize(system.A).ok);
    Vector expected;
    ASSERT_TRUE(cg.Solve(system.b, expected).ok);

    PcgLinearSolver plain(PcgParameters(std::to_string(cap), "0"));
    EXPECT_TRUE(plain.accepts_operator());
    PcgLinearSolver unused(PcgParameters(std::to_string(cap), "0", /*use_precond=*/false));
    unused.SetPreconditioner(Make<JacobiPreconditioner>());
    EXPECT_TRUE(unused.accepts_operator());
    for (PcgLinearSolver* pcg : {&plain, &unused}) {
      ASSERT_TRUE(pcg->Factorize(system.A).ok);
      Vector x;
      const LinearSolveResult result = pcg->Solve(system.b, x);
      EXPECT_EQ(result.iterations, cap);
      EXPECT_LE((x - expected).norm(), 4 * kEpsilon * expected.norm()) << "cap " << cap;
    }
  }
}

// Jacobi-preconditioned PCG against the textbook recursion with P = diag(A) (built densely here),
// after 1 to 6 updates: the iterates agree to round-off (a few ulps per update, κ(A) small).
TEST(PcgLinearSolver, JacobiPreconditionedMatchesHandRecursion) {
  const Spd system = MakeSpd(12, 3);
  const Dense inverse_P = InverseDiagonal(system.dense);
  for (int cap = 1; cap <= 6; ++cap) {
    PcgLinearSolver pcg(PcgParameters(std::to_string(cap), "0"));
    pcg.SetPreconditioner(Make<JacobiPreconditioner>());
    ASSERT_TRUE(pcg.Factorize(system.A).ok);
    Vector x;
    const LinearSolveResult result = pcg.Solve(system.b, x);
    EXPECT_EQ(result.iterations, cap);
    const Vector expected = ReferencePcg(system.dense, inverse_P, system.b, cap);
    EXPECT_LE((x - expected).norm(), 1e2 * kEpsilon * expected.norm()) << "cap " << cap;
  }
  // Jacobi changes the iterates: the plain CG iterate after 2 updates is elsewhere.
  const Vector plain = ReferencePcg(system.dense, Dense::Identity(12, 12), system.b, 2);
  const Vector jacobi = ReferencePcg(system.dense, inverse_P, system.b, 2);
  EXPECT_GT((plain - jacobi).norm(), 1e-3 * jacobi.norm());
}

// Block Jacobi with 3×3 blocks on a size that is not a multiple of 3 (a last 2×2 block), against
// the textbook recursion with the block inverse built densely here.
TEST(PcgLinearSolver, BlockJacobiPreconditionedMatchesHandRecursion) {
  const Spd system = MakeSpd(11, 4);
  const Dense inverse_P = InverseBlockDiagonal(system.dense);
  for (int cap = 1; cap <= 5; ++cap) {
    PcgLinearSolver pcg(PcgParameters(std::to_string(cap), "0"));
    pcg.SetPreconditioner(Make<BlockJacobiPreconditioner>());
    ASSERT_TRUE(pcg.Factorize(system.A).ok);
    Vector x;
    ASSERT_TRUE(pcg.Solve(system.b, x).ok);
    const Vector expected = ReferencePcg(system.dense, inverse_P, system.b, cap);
    EXPECT_LE((x - expected).norm(), 1e2 * kEpsilon * expected.norm()) << "cap " << cap;
  }
}

// P⁻¹ of SOFA's SSORPreconditioner as its two sweeps compose, with A = L + D + U:
// s·(D/ω + L)⁻¹·(D/ω)·(D/ω + U)⁻¹, s = 2 − ω for the scalar template, 1 for the 3×3 one — built
// densely here from triangular solves.
Dense InverseSsor(const Dense& A, double omega, double scale) {
  const Index n = A.rows();
  const Dense D_over_omega = Dense(A.diagonal().asDiagonal()) / omega;
  const Dense lower = Dense(A.triangularView<Eigen::StrictlyLower>()) + D_over_omega;
  const Dense upper = Dense(A.triangularView<Eigen::StrictlyUpper>()) + D_over_omega;
  const Dense right = upper.triangularView<Eigen::Upper>().solve(Dense::Identity(n, n));
  return scale * lower.triangularView<Eigen::Lower>().solve(D_over_omega * right);
}

// One application z = P⁻¹·r against the dense form, for both templates and three ω; the two
// templates differ by the factor 2 − ω (and the order of their sums).
TEST(SsorPreconditioner, AppliesSofasSweeps) {
  const Spd system = MakeSpd(12, 6);
  for (const double omega : {1.0, 1.4, 0.6}) {
    for (const bool blocks : {false, true}) {
      LinearSolverHandle ssor =
          Make<SsorPreconditioner>({{"omega", std::to_string(omega)},
                                    {"template", blocks ? "CompressedRowSparseMatrixMat3x3d"
                                                        : "CompressedRowSparseMatrixd"}});
      ASSERT_TRUE(ssor->Factorize(system.A).ok);
      Vector z;
      ASSERT_TRUE(ssor->Solve(system.b, z).ok);
      const Vector expected =
          InverseSsor(system.dense, omega, blocks ? 1.0 : 2.0 - omega) * system.b;
      EXPECT_LE((z - expected).norm(), 1e2 * kEpsilon * expected.norm())
          << "omega " << omega << (blocks ? ", 3×3" : ", scalar");
    }
  }
}

// SSOR-preconditioned PCG against the textbook recursion with the dense P⁻¹ above (ω = 1.2).
TEST(PcgLinearSolver, SsorPreconditionedMatchesHandRecursion) {
  const Spd system = MakeSpd(12, 7);
  const Dense inverse_P = InverseSsor(system.dense, 1.2, 0.8);
  for (int cap = 1; cap <= 5; ++cap) {
    PcgLinearSolver pcg(PcgParameters(std::to_string(cap), "0"));
    pcg.SetPreconditioner(Make<SsorPreconditioner>({{"omega", "1.2"}}));
    ASSERT_TRUE(pcg.Factorize(system.A).ok);
    Vector x;
    ASSERT_TRUE(pcg.Solve(system.b, x).ok);
    const Vector expected = ReferencePcg(system.dense, inverse_P, system.b, cap);
    EXPECT_LE((x - expected).norm(), 1e2 * kEpsilon * expected.norm()) << "cap " << cap;
  }
}

// The preconditioner keeps the matrix it was factorised with (SOFA's keeps its own between the
// PCG's refreshes): changing A afterwards does not change P⁻¹. A zero diagonal entry fails the
// factorisation, an unknown template the construction, and the 3×3 template a size that is not
// a multiple of 3.
TEST(SsorPreconditioner, KeepsItsMatrixAndRefusesWhatItCannotUse) {
  Spd system = MakeSpd(9, 8);
  LinearSolverHandle ssor = Make<SsorPreconditioner>();
  ASSERT_TRUE(ssor->Factorize(system.A).ok);
  Vector before, after;
  ASSERT_TRUE(ssor->Solve(system.b, before).ok);
  system.A.coeffs() *= 3.0;
  ASSERT_TRUE(ssor->Solve(system.b, after).ok);
  EXPECT_TRUE(before == after);

  Spd singular = MakeSpd(6, 9);
  singular.A.coeffRef(2, 2) = 0.0;
  const LinearSolveResult failed = ssor->Factorize(singular.A);
  EXPECT_FALSE(failed.ok);
  EXPECT_THAT(failed.message, ::testing::HasSubstr("the diagonal entry of row 2 is 0"));
  Vector z;
  EXPECT_FALSE(ssor->Solve(singular.b, z).ok);

  EXPECT_THROW(Make<SsorPreconditioner>({{"template", "FullMatrix"}}), ConfigError);
  LinearSolverHandle blocks =
      Make<SsorPreconditioner>({{"template", "CompressedRowSparseMatrixMat3x3d"}});
  const Spd eleven = MakeSpd(11, 10);
  EXPECT_THAT(blocks->Factorize(eleven.A).message, ::testing::HasSubstr("multiple of 3"));
}

// Stopping rule 1, SOFA's tolerance: the first iterate whose rᵀP⁻¹r/bᵀb is ≤ tolerance (a squared,
// preconditioned ratio), read off the reference history.
TEST(PcgLinearSolver, StopsAtFirstIterateMeetingSquaredPreconditionedTolerance) {
  const Spd system = MakeSpd(40, 5);
  const Dense inverse_P = InverseDiagonal(system.dense);
  std::vector<double> measures;
  ReferencePcg(system.dense, inverse_P, system.b, 40, 0.0, &measures);
  constexpr double kTolerance = 1e-8;
  int expected = 0;
  while (measures[static_cast<std::size_t>(expected)] > kTolerance) ++expected;
  ASSERT_GT(expected, 2);
  PcgLinearSolver pcg(PcgParameters("1000", "1e-8"));
  pcg.SetPreconditioner(Make<JacobiPreconditioner>());
  ASSERT_TRUE(pcg.Factorize(system.A).ok);
  Vector x;
  const LinearSolveResult result = pcg.Solve(system.b, x);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, expected);
  EXPECT_GT(measures[static_cast<std::size_t>(expected - 1)], kTolerance);
  // The squared ratio: ‖r‖/‖b‖ is then about √tolerance, not tolerance.
  EXPECT_GT(result.residual, kTolerance);
}

// Stopping rule 2, the iteration cap: not converged, the cap's count, a message.
TEST(PcgLinearSolver, IterationCapEndsUnconverged) {
  const Spd system = MakeSpd(30, 6);
  PcgLinearSolver pcg(PcgParameters("3", "1e-14"));
  pcg.SetPreconditioner(Make<JacobiPreconditioner>());
  ASSERT_TRUE(pcg.Factorize(system.A).ok);
  Vector x;
  const LinearSolveResult result = pcg.Solve(system.b, x);
  EXPECT_TRUE(result.ok);
  EXPECT_FALSE(result.converged);
  EXPECT_EQ(result.iterations, 3);
  EXPECT_THAT(result.message, ::testing::HasSubstr("did not converge in 3 iterations"));
}

// SOFA starts from the solution vector it is given: from the exact solution no iteration runs.
TEST(PcgLinearSolver, StartsFromTheGivenVector) {
  const Spd system = MakeSpd(20, 7);
  PcgLinearSolver pcg(PcgParameters("25", "1e-10"));
  ASSERT_TRUE(pcg.Factorize(system.A).ok);
  Vector x = system.dense.ldlt().solve(system.b);
  const LinearSolveResult result = pcg.Solve(system.b, x);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 0);
}

// SOFA's assemblingRate: the preconditioner is factorised on the first Factorize and then on
// every rate-th; in between PCG keeps the older factor, which still preconditions: the solve of a
// changed matrix takes more than one iteration but reaches the tolerance.
TEST(PcgLinearSolver, RefreshesPreconditionerAtTheAssemblingRate) {
  const Spd system = MakeSpd(30, 8);
  PcgLinearSolver pcg(PcgParameters("1000", "1e-24"));
  pcg.SetPreconditioner(Make<AsyncSparseLdlSolver>());
  pcg.SetAssemblingRate(3);
  const long expected_updates[] = {1, 1, 1, 2, 2, 2, 3};
  for (int call = 0; call < 7; ++call) {
    SparseMatrix A = system.A;
    A.diagonal() *= 1.0 + 0.1 * call;  // a new matrix at every call
    ASSERT_TRUE(pcg.Factorize(A).ok);
    EXPECT_EQ(pcg.preconditioner_updates(), expected_updates[call]) << "call " << call;
    Vector x;
    const LinearSolveResult result = pcg.Solve(system.b, x);
    EXPECT_TRUE(result.converged);
    const bool fresh = call % 3 == 0;
    if (fresh)
      EXPECT_EQ(result.iterations, 1) << "call " << call;
    else
      EXPECT_GT(result.iterations, 1) << "call " << call;
    const Vector exact = Dense(A).ldlt().solve(system.b);
    EXPECT_LE((x - exact).norm(), 1e-10 * exact.norm()) << "call " << call;
  }
}

TEST(PcgLinearSolver, ZeroRightHandSideGivesZero) {
  const Spd system = MakeSpd(10, 9);
  PcgLinearSolver pcg(PcgParameters("25", "1e-5"));
  pcg.SetPreconditioner(Make<JacobiPreconditioner>());
  ASSERT_TRUE(pcg.Factorize(system.A).ok);
  Vector x = Vector::Ones(10);
  const LinearSolveResult result = pcg.Solve(Vector::Zero(10), x);
  EXPECT_TRUE(result.ok);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(x, Vector::Zero(10));
}

TEST(PcgLinearSolver, SolveBeforeFactorizeIsUsageError) {
  PcgLinearSolver pcg(PcgParameters("25", "1e-5"));
  Vector x;
  EXPECT_THROW((void)pcg.Solve(Vector::Ones(3), x), UsageError);
}

// A preconditioner that cannot be built fails the factorisation, with the preconditioner's reason.
TEST(PcgLinearSolver, ReportsPreconditionerFailure) {
  SparseMatrix A(2, 2);
  A.insert(0, 1) = 1.0;
  A.insert(1, 0) = 1.0;
  A.insert(1, 1) = 2.0;
  A.makeCompressed();
  PcgLinearSolver pcg(PcgParameters("25", "1e-5"));
  pcg.SetPreconditioner(Make<JacobiPreconditioner>());
  const LinearSolveResult result = pcg.Factorize(A);
  EXPECT_FALSE(result.ok);
  EXPECT_THAT(result.message, ::testing::HasSubstr("diagonal entry of row 0 is 0"));
}

// An indefinite matrix (a Newton Jacobian past a buckling point) factorised by LDLᵀ through
// FactorizeMass: with b along the negative direction δ = bᵀA⁻¹b = −2/3 < 0. SOFA's test δ > tol
// would stop before the first iteration (x = 0); Fluxion's |δ| > tol takes one exact step.
TEST(PcgLinearSolver, ExactIndefinitePreconditionerStillSolvesInOneIteration) {
  Dense dense(3, 3);
  dense << 2, 1, 0, 1, -1, 0, 0, 0, 3;
  SparseMatrix A = dense.sparseView();
  A.makeCompressed();
  const Vector b = Vector::Unit(3, 1);
  ASSERT_LT(b.dot(dense.inverse() * b), 0.0);
  PcgLinearSolver pcg(PcgParameters("25", "1e-5"));
  pcg.SetPreconditioner(Make<AsyncSparseLdlSolver>());
  ASSERT_TRUE(pcg.FactorizeMass(A).ok);
  Vector x;
  const LinearSolveResult result = pcg.Solve(b, x);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 1);
  const Vector exact = dense.inverse() * b;  // (1/3, −2/3, 0)
  EXPECT_LE((x - exact).norm(), 1e-14);
}

TEST(AsyncSparseLdlSolver, SolvesLikeDenseFactorisationSynchronously) {
  const Spd system = MakeSpd(25, 10);
  AsyncSparseLdlSolver ldl(ParseParameters(AsyncSparseLdlSolver::Spec(), {}));
  ASSERT_TRUE(ldl.Factorize(system.A).ok);
  Vector x;
  ASSERT_TRUE(ldl.Solve(system.b, x).ok);
  const Vector exact = system.dense.ldlt().solve(system.b);
  EXPECT_LE((x - exact).norm(), 1e-12 * exact.norm());
  EXPECT_EQ(ldl.name(), "AsyncSparseLDLSolver");
}

}  // namespace
}  // namespace fluxion::internal
