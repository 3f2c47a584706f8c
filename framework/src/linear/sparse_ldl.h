// Sparse LDLᵀ factorisation whose numeric phase and solves never allocate.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "fluxion/types.h"

namespace fluxion::internal {

/// The up-looking sparse LDLᵀ of T. A. Davis's LDL package ("Algorithm 849: A concise sparse
/// Cholesky factorization package", ACM TOMS 31(4), 2005), the algorithm SOFA's SparseLDLSolver
/// and Eigen's SimplicialLDLT implement, with a fill-reducing AMD ordering P:
///
///   P·A·Pᵀ = L·D·Lᵀ,   L unit lower triangular, D diagonal;
///   x = Pᵀ·L⁻ᵀ·D⁻¹·L⁻¹·P·b.
///
/// Why not Eigen's SimplicialLDLT directly: it copies the permuted matrix and allocates its
/// workspaces in every `factorize` and temporaries in every `solve`, while Fluxion's solver steps
/// must not allocate. Here everything that depends only on the pattern is done once, in
/// `Analyze`: Eigen's AMD ordering (the same one SimplicialLDLT computes), the permuted upper
/// triangle's pattern with a map from its entries to A's value slots, the elimination tree, L's
/// column counts, and every workspace. `Factorize` then gathers A's values through the map and
/// runs the numeric factorisation in Eigen's exact operation order (SimplicialCholesky_impl.h),
/// and `Solve` its triangular solves: results are bit-identical to SimplicialLDLT<·, Lower>.
class SparseLdl {
 public:
  /// How a numeric factorisation ended.
  enum class Status { kOk, kZeroPivot, kNegativePivot };

  /// Symbolic analysis of A's pattern (A square, compressed, symmetric pattern; only its lower
  /// triangle is read). Allocates; call once per pattern.
  void Analyze(const SparseMatrix& A);
  /// True if `A` has exactly the analysed pattern (entry by entry).
  bool HasAnalysedPattern(const SparseMatrix& A) const;

  /// Which pivots a factorisation accepts.
  enum class Pivots {
    kPositive,  ///< only d > 0: A must be positive definite (implicit system matrices)
    kNonZero,   ///< any d ≠ 0 (SOFA's LDLᵀ): symmetric indefinite A with non-singular minors
  };

  /// Numeric factorisation of A (with the analysed pattern). Stops at the first pivot that is not
  /// accepted — zero (singular), negative (not positive definite, with kPositive) or NaN — and
  /// reports its index in the permuted order through `failed_pivot()`. Never allocates.
  Status Factorize(const SparseMatrix& A, Pivots accepted = Pivots::kPositive);
  Index failed_pivot() const { return failed_pivot_; }
  /// How many pivots of the last factorisation were negative (kNonZero only).
  Index negative_pivots() const { return negative_pivots_; }

  /// x = A⁻¹·b for the last successful Factorize. `x` is resized on first use only.
  void Solve(const Vector& b, Vector& x);

  bool analysed() const { return analysed_; }

 private:
  bool analysed_ = false;
  Index size_ = 0;
  // The analysed pattern of A, to recognise it.
  std::vector<int> pattern_outer_, pattern_inner_;
  // P as Eigen applies it: (P·b)[perm_[i]] = b[i]; inverse_perm_ is P⁻¹'s index array.
  std::vector<int> perm_, inverse_perm_;
  // Upper triangle of P·A·Pᵀ, compressed by columns: column starts, row indices, and for each
  // entry the slot of A's value array it takes its value from.
  std::vector<int> upper_outer_, upper_inner_, upper_source_;
  std::vector<double> upper_values_;
  // Elimination tree and L (unit diagonal not stored), compressed by columns.
  std::vector<int> parent_, column_counts_, l_outer_, l_inner_;
  std::vector<double> l_values_, diagonal_;
  // Numeric workspaces.
  std::vector<double> y_;
  std::vector<int> stack_, tags_;
  Vector work_;
  Index failed_pivot_ = -1;
  Index negative_pivots_ = 0;
};

}  // namespace fluxion::internal
