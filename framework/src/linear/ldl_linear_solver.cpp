#include "linear/ldl_linear_solver.h"

#include "fluxion/errors.h"

namespace fluxion::internal {

ComponentSpec LdlLinearSolver::Spec() {
  return ComponentSpec{
      .name = "SparseLDLSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary =
          "Direct sparse factorisation: CHOLMOD's supernodal Cholesky, LDLᵀ for indefinite "
          "masses (symbolic analysis reused while the pattern holds)",
      .fields = {FieldSpec::Text("template", "CompressedRowSparseMatrixd",
                                 "SOFA matrix template (accepted for compatibility)"),
                 FieldSpec::Link("linearSystem",
                                 "SOFA's link to the component storing the system (e.g. a "
                                 "MatrixLinearSystem): accepted; Fluxion assembles its own")},
      .aliases = {"EigenSimplicialLDLT", "EigenSimplicialLLT", "SparseCholeskySolver",
                  "CholeskySolver", "EigenSparseLU", "EigenSparseQR"}};
}

LdlLinearSolver::LdlLinearSolver(const Parameters& /*parameters*/) {}

bool LdlLinearSolver::FactorizeCholesky(const SparseMatrix& A, std::string& why) {
  // Same size and entry count is not enough: another pattern needs another analysis (reusing it
  // would factorise wrongly). Comparing the index arrays is O(nnz), negligible next to the
  // numeric factorisation.
  if (!A.isCompressed())
    throw UsageError("SparseLDLSolver::Factorize needs a compressed matrix (from CreateMatrix)");
  if (!cholesky_.HasAnalysedPattern(A)) {
    cholesky_.Analyze(A);
    ++symbolic_analyses_;
  }
  ever_factorized_ = true;
  factor_ = Factor::kNone;
  if (cholesky_.Factorize(A) == CholmodCholesky::Status::kOk) {
    factor_ = Factor::kCholesky;
    return true;
  }
  why = "SparseLDLSolver: the matrix is not positive definite (its Cholesky pivot at row " +
        std::to_string(cholesky_.failed_row()) + " is not > 0)";
  return false;
}

LinearSolveResult LdlLinearSolver::Factorize(const SparseMatrix& A) {
  LinearSolveResult result;
  result.ok = FactorizeCholesky(A, result.message);
  return result;
}

LinearSolveResult LdlLinearSolver::FactorizeMass(const SparseMatrix& M) {
  LinearSolveResult result;
  std::string not_positive;
  if (FactorizeCholesky(M, not_positive)) return result;
  // Not positive definite: SOFA's LDLᵀ accepts any non-zero pivot.
  if (!ldl_.HasAnalysedPattern(M)) {
    ldl_.Analyze(M);
    ++symbolic_analyses_;
  }
  switch (ldl_.Factorize(M, SparseLdl::Pivots::kNonZero)) {
    case SparseLdl::Status::kOk:
      factor_ = Factor::kIndefiniteLdl;
      if (ldl_.negative_pivots() > 0)
        result.message = "SparseLDLSolver: the mass matrix is indefinite (" +
                         std::to_string(ldl_.negative_pivots()) +
                         " negative pivots): it is inverted anyway, as SOFA's LDLᵀ does, but "
                         "motion can grow where it should oscillate; a lumped mass "
                         "(lumping=\"1\") is positive";
      break;
    case SparseLdl::Status::kZeroPivot:
      result.ok = false;
      result.message = "SparseLDLSolver: the factorisation failed (matrix is singular)";
      break;
    case SparseLdl::Status::kNegativePivot:  // with kNonZero, only a NaN pivot
      result.ok = false;
      result.message = "SparseLDLSolver: the factorisation failed (the matrix is not finite)";
      break;
  }
  return result;
}

LinearSolveResult LdlLinearSolver::Solve(const Vector& b, Vector& x) {
  LinearSolveResult result;
  if (!ever_factorized_) throw UsageError("SparseLDLSolver::Solve called before Factorize");
  switch (factor_) {
    case Factor::kNone:
      // After a failed Factorize there is no usable factor: report it rather than return a wrong x.
      result.ok = false;
      result.message = "SparseLDLSolver: no valid factorisation (the last Factorize failed)";
      return result;
    case Factor::kCholesky:
      cholesky_.Solve(b, x);
      break;
    case Factor::kIndefiniteLdl:
      ldl_.Solve(b, x);
      break;
  }
  if (!x.allFinite()) {
    result.ok = false;
    result.message = "SparseLDLSolver: the solve gave a non-finite solution";
  }
  return result;
}

}  // namespace fluxion::internal
