#include "linear/sparse_ldl.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <algorithm>

#include "fluxion/errors.h"

namespace fluxion::internal {

namespace {
using Permutation = Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>;
}  // namespace

bool SparseLdl::HasAnalysedPattern(const SparseMatrix& A) const {
  if (!analysed_ || A.rows() != size_ || A.cols() != size_ || !A.isCompressed()) return false;
  return static_cast<std::size_t>(A.nonZeros()) == pattern_inner_.size() &&
         std::equal(pattern_outer_.begin(), pattern_outer_.end(), A.outerIndexPtr()) &&
         std::equal(pattern_inner_.begin(), pattern_inner_.end(), A.innerIndexPtr());
}

void SparseLdl::Analyze(const SparseMatrix& A) {
  if (A.rows() != A.cols() || !A.isCompressed())
    throw UsageError("SparseLdl::Analyze needs a square, compressed matrix");
  analysed_ = false;
  size_ = A.rows();
  const auto n = static_cast<std::size_t>(size_);
  pattern_outer_.assign(A.outerIndexPtr(), A.outerIndexPtr() + size_ + 1);
  pattern_inner_.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());

  // The ordering, exactly as SimplicialCholeskyBase::ordering computes it: AMD on the full
  // symmetric matrix built from the lower triangle; the ordering method returns P⁻¹.
  Permutation inverse, permutation;
  {
    SparseMatrix symmetric;
    symmetric = A.selfadjointView<Eigen::Lower>();
    Eigen::AMDOrdering<int> ordering;
    ordering(symmetric, inverse);
  }
  permutation = inverse.inverse();
  perm_.assign(permutation.indices().data(), permutation.indices().data() + size_);
  inverse_perm_.assign(inverse.indices().data(), inverse.indices().data() + size_);

  // The upper triangle of P·A·Pᵀ as Eigen lays it out (its entries are not sorted within a
  // column, and the factorisation's operation order follows that layout). Running the same
  // permuted copy on A's slot numbers gives, for each entry, the slot its value comes from.
  {
    SparseMatrix slots = A;
    for (Index k = 0; k < A.nonZeros(); ++k) slots.valuePtr()[k] = static_cast<double>(k + 1);
    SparseMatrix upper(size_, size_);
    upper.selfadjointView<Eigen::Upper>() =
        slots.selfadjointView<Eigen::Lower>().twistedBy(permutation);
    upper.makeCompressed();
    upper_outer_.assign(upper.outerIndexPtr(), upper.outerIndexPtr() + size_ + 1);
    upper_inner_.assign(upper.innerIndexPtr(), upper.innerIndexPtr() + upper.nonZeros());
    upper_source_.resize(static_cast<std::size_t>(upper.nonZeros()));
    for (Index k = 0; k < upper.nonZeros(); ++k)
      upper_source_[static_cast<std::size_t>(k)] = static_cast<int>(upper.valuePtr()[k]) - 1;
    upper_values_.assign(upper_source_.size(), 0.0);
  }

  // Elimination tree and column counts of L (Davis's ldl_symbolic; Eigen's
  // analyzePattern_preordered): row k of L is every node reachable in the tree from the
  // entries A(i, k), i < k.
  parent_.assign(n, -1);
  column_counts_.assign(n, 0);
  tags_.assign(n, 0);
  for (int k = 0; k < static_cast<int>(size_); ++k) {
    parent_[static_cast<std::size_t>(k)] = -1;
    tags_[static_cast<std::size_t>(k)] = k;
    for (int p = upper_outer_[static_cast<std::size_t>(k)];
         p < upper_outer_[static_cast<std::size_t>(k) + 1]; ++p) {
      int i = upper_inner_[static_cast<std::size_t>(p)];
      if (i >= k) continue;
      for (; tags_[static_cast<std::size_t>(i)] != k; i = parent_[static_cast<std::size_t>(i)]) {
        if (parent_[static_cast<std::size_t>(i)] == -1) parent_[static_cast<std::size_t>(i)] = k;
        ++column_counts_[static_cast<std::size_t>(i)];
        tags_[static_cast<std::size_t>(i)] = k;
      }
    }
  }
  l_outer_.assign(n + 1, 0);
  for (std::size_t k = 0; k < n; ++k) l_outer_[k + 1] = l_outer_[k] + column_counts_[k];
  l_inner_.assign(static_cast<std::size_t>(l_outer_[n]), 0);
  l_values_.assign(static_cast<std::size_t>(l_outer_[n]), 0.0);
  diagonal_.assign(n, 0.0);
  y_.assign(n, 0.0);
  stack_.assign(n, 0);
  work_.setZero(size_);
  failed_pivot_ = -1;
  analysed_ = true;
}

SparseLdl::Status SparseLdl::Factorize(const SparseMatrix& A, Pivots accepted) {
  if (!HasAnalysedPattern(A))
    throw UsageError("SparseLdl::Factorize: the matrix does not have the analysed pattern");
  const double* a = A.valuePtr();
  for (std::size_t k = 0; k < upper_values_.size(); ++k) upper_values_[k] = a[upper_source_[k]];

  // Davis's ldl_numeric (Eigen's factorize_preordered for LDLᵀ, same operation order): row k of
  // L by a sparse triangular solve with the rows above, its pattern from the elimination tree.
  const int n = static_cast<int>(size_);
  std::fill(column_counts_.begin(), column_counts_.end(), 0);
  failed_pivot_ = -1;
  negative_pivots_ = 0;
  for (int k = 0; k < n; ++k) {
    const auto uk = static_cast<std::size_t>(k);
    y_[uk] = 0.0;
    int top = n;
    tags_[uk] = k;
    column_counts_[uk] = 0;
    for (int p = upper_outer_[uk]; p < upper_outer_[uk + 1]; ++p) {
      int i = upper_inner_[static_cast<std::size_t>(p)];
      if (i > k) continue;
      y_[static_cast<std::size_t>(i)] += upper_values_[static_cast<std::size_t>(p)];
      int length = 0;
      for (; tags_[static_cast<std::size_t>(i)] != k; i = parent_[static_cast<std::size_t>(i)]) {
        stack_[static_cast<std::size_t>(length++)] = i;
        tags_[static_cast<std::size_t>(i)] = k;
      }
      while (length > 0)
        stack_[static_cast<std::size_t>(--top)] = stack_[static_cast<std::size_t>(--length)];
    }
    double d = y_[uk];
    y_[uk] = 0.0;
    for (; top < n; ++top) {
      const auto i = static_cast<std::size_t>(stack_[static_cast<std::size_t>(top)]);
      const double yi = y_[i];
      y_[i] = 0.0;
      const double l_ki = yi / diagonal_[i];
      const int end = l_outer_[i] + column_counts_[i];
      int p = l_outer_[i];
      for (; p < end; ++p)
        y_[static_cast<std::size_t>(l_inner_[static_cast<std::size_t>(p)])] -=
            l_values_[static_cast<std::size_t>(p)] * yi;
      d -= l_ki * yi;
      l_inner_[static_cast<std::size_t>(p)] = k;
      l_values_[static_cast<std::size_t>(p)] = l_ki;
      ++column_counts_[i];
    }
    diagonal_[uk] = d;
    if (accepted == Pivots::kNonZero && d < 0.0) {
      ++negative_pivots_;
    } else if (!(d > 0.0)) {
      failed_pivot_ = k;
      // Leave the workspace clean for the next factorisation: Y is zero outside the pattern
      // still on the stack, which this row has consumed entirely.
      return d == 0.0 ? Status::kZeroPivot : Status::kNegativePivot;
    }
  }
  return Status::kOk;
}

void SparseLdl::Solve(const Vector& b, Vector& x) {
  if (!analysed_) throw UsageError("SparseLdl::Solve called before Analyze");
  if (b.size() != size_) throw UsageError("SparseLdl::Solve: b has the wrong size");
  const int n = static_cast<int>(size_);
  // w = P·b, then L⁻¹, D⁻¹, L⁻ᵀ in Eigen's order (SimplicialLDLT::_solve_impl and the sparse
  // triangular solvers), then x = P⁻¹·w.
  for (int i = 0; i < n; ++i) work_[perm_[static_cast<std::size_t>(i)]] = b[i];
  for (int i = 0; i < n; ++i) {
    const double wi = work_[i];
    if (wi == 0.0) continue;
    for (int p = l_outer_[static_cast<std::size_t>(i)];
         p < l_outer_[static_cast<std::size_t>(i) + 1]; ++p)
      work_[l_inner_[static_cast<std::size_t>(p)]] -= wi * l_values_[static_cast<std::size_t>(p)];
  }
  for (int i = 0; i < n; ++i) work_[i] = (1.0 / diagonal_[static_cast<std::size_t>(i)]) * work_[i];
  for (int i = n - 1; i >= 0; --i) {
    double wi = work_[i];
    for (int p = l_outer_[static_cast<std::size_t>(i)];
         p < l_outer_[static_cast<std::size_t>(i) + 1]; ++p)
      wi -= l_values_[static_cast<std::size_t>(p)] * work_[l_inner_[static_cast<std::size_t>(p)]];
    work_[i] = wi;
  }
  if (x.size() != size_) x.resize(size_);
  for (int i = 0; i < n; ++i) x[inverse_perm_[static_cast<std::size_t>(i)]] = work_[i];
}

}  // namespace fluxion::internal
