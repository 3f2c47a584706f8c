#include "linear/ldl_linear_solver.h"

#include <algorithm>

#include "fluxion/errors.h"

namespace fluxion::internal {

ComponentSpec LdlLinearSolver::Spec() {
  return ComponentSpec{
      .name = "SparseLDLSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary =
          "Direct sparse LDLᵀ factorisation (symbolic analysis reused while the pattern holds)",
      .fields = {FieldSpec::Text("template", "CompressedRowSparseMatrixd",
                                 "SOFA matrix template (accepted for compatibility)")},
      .aliases = {"EigenSimplicialLDLT"}};
}

LdlLinearSolver::LdlLinearSolver(const Parameters& /*parameters*/) {}

bool LdlLinearSolver::SamePattern(const SparseMatrix& A) const {
  if (A.rows() != analysed_rows_ || !A.isCompressed()) return false;
  const auto nonzeros = static_cast<std::size_t>(A.nonZeros());
  return nonzeros == analysed_inner_.size() &&
         std::equal(analysed_outer_.begin(), analysed_outer_.end(), A.outerIndexPtr()) &&
         std::equal(analysed_inner_.begin(), analysed_inner_.end(), A.innerIndexPtr());
}

LinearSolveResult LdlLinearSolver::Factorize(const SparseMatrix& A) {
  LinearSolveResult result;
  // Same size and entry count is not enough: another pattern needs another elimination tree
  // (reusing it would factorise wrongly). Comparing the index arrays is O(nnz), negligible next
  // to the numeric factorisation.
  if (!SamePattern(A)) {
    ldlt_.analyzePattern(A);
    ++symbolic_analyses_;
    analysed_rows_ = A.rows();
    if (A.isCompressed()) {
      analysed_outer_.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1);
      analysed_inner_.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
    } else {
      analysed_rows_ = -1;  // never reused: analysed again next time
    }
  }
  factorized_ = false;
  ldlt_.factorize(A);
  if (ldlt_.info() != Eigen::Success) {
    result.ok = false;
    result.message = "SparseLDLSolver: the factorisation failed (matrix is singular)";
    return result;
  }
  const auto& d = ldlt_.vectorD();
  for (Index i = 0; i < d.size(); ++i) {
    if (!(d[i] > 0.0)) {
      result.ok = false;
      result.message = "SparseLDLSolver: the matrix is not positive definite (pivot " +
                       std::to_string(i) + " is not > 0)";
      return result;
    }
  }
  factorized_ = true;
  return result;
}

LinearSolveResult LdlLinearSolver::Solve(const Vector& b, Vector& x) {
  LinearSolveResult result;
  if (symbolic_analyses_ == 0) throw UsageError("SparseLDLSolver::Solve called before Factorize");
  // After a failed Factorize there is no usable factor (Eigen would solve with a partial or
  // indefinite one): report it rather than return a wrong x.
  if (!factorized_) {
    result.ok = false;
    result.message = "SparseLDLSolver: no valid factorisation (the last Factorize failed)";
    return result;
  }
  x = ldlt_.solve(b);
  if (ldlt_.info() != Eigen::Success || !x.allFinite()) {
    result.ok = false;
    result.message = "SparseLDLSolver: the solve failed";
  }
  return result;
}

}  // namespace fluxion::internal
