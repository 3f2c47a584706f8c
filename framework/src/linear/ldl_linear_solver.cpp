#include "linear/ldl_linear_solver.h"

#include "fluxion/errors.h"

namespace fluxion::internal {

ComponentSpec LdlLinearSolver::Spec() {
  return ComponentSpec{
      .name = "SparseLDLSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary =
          "Direct sparse LDLᵀ factorisation (symbolic analysis reused while the pattern holds)",
      .fields = {FieldSpec::Text("template", "CompressedRowSparseMatrixd",
                                 "SOFA matrix template (accepted for compatibility)"),
                 FieldSpec::Link("linearSystem",
                                 "SOFA's link to the component storing the system (e.g. a "
                                 "MatrixLinearSystem): accepted; Fluxion assembles its own")},
      .aliases = {"EigenSimplicialLDLT", "EigenSimplicialLLT", "SparseCholeskySolver",
                  "CholeskySolver", "EigenSparseLU"}};
}

LdlLinearSolver::LdlLinearSolver(const Parameters& /*parameters*/) {}

LinearSolveResult LdlLinearSolver::Factorize(const SparseMatrix& A) {
  return FactorizeWith(A, SparseLdl::Pivots::kPositive);
}

LinearSolveResult LdlLinearSolver::FactorizeMass(const SparseMatrix& M) {
  LinearSolveResult result = FactorizeWith(M, SparseLdl::Pivots::kNonZero);
  if (result.ok && ldl_.negative_pivots() > 0)
    result.message = "SparseLDLSolver: the mass matrix is indefinite (" +
                     std::to_string(ldl_.negative_pivots()) +
                     " negative pivots): it is inverted anyway, as SOFA's LDLᵀ does, but motion "
                     "can grow where it should oscillate; a lumped mass (lumping=\"1\") is "
                     "positive";
  return result;
}

LinearSolveResult LdlLinearSolver::FactorizeWith(const SparseMatrix& A,
                                                 SparseLdl::Pivots accepted) {
  LinearSolveResult result;
  // Same size and entry count is not enough: another pattern needs another elimination tree
  // (reusing it would factorise wrongly). Comparing the index arrays is O(nnz), negligible next
  // to the numeric factorisation.
  if (!A.isCompressed())
    throw UsageError("SparseLDLSolver::Factorize needs a compressed matrix (from CreateMatrix)");
  if (!ldl_.HasAnalysedPattern(A)) {
    ldl_.Analyze(A);
    ++symbolic_analyses_;
  }
  factorized_ = false;
  switch (ldl_.Factorize(A, accepted)) {
    case SparseLdl::Status::kOk:
      factorized_ = true;
      break;
    case SparseLdl::Status::kZeroPivot:
      result.ok = false;
      result.message = "SparseLDLSolver: the factorisation failed (matrix is singular)";
      break;
    case SparseLdl::Status::kNegativePivot:
      result.ok = false;
      result.message = "SparseLDLSolver: the matrix is not positive definite (pivot " +
                       std::to_string(ldl_.failed_pivot()) + " is not > 0)";
      break;
  }
  return result;
}

LinearSolveResult LdlLinearSolver::Solve(const Vector& b, Vector& x) {
  LinearSolveResult result;
  if (symbolic_analyses_ == 0) throw UsageError("SparseLDLSolver::Solve called before Factorize");
  // After a failed Factorize there is no usable factor: report it rather than return a wrong x.
  if (!factorized_) {
    result.ok = false;
    result.message = "SparseLDLSolver: no valid factorisation (the last Factorize failed)";
    return result;
  }
  ldl_.Solve(b, x);
  if (!x.allFinite()) {
    result.ok = false;
    result.message = "SparseLDLSolver: the solve gave a non-finite solution";
  }
  return result;
}

}  // namespace fluxion::internal
