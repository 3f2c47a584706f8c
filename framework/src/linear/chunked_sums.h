// Dot products summed over fixed chunks: the same bits whatever the number of threads.
#pragma once

#include <vector>

#include "fluxion/types.h"

namespace fluxion::internal {

/// Dot products for iterative solvers, evaluated on both cores and yet bit-identical for any
/// thread count: the vectors are cut into chunks of `kChunk` entries — fixed by the size alone —,
/// each chunk is summed with four interleaved partial sums combined as (s₀ + s₁) + (s₂ + s₃), and
/// the chunks' sums are added in chunk order on the calling thread. The threads only decide which
/// core sums which chunk. (A reduction split by thread count, as OpenMP's `reduction`, would round
/// differently for each count.) The rounding differs from Eigen's `dot`, whose order depends on
/// its SIMD packet size, and matches no serial left-to-right sum; the error bound is that of any
/// summation, a few n·ε·Σ|aᵢbᵢ|.
///
/// `UpdateAndSquaredNorm` fuses CG's updates x += α·p, r −= α·q with the next rᵀr in one pass.
/// Storage for the chunk sums is allocated by `Resize` only: no call allocates.
class ChunkedSums {
 public:
  static constexpr Index kChunk = 1024;

  /// Prepares for vectors of `size` entries (allocates the chunk sums when the size changes).
  void Resize(Index size);
  /// aᵀb.
  double Dot(const Vector& a, const Vector& b);
  /// x += α·p and r −= α·q entry by entry, then returns rᵀr of the updated r (the same bits as
  /// Dot(r, r) afterwards).
  double UpdateAndSquaredNorm(double alpha, const Vector& p, const Vector& q, Vector& x, Vector& r);

 private:
  template <class ChunkSum>
  double Sum(ChunkSum&& chunk_sum);

  Index size_ = 0;
  std::vector<double> chunk_sums_;
};

}  // namespace fluxion::internal
