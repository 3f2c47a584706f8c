// The process-wide environment CHOLMOD runs in: recycled memory (no allocation in a steady
// step), the BLAS it brought in, and one call at a time (its OpenMP regions: cholmod_openmp.h).
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

namespace fluxion::internal {

/// Blocks CHOLMOD freed, kept for its next request of the same size (see cholmod_runtime.cpp).
/// Active on a thread through ActiveBlocks; InstallMemoryFunctions must have run first.
class CholmodBlocks {
 public:
  CholmodBlocks() { blocks_.reserve(kCapacity); }
  CholmodBlocks(const CholmodBlocks&) = delete;
  CholmodBlocks& operator=(const CholmodBlocks&) = delete;
  ~CholmodBlocks() { Trim(); }

  void* Allocate(std::size_t size);
  /// False when `pointer` is not one of the recorded blocks.
  bool Release(void* pointer);
  /// Size of a recorded block, 0 when `pointer` is not one.
  std::size_t SizeOf(const void* pointer) const;
  /// Really frees the blocks nobody uses (after an analysis, whose temporaries are not asked for
  /// again); blocks in use stay recorded.
  void Trim();

 private:
  struct Block {
    void* pointer;
    std::size_t size;
    bool in_use;
  };
  // A factorisation and a solve use a few dozen blocks at most (the factor's arrays, the
  // transposed matrix, the supernodal update matrix, the solve's dense workspaces, CHOLMOD's
  // Common workspace).
  static constexpr std::size_t kCapacity = 256;
  std::vector<Block> blocks_;
};

/// Replaces SuiteSparse's memory functions, once per process, before CHOLMOD's first call.
void InstallMemoryFunctions();

/// Makes `blocks` the active ones on this thread for the scope (scopes do not nest).
class ActiveBlocks {
 public:
  explicit ActiveBlocks(CholmodBlocks& blocks);
  ~ActiveBlocks();
  ActiveBlocks(const ActiveBlocks&) = delete;
  ActiveBlocks& operator=(const ActiveBlocks&) = delete;
};

extern "C" {
/// LAPACK's U·Uᵀ of an upper triangular U, in place (its upper triangle).
using Dlauum = void (*)(const char* uplo, const int* n, double* a, const int* lda, int* info);
}

/// What the BLAS and LAPACK CHOLMOD brought into the process offer the split factorisation.
struct BlasControls {
  Dlauum dlauum = nullptr;
  bool thread_safe = false;  ///< two threads may call it at once (a threaded OpenBLAS pinned to 1)
};
const BlasControls& CholmodBlas();

/// One CHOLMOD call at a time in the process (analysis, factorisation, solve).
std::mutex& CholmodMutex();

}  // namespace fluxion::internal
