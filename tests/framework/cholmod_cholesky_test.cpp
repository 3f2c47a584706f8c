// SparseLDLSolver's factorisation by CHOLMOD (linear/cholmod_cholesky.h): supernodal factors of
// cloth matrices against independent solvers, failures in A's numbering, the split factorisation
// on two threads, bit-identical results for any thread count, no allocation in the steady state,
// and CHOLMOD's OpenMP regions run inline (linear/cholmod_openmp.h).
#include <gtest/gtest.h>

#include <cholmod.h>

#include <Eigen/Dense>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>
#include <limits>
#include <random>
#include <thread>

#include "conformance/allocation_counter.h"
#include "fluxion/threads.h"
#include "linear/cholmod_cholesky.h"
#include "linear/cholmod_openmp.h"
#include "test_matrices.h"

namespace fluxion::internal {
namespace {

using test_matrices::ClothMatrix;
using test_matrices::MakeSpdSystem;
using test_matrices::SpdSystem;
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
using Dense = Eigen::MatrixXd;

// 120 × 120 points, 43 200 unknowns: METIS ordering and a supernodal factor (BLAS kernels). The
// solution is checked against Eigen's SimplicialLDLT (an independent implementation) and by its
// residual; both factorisations are backward stable, so they agree to ~κ·ε with κ ≲ 1e4 here.
TEST(CholmodCholesky, SupernodalFactorOfAClothSolvesItsSystem) {
  const SparseMatrix A = ClothMatrix(120, 21);
  CholmodCholesky cholesky;
  cholesky.Analyze(A);
  EXPECT_TRUE(cholesky.supernodal());
  EXPECT_GT(cholesky.flops(), 0.0);
  ASSERT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kOk);
  std::mt19937 random(22);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const Vector b = Vector::NullaryExpr(A.rows(), [&] { return uniform(random); });
  Vector x;
  cholesky.Solve(b, x);
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> eigen(A);
  ASSERT_EQ(eigen.info(), Eigen::Success);
  const Vector expected = eigen.solve(b);
  EXPECT_LE((x - expected).norm(), 1e-10 * expected.norm());
  EXPECT_LE((A * x - b).norm(), 1e-12 * b.norm());
}

// Small matrices get AMD and, when CHOLMOD's flop rule says so, a simplicial LLᵀ.
TEST(CholmodCholesky, SmallSystemSolvesLikeDenseFactorisation) {
  const SpdSystem system = MakeSpdSystem(40, 23);
  CholmodCholesky cholesky;
  cholesky.Analyze(system.A);
  ASSERT_EQ(cholesky.Factorize(system.A), CholmodCholesky::Status::kOk);
  Vector x;
  cholesky.Solve(system.b, x);
  const Vector exact = Dense(system.A).llt().solve(system.b);
  EXPECT_LE((x - exact).norm() / exact.norm(), 40 * kEpsilon * system.condition * 10);
}

// The row CHOLMOD reports is in A's numbering, whatever the ordering: a diagonal matrix's only
// negative entry is its only bad pivot.
TEST(CholmodCholesky, ReportsTheFailedRowInTheMatrixNumbering) {
  SparseMatrix A(4, 4);
  A.insert(0, 0) = 2.0;
  A.insert(1, 1) = 5.0;
  A.insert(2, 2) = -1.0;
  A.insert(3, 3) = 3.0;
  A.makeCompressed();
  CholmodCholesky cholesky;
  cholesky.Analyze(A);
  EXPECT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kNotPositiveDefinite);
  EXPECT_EQ(cholesky.failed_row(), 2);
  A.coeffRef(2, 2) = 4.0;
  ASSERT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kOk);
  EXPECT_EQ(cholesky.failed_row(), -1);
  Vector x;
  cholesky.Solve(Vector::Constant(4, 20.0), x);
  // x_i = (b_i/√d_i)/√d_i: a few roundings each.
  const Eigen::Vector4d expected(10.0, 4.0, 5.0, 20.0 / 3.0);
  EXPECT_LE((x - expected).cwiseAbs().maxCoeff(), 4 * kEpsilon * 10.0);
}

// A supernodal factor that failed in its middle factorises again on the same analysis.
TEST(CholmodCholesky, FactorisesAgainAfterAFailure) {
  SparseMatrix A = ClothMatrix(60, 24);
  CholmodCholesky cholesky;
  cholesky.Analyze(A);
  const Index middle = A.rows() / 2;
  A.coeffRef(middle, middle) = -1e6;
  EXPECT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kNotPositiveDefinite);
  EXPECT_GE(cholesky.failed_row(), 0);
  A.coeffRef(middle, middle) = 1e3;
  ASSERT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kOk);
  const Vector b = Vector::Ones(A.rows());
  Vector x;
  cholesky.Solve(b, x);
  EXPECT_LE((A * x - b).norm(), 1e-12 * b.norm());
}

// Results do not depend on threads: the factorisation and solve of one matrix give bit-identical
// solutions when repeated, and when two factorisations run at once on two threads (each with its
// own CholmodCholesky: CHOLMOD's memory recycling is per thread, its OpenMP regions serial, and
// METIS's analyses one at a time, since its random generator is global). 43 200 unknowns: METIS.
TEST(CholmodCholesky, BitIdenticalAcrossRepeatsAndThreads) {
  const SparseMatrix A = ClothMatrix(120, 25);
  const Vector b = Vector::LinSpaced(A.rows(), -1.0, 1.0);
  const auto solve = [&](Vector& x) {
    CholmodCholesky cholesky;
    cholesky.Analyze(A);
    for (int round = 0; round < 3; ++round) {
      ASSERT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kOk);
      cholesky.Solve(b, x);
    }
  };
  Vector alone, first, second;
  solve(alone);
  std::thread one([&] { solve(first); });
  std::thread two([&] { solve(second); });
  one.join();
  two.join();
  ASSERT_EQ(alone.size(), A.rows());
  EXPECT_TRUE(first == alone);
  EXPECT_TRUE(second == alone);
}

// The split factorisation (two parts below the top separator S of METIS's nested dissection,
// factorised independently, and S's dense Schur complement T; linear/cholmod_cholesky.cpp) solves
// the system as the whole factorisation does. Checked against Eigen's SimplicialLDLT (an
// independent implementation) and by the residual: the split is the same Cholesky factor computed
// in another order, backward stable, so κ·ε with κ ≲ 1e4 here bounds the difference.
TEST(CholmodCholesky, SplitFactorOfAClothSolvesItsSystem) {
  const SparseMatrix A = ClothMatrix(120, 26);
  CholmodCholesky cholesky(CholmodCholesky::Mode::kSplit);
  cholesky.Analyze(A);
  ASSERT_TRUE(cholesky.split());
  CholmodCholesky whole(CholmodCholesky::Mode::kWhole);
  whole.Analyze(A);
  EXPECT_FALSE(whole.split());
  // The split does S's dense work three times: a little more than the whole factorisation.
  EXPECT_GT(cholesky.flops(), whole.flops());
  EXPECT_LT(cholesky.flops(), 1.5 * whole.flops());
  std::mt19937 random(27);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const Vector b = Vector::NullaryExpr(A.rows(), [&] { return uniform(random); });
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> eigen(A);
  ASSERT_EQ(eigen.info(), Eigen::Success);
  const Vector expected = eigen.solve(b);
  // Issue #14 asks the direct solver to match CG where CG converges: Eigen's preconditioned CG
  // run to a relative residual of 1e-13 is within κ·1e-13 ≲ 1e-9 of the exact solution.
  Eigen::ConjugateGradient<SparseMatrix, Eigen::Lower | Eigen::Upper> cg(A);
  cg.setTolerance(1e-13);
  cg.setMaxIterations(20000);
  const Vector iterated = cg.solve(b);
  ASSERT_EQ(cg.info(), Eigen::Success);
  for (int round = 0; round < 2; ++round) {  // the second factorisation reuses everything
    ASSERT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kOk);
    Vector x;
    cholesky.Solve(b, x);
    EXPECT_LE((x - expected).norm(), 1e-10 * expected.norm());
    EXPECT_LE((A * x - b).norm(), 1e-12 * b.norm());
    EXPECT_LE((x - iterated).norm(), 1e-8 * iterated.norm());
  }
}

// A matrix that is not positive definite fails in the split factorisation too, with a row in A's
// numbering, and the next positive definite one factorises.
TEST(CholmodCholesky, SplitFactorReportsFailureAndRecovers) {
  SparseMatrix A = ClothMatrix(120, 28);
  CholmodCholesky cholesky(CholmodCholesky::Mode::kSplit);
  cholesky.Analyze(A);
  ASSERT_TRUE(cholesky.split());
  for (const Index bad : {Index{0}, A.rows() / 2, A.rows() - 1}) {
    const double saved = A.coeff(bad, bad);
    A.coeffRef(bad, bad) = -1e6;
    EXPECT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kNotPositiveDefinite) << bad;
    EXPECT_GE(cholesky.failed_row(), 0);
    EXPECT_LT(cholesky.failed_row(), A.rows());
    A.coeffRef(bad, bad) = saved;
  }
  ASSERT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kOk);
  EXPECT_EQ(cholesky.failed_row(), -1);
  const Vector b = Vector::Ones(A.rows());
  Vector x;
  cholesky.Solve(b, x);
  EXPECT_LE((A * x - b).norm(), 1e-12 * b.norm());
}

// Issue #14: the factorisation and the solution do not depend on the thread count. The split
// factorisation's parts run at once on two threads (when the BLAS allows it) or one after the
// other on one: the same operations in the same order, so the solutions are bit-identical. Both
// the forced split and the automatic choice (which splits with a thread-safe BLAS) are checked.
TEST(CholmodCholesky, BitIdenticalOnOneAndTwoThreads) {
  const SparseMatrix A = ClothMatrix(120, 29);
  const Vector b = Vector::LinSpaced(A.rows(), -1.0, 1.0);
  for (const CholmodCholesky::Mode mode :
       {CholmodCholesky::Mode::kSplit, CholmodCholesky::Mode::kAuto}) {
    Vector solutions[2];
    for (int threads = 1; threads <= 2; ++threads) {
      SetThreadCount(threads);
      CholmodCholesky cholesky(mode);
      cholesky.Analyze(A);
      for (int round = 0; round < 2; ++round) {
        ASSERT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kOk);
        cholesky.Solve(b, solutions[threads - 1]);
      }
    }
    SetThreadCount(0);
    ASSERT_EQ(solutions[0].size(), A.rows());
    EXPECT_TRUE(solutions[0] == solutions[1]) << static_cast<int>(mode);
    EXPECT_LE((A * solutions[0] - b).norm(), 1e-12 * b.norm());
  }
}

// Steady-state factorisations and solves of the split factorisation do not allocate, on one
// thread and on two (CHOLMOD's temporaries are recycled per part, the dense blocks kept).
TEST(CholmodCholesky, SplitFactorDoesNotAllocateInTheSteadyState) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer";
  const SparseMatrix A = ClothMatrix(120, 30);
  const Vector b = Vector::Ones(A.rows());
  Vector x;
  for (int threads = 1; threads <= 2; ++threads) {
    SetThreadCount(threads);
    CholmodCholesky cholesky(CholmodCholesky::Mode::kSplit);
    cholesky.Analyze(A);
    ASSERT_TRUE(cholesky.split());
    for (int round = 0; round < 2; ++round) {
      ASSERT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kOk);
      cholesky.Solve(b, x);
    }
    const long before = conformance::AllocationCount();
    for (int round = 0; round < 3; ++round) {
      ASSERT_EQ(cholesky.Factorize(A), CholmodCholesky::Status::kOk);
      cholesky.Solve(b, x);
    }
    EXPECT_EQ(conformance::AllocationCount() - before, 0) << threads << " threads";
  }
  SetThreadCount(0);
}

// --- CHOLMOD's OpenMP regions, inline
// -------------------------------------------------------------

// The values of L from CHOLMOD's own API (no Fluxion in between): a supernodal factorisation of
// `A` (AMD ordering), inside a SerialCholmodRegions scope or outside any. `regions` is how many
// OpenMP regions ran inline on this thread meanwhile.
std::vector<double> RawCholmodFactor(const SparseMatrix& A, bool in_scope, long& regions) {
  cholmod_common common;
  cholmod_start(&common);
  common.print = 0;
  common.nmethods = 1;
  common.method[0].ordering = CHOLMOD_AMD;
  common.supernodal = CHOLMOD_SUPERNODAL;
  cholmod_sparse view{};
  view.nrow = view.ncol = static_cast<size_t>(A.rows());
  view.nzmax = static_cast<size_t>(A.nonZeros());
  view.p = const_cast<int*>(A.outerIndexPtr());
  view.i = const_cast<int*>(A.innerIndexPtr());
  view.x = const_cast<double*>(A.valuePtr());
  view.stype = 1;  // its upper triangle
  view.itype = CHOLMOD_INT;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = 1;
  view.packed = 1;
  cholmod_factor* L = cholmod_analyze(&view, &common);
  const long before = InlineRegionsRun();
  if (in_scope) {
    const SerialCholmodRegions serial(0);
    cholmod_factorize(&view, L, &common);
  } else {
    cholmod_factorize(&view, L, &common);
  }
  regions = InlineRegionsRun() - before;
  std::vector<double> values;
  if (common.status == CHOLMOD_OK && L->is_super)
    values.assign(static_cast<const double*>(L->x), static_cast<const double*>(L->x) + L->xsize);
  cholmod_free_factor(&L, &common);
  cholmod_finish(&common);
  return values;
}

// Debian's CHOLMOD imports GOMP_parallel, omp_get_num_threads and omp_get_thread_num; on x86-64
// and AArch64 Fluxion redirects them so that, inside its scopes, each region's body runs on the
// calling thread. Outside them the regions still go to libgomp (4-thread teams): a user of
// CHOLMOD in the same process keeps its teams. The loops write disjoint entries, so both give
// the same factor, bit for bit, and the same as the inactive regions Fluxion used before.
TEST(CholmodOpenMp, InlineRegionsGiveTheTeamsFactorBitForBit) {
#if defined(__x86_64__) || defined(__aarch64__)
  ASSERT_TRUE(InlineCholmodRegions()) << "libcholmod's OpenMP imports were not redirected";
#else
  if (!InlineCholmodRegions()) GTEST_SKIP() << "no redirection on this architecture";
#endif
  const SparseMatrix A = ClothMatrix(60, 31);  // 10 800 unknowns: a supernodal factor
  long inline_regions = 0, forwarded_regions = 0;
  const std::vector<double> inline_factor = RawCholmodFactor(A, true, inline_regions);
  const std::vector<double> team_factor = RawCholmodFactor(A, false, forwarded_regions);
  ASSERT_FALSE(inline_factor.empty());
  EXPECT_GT(inline_regions, 1000);  // several regions per supernode
  EXPECT_EQ(forwarded_regions, 0);
  EXPECT_TRUE(inline_factor == team_factor);
}

}  // namespace
}  // namespace fluxion::internal
