// MultiplyByRows (core/sparse_product.h): y = A·x split over the threads by rows, bit for bit
// Eigen's serial column-major product, for any thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/sparse_product.h"
#include "fluxion/threads.h"
#include "test_matrices.h"

namespace fluxion::internal {
namespace {

bool SameBits(const Vector& a, const Vector& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

// A rectangular matrix with random entries (some exact zeros, some negative zeros), columns of
// every length including empty ones, and rows that only a few columns reach.
SparseMatrix RandomMatrix(Index rows, Index columns, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<Eigen::Triplet<double, int>> triplets;
  for (Index j = 0; j < columns; ++j) {
    const int count = static_cast<int>(random() % 40);  // 0 … 39 entries
    for (int k = 0; k < count; ++k) {
      const auto row = static_cast<int>(random() % static_cast<unsigned>(rows));
      const unsigned kind = random() % 10;
      const double value = kind == 0 ? 0.0 : kind == 1 ? -0.0 : uniform(random) * 1e3;
      triplets.emplace_back(row, static_cast<int>(j), value);
    }
  }
  SparseMatrix A(rows, columns);
  A.setFromTriplets(triplets.begin(), triplets.end());
  A.makeCompressed();
  return A;
}

Vector RandomVector(Index size, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Vector x = Vector::NullaryExpr(size, [&] { return uniform(random); });
  x[0] = -0.0;
  return x;
}

// Sizes from below one thread's share to several shares (ParallelFor's grain is 16 384 rows),
// on one thread and on two.
TEST(MultiplyByRows, IsEigensProductBitForBitOnAnyThreadCount) {
  const SparseMatrix matrices[] = {
      RandomMatrix(300, 200, 1), RandomMatrix(40000, 35000, 2), RandomMatrix(70000, 70000, 3),
      test_matrices::ClothMatrix(128, 4)};  // the 128² cloth's pattern: 49 152 rows
  for (const SparseMatrix& A : matrices) {
    const Vector x = RandomVector(A.cols(), 5);
    const Vector expected = A * x;
    for (int threads = 1; threads <= 2; ++threads) {
      SetThreadCount(threads);
      Vector y;
      MultiplyByRows(A, x, y);
      EXPECT_TRUE(SameBits(y, expected)) << A.rows() << " rows, " << threads << " threads";
      MultiplyByRows(A, x, y);  // again into the sized y: nothing left from the first call
      EXPECT_TRUE(SameBits(y, expected)) << A.rows() << " rows, " << threads << " threads";
    }
  }
  SetThreadCount(0);
}

// An uncompressed matrix takes Eigen's own product.
TEST(MultiplyByRows, UncompressedMatrixGivesEigensProduct) {
  SparseMatrix A(3, 3);
  A.insert(0, 0) = 2.0;
  A.insert(2, 0) = -1.0;
  A.insert(1, 2) = 4.0;
  ASSERT_FALSE(A.isCompressed());
  Vector y;
  MultiplyByRows(A, Eigen::Vector3d(1.0, 2.0, 3.0), y);
  EXPECT_EQ(y, Eigen::Vector3d(2.0, 12.0, -1.0));
}

}  // namespace
}  // namespace fluxion::internal
