#include "linear/precomputed_linear_solver.h"

namespace fluxion::internal {

ComponentSpec PrecomputedLinearSolver::Spec() {
  return ComponentSpec{
      .name = "PrecomputedLinearSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary =
          "Direct solver of the first system matrix only: x = A₀⁻¹·b at every later solve "
          "(SOFA's precomputed inverse; a constant-matrix model)",
      .fields = {FieldSpec::Text("template", "CompressedRowSparseMatrixd",
                                 "SOFA matrix template (accepted for compatibility)"),
                 FieldSpec::Bool("use_file", true,
                                 "SOFA: store the inverse in a file (accepted; Fluxion writes "
                                 "none)"),
                 FieldSpec::Bool("jmjt_twostep", true,
                                 "SOFA: two-step JMJᵀ for constraint corrections (accepted; "
                                 "unused)"),
                 FieldSpec::Link("linearSystem",
                                 "SOFA's link to the component storing the system: accepted; "
                                 "Fluxion assembles its own")},
      .aliases = {}};
}

PrecomputedLinearSolver::PrecomputedLinearSolver(const Parameters& /*parameters*/)
    : factor_(ParseParameters(LdlLinearSolver::Spec(), {})) {}

LinearSolveResult PrecomputedLinearSolver::Factorize(const SparseMatrix& A) {
  if (precomputed_) return {};
  const LinearSolveResult result = factor_.Factorize(A);
  precomputed_ = result.ok;
  return result;
}

LinearSolveResult PrecomputedLinearSolver::FactorizeMass(const SparseMatrix& M) {
  if (precomputed_) return {};
  const LinearSolveResult result = factor_.FactorizeMass(M);
  precomputed_ = result.ok;
  return result;
}

LinearSolveResult PrecomputedLinearSolver::Solve(const Vector& b, Vector& x) {
  return factor_.Solve(b, x);
}

}  // namespace fluxion::internal
