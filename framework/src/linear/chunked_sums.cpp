#include "linear/chunked_sums.h"

#include <algorithm>

#include "fluxion/errors.h"
#include "fluxion/threads.h"

namespace fluxion::internal {

namespace {

// Σ aᵢbᵢ over n entries, in four interleaved partial sums: independent additions that the
// processor overlaps (one running sum waits for each addition in turn).
double InterleavedDot(const double* a, const double* b, Index n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  Index i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

}  // namespace

void ChunkedSums::Resize(Index size) {
  FLUXION_DEMAND(size >= 0);
  size_ = size;
  chunk_sums_.assign(static_cast<std::size_t>((size + kChunk - 1) / kChunk), 0.0);
}

template <class ChunkSum>
double ChunkedSums::Sum(ChunkSum&& chunk_sum) {
  const auto chunks = static_cast<Index>(chunk_sums_.size());
  double* sums = chunk_sums_.data();
  const Index size = size_;
  // At least kVectorGrain entries per thread, as the element-wise loops.
  ParallelFor(chunks, std::max<Index>(1, kVectorGrain / kChunk), [&](Index begin, Index end) {
    for (Index c = begin; c < end; ++c) {
      const Index first = c * kChunk;
      sums[c] = chunk_sum(first, std::min(kChunk, size - first));
    }
  });
  double total = 0.0;
  for (Index c = 0; c < chunks; ++c) total += sums[c];
  return total;
}

double ChunkedSums::Dot(const Vector& a, const Vector& b) {
  FLUXION_DEMAND(a.size() == size_ && b.size() == size_);
  return Sum(
      [&](Index first, Index n) { return InterleavedDot(a.data() + first, b.data() + first, n); });
}

double ChunkedSums::UpdateAndSquaredNorm(double alpha, const Vector& p, const Vector& q, Vector& x,
                                         Vector& r) {
  FLUXION_DEMAND(p.size() == size_ && q.size() == size_ && x.size() == size_ && r.size() == size_);
  return Sum([&](Index first, Index n) {
    double* xs = x.data() + first;
    double* rs = r.data() + first;
    const double* ps = p.data() + first;
    const double* qs = q.data() + first;
    for (Index i = 0; i < n; ++i) {
      xs[i] += alpha * ps[i];
      rs[i] -= alpha * qs[i];
    }
    return InterleavedDot(rs, rs, n);  // the chunk is still in the cache
  });
}

}  // namespace fluxion::internal
