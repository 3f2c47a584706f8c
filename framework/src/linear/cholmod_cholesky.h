// Sparse Cholesky factorisation by SuiteSparse's CHOLMOD: symbolic analysis once per pattern,
// supernodal numeric refactorisation per step, no heap allocation in the steady state.
#pragma once

#include <memory>

#include "fluxion/types.h"

namespace fluxion::internal {

/// P·A·Pᵀ = L·Lᵀ for a sparse symmetric positive definite A, by CHOLMOD (T. A. Davis, SuiteSparse
/// 5.12 as Debian 12 ships it; Chen, Davis, Hager, Rajamanickam, "Algorithm 887: CHOLMOD,
/// supernodal sparse Cholesky factorization and update/downdate", ACM TOMS 35(3), 2008).
///
/// `Analyze` does the symbolic work once per sparsity pattern: the fill-reducing ordering P
/// (METIS's nested dissection from 40 000 unknowns on, where on cloth meshes it needs 10–20 % fewer
/// flops than AMD; AMD below: docs/performance.md "Direct solver"), the elimination tree, the
/// (relaxed) supernodes and
/// L's pattern. CHOLMOD's flop-count rule then picks a supernodal factor (dense BLAS/LAPACK
/// kernels on the supernodes) or, for small very sparse matrices, a simplicial one. `Factorize`
/// only refactorises numerically into that factor; `Solve` runs the triangular solves with
/// workspaces kept from call to call. Both forms are LLᵀ: a pivot that is not > 0 fails.
///
/// Two cores: when the BLAS may be entered by two threads at once (the pthread OpenBLAS,
/// libopenblas0-pthread, which Fluxion installs; not the serial one, whose buffer pool has no
/// lock) and the factorisation is large (the 128² cloth and up), the analysis splits it below the
/// top separator S of the nested dissection: the two subtrees' matrices, each with S last, are
/// factorised by two CHOLMOD objects at once (RunParallelTasks, one per thread), and S's own factor
/// comes from the dense Schur complement their last blocks give (cholmod_cholesky.cpp, "The split
/// factorisation"). The solve runs the parts' forward and backward solves at once too.
///
/// Determinism: the numeric factorisation does the same operations in the same order whatever
/// the number of threads — the split's parts run at once or one after the other, nothing else
/// changes — and whether to split depends on the matrix and the BLAS, never on the thread count.
/// Debian's CHOLMOD opens OpenMP regions (teams of a compile-time 4 threads) around the scatter
/// loops of its supernodal factorisation, several per supernode; every iteration of those loops
/// writes its own entries, so they are deterministic, but a region costs more than its loop
/// (a team allocated and freed, a futex system call). Fluxion runs them inline on the calling
/// thread: libcholmod's three OpenMP imports are redirected once to functions that call the
/// region's body directly inside Fluxion's calls (linear/cholmod_openmp.h; where that cannot be
/// done, the regions are made inactive through libgomp's max-active-levels instead: slower, the
/// same results). The dense kernels are the BLAS that libblas.so.3 resolves to; a threaded
/// OpenBLAS is set to one thread of its own (its dpotrf's blocking depends on its thread count),
/// so every BLAS call runs on the thread that makes it. METIS may not be entered by two threads at
/// once, nor the serial OpenBLAS, so CHOLMOD calls are serialised process-wide (a mutex): any
/// number of CholmodCholesky objects may be used from any threads, one call running at a time.
///
/// No heap allocation in the steady state. CHOLMOD's numeric factorisation allocates temporaries
/// in every call (the transposed copy of A, the supernodal update matrix, its workspace); they go
/// through SuiteSparse's memory functions, which this class replaces (once, process-wide) by
/// functions that, on the calling thread and only while one of its calls runs, hand the blocks of
/// the previous call back out instead of asking malloc. Every later call with the same pattern
/// finds its blocks there: after the first `Factorize` and the first `Solve`, neither allocates.
/// Outside those calls the replaced functions are plain malloc/calloc/realloc/free.
class CholmodCholesky {
 public:
  /// How a numeric factorisation ended.
  enum class Status { kOk, kNotPositiveDefinite };

  /// Whether the analysis may split the factorisation in two parts factorised at once (see the
  /// class comment): kAuto splits large matrices when the BLAS may be entered by two threads at
  /// once; kSplit splits whenever the elimination tree allows it, whatever the BLAS (the parts then
  /// run one after the other unless it allows more; tests use it); kWhole never splits.
  enum class Mode { kAuto, kSplit, kWhole };

  explicit CholmodCholesky(Mode mode = Mode::kAuto);
  ~CholmodCholesky();
  CholmodCholesky(const CholmodCholesky&) = delete;
  CholmodCholesky& operator=(const CholmodCholesky&) = delete;

  /// Symbolic analysis of A's pattern (A square, compressed, with a symmetric pattern; only its
  /// upper triangle is read). Allocates; call once per pattern. Throws UsageError on a matrix of
  /// the wrong shape, std::bad_alloc when CHOLMOD runs out of memory.
  void Analyze(const SparseMatrix& A);
  /// True if A has exactly the analysed pattern (entry by entry).
  bool HasAnalysedPattern(const SparseMatrix& A) const;

  /// Numeric factorisation of A (with the analysed pattern; its upper triangle is read). On
  /// failure, `failed_row()` is the row of A (original numbering) whose pivot was not > 0; −1
  /// after a success. Throws std::bad_alloc when CHOLMOD runs out of memory.
  Status Factorize(const SparseMatrix& A);
  Index failed_row() const;

  /// x = A⁻¹·b for the last successful Factorize; `x` is resized on first use only.
  void Solve(const Vector& b, Vector& x);

  bool analysed() const;
  /// True when the analysis chose a supernodal factor.
  bool supernodal() const;
  /// True when the analysis split the factorisation in two parts and S (see the class comment).
  bool split() const;
  /// Entries of L (including its diagonal), from the analysis.
  double factor_nonzeros() const;
  /// Floating-point operations of one numeric factorisation, from the analysis (split: both parts,
  /// T's factorisation and the two products Gₕ·Gₕᵀ).
  double flops() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fluxion::internal
