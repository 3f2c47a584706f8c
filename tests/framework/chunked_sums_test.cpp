// ChunkedSums (linear/chunked_sums.h): CG's dot products, summed over fixed chunks so that one and
// two threads give the same bits, checked against an exactly rounded reference sum.
#include "linear/chunked_sums.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "fluxion/threads.h"

namespace fluxion::internal {
namespace {

// Entries of both signs and magnitudes over six decades, from a fixed LCG.
Vector Pseudorandom(Index n, std::uint64_t seed) {
  Vector v(n);
  for (Index i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(seed >> 11) / 9007199254740992.0;
    v[i] = (u - 0.5) * std::pow(10.0, static_cast<double>(i % 7) - 3.0);
  }
  return v;
}

// Σ aᵢbᵢ with Neumaier's compensation in long double: far more accurate than the sums under test.
double CompensatedDot(const Vector& a, const Vector& b) {
  long double sum = 0.0L, compensation = 0.0L;
  for (Index i = 0; i < a.size(); ++i) {
    const long double term = static_cast<long double>(a[i]) * static_cast<long double>(b[i]);
    const long double t = sum + term;
    compensation += std::fabs(sum) >= std::fabs(term) ? (sum - t) + term : (term - t) + sum;
    sum = t;
  }
  return static_cast<double>(sum + compensation);
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

// Sizes: below one chunk, a chunk plus a remainder not a multiple of 4, and enough chunks for
// ParallelFor to split them over two threads (≥ 2 × kVectorGrain entries).
class ChunkedSumsTest : public ::testing::TestWithParam<Index> {};

TEST_P(ChunkedSumsTest, DotIsAccurateAndTheSameOnOneAndTwoThreads) {
  const Index n = GetParam();
  const Vector a = Pseudorandom(n, 1), b = Pseudorandom(n, 2);
  ChunkedSums sums;
  sums.Resize(n);
  SetThreadCount(1);
  const double one = sums.Dot(a, b);
  SetThreadCount(2);
  const double two = sums.Dot(a, b);
  SetThreadCount(0);
  EXPECT_TRUE(SameBits(one, two)) << one << " vs " << two;
  // Any summation order errs by at most (n − 1)·ε·Σ|aᵢbᵢ|.
  const double bound = static_cast<double>(n) * 1.2e-16 * a.cwiseAbs().dot(b.cwiseAbs());
  EXPECT_LE(std::abs(one - CompensatedDot(a, b)), bound);
}

TEST_P(ChunkedSumsTest, FusedUpdateReturnsTheUpdatedResidualsSquaredNorm) {
  const Index n = GetParam();
  const Vector p = Pseudorandom(n, 3), q = Pseudorandom(n, 4);
  const double alpha = 0.731;
  for (int threads : {1, 2}) {
    SetThreadCount(threads);
    Vector x = Pseudorandom(n, 5), r = Pseudorandom(n, 6);
    const Vector x_expected = x + alpha * p, r_expected = r - alpha * q;
    ChunkedSums sums;
    sums.Resize(n);
    const double rho = sums.UpdateAndSquaredNorm(alpha, p, q, x, r);
    // Entry by entry x + α·p and r − α·q: the same single roundings as Eigen's expressions.
    EXPECT_EQ(x, x_expected);
    EXPECT_EQ(r, r_expected);
    EXPECT_TRUE(SameBits(rho, sums.Dot(r, r)));
  }
  SetThreadCount(0);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ChunkedSumsTest,
                         ::testing::Values(Index{3}, ChunkedSums::kChunk + 7, Index{49155}));

}  // namespace
}  // namespace fluxion::internal
