#include "linear/ldl_linear_solver.h"

namespace fluxion::internal {

ComponentSpec LdlLinearSolver::Spec() {
  return ComponentSpec{
      .name = "SparseLDLSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary = "Direct sparse LDLᵀ factorisation (symbolic analysis reused while the pattern holds)",
      .fields = {FieldSpec::Text("template", "CompressedRowSparseMatrixd",
                                 "SOFA matrix template (accepted for compatibility)")},
      .aliases = {"EigenSimplicialLDLT"}};
}

LdlLinearSolver::LdlLinearSolver(const Parameters& /*parameters*/) {}

LinearSolveResult LdlLinearSolver::Factorize(const SparseMatrix& A) {
  LinearSolveResult result;
  if (A.nonZeros() != analysed_nonzeros_ || A.rows() != analysed_rows_) {
    ldlt_.analyzePattern(A);
    analysed_nonzeros_ = A.nonZeros();
    analysed_rows_ = A.rows();
  }
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
  return result;
}

LinearSolveResult LdlLinearSolver::Solve(const Vector& b, Vector& x) {
  LinearSolveResult result;
  x = ldlt_.solve(b);
  if (ldlt_.info() != Eigen::Success || !x.allFinite()) {
    result.ok = false;
    result.message = "SparseLDLSolver: the solve failed";
  }
  return result;
}

}  // namespace fluxion::internal
