#include "linear/svd_linear_solver.h"

#include <cmath>

#include "fluxion/errors.h"

namespace fluxion::internal {

ComponentSpec SvdLinearSolver::Spec() {
  return ComponentSpec{
      .name = "SVDLinearSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary =
          "Dense singular value decomposition (Eigen's JacobiSVD): x = V·Σ⁺·Uᵀ·b, "
          "singular values at or below minSingularValue dropped",
      .fields = {FieldSpec::Text("template", "FullMatrix",
                                 "SOFA matrix template (accepted for compatibility: the "
                                 "decomposition is dense whatever it is)"),
                 FieldSpec::Real("minSingularValue", 1.0e-6,
                                 "singular values at or below it count as 0 (their component "
                                 "of the solution is dropped)")
                     .AtLeast(0.0),
                 FieldSpec::Bool("verbose", false,
                                 "SOFA: dump the decomposition (accepted; Fluxion prints nothing)"),
                 FieldSpec::Real("conditionNumber", 0.0,
                                 "SOFA's output σ_max/σ_min (a value given is ignored)"),
                 FieldSpec::Link("linearSystem",
                                 "SOFA's link to the component storing the system: accepted; "
                                 "Fluxion assembles its own")},
      .aliases = {}};
}

SvdLinearSolver::SvdLinearSolver(const Parameters& parameters)
    : min_singular_value_(parameters.real("minSingularValue")) {}

LinearSolveResult SvdLinearSolver::Factorize(const SparseMatrix& A) {
  factorized_ = false;
  const Index n = A.rows();
  if (dense_.rows() != n || dense_.cols() != A.cols()) dense_.resize(n, A.cols());
  dense_.setZero();
  for (Index j = 0; j < A.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(A, j); it; ++it) dense_(it.row(), it.col()) = it.value();
  if (!dense_.allFinite()) {
    LinearSolveResult result;
    result.ok = false;
    result.message = "SVDLinearSolver: the matrix has a non-finite entry";
    return result;
  }
  svd_.compute(dense_, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const auto& sigma = svd_.singularValues();
  condition_number_ = sigma.size() == 0 ? 0.0 : sigma[0] / sigma[sigma.size() - 1];
  factorized_ = true;
  return {};
}

LinearSolveResult SvdLinearSolver::Solve(const Vector& b, Vector& x) {
  if (!factorized_) {
    if (dense_.size() == 0) throw UsageError("SVDLinearSolver::Solve called before Factorize");
    LinearSolveResult result;
    result.ok = false;
    result.message = "SVDLinearSolver: no decomposition (the last Factorize failed)";
    return result;
  }
  const auto& sigma = svd_.singularValues();
  projected_.noalias() = svd_.matrixU().transpose() * b;
  for (Index i = 0; i < sigma.size(); ++i)
    projected_[i] = sigma[i] > min_singular_value_ ? projected_[i] / sigma[i] : 0.0;
  if (x.size() != svd_.matrixV().rows()) x.resize(svd_.matrixV().rows());
  x.noalias() = svd_.matrixV() * projected_;
  return {};
}

}  // namespace fluxion::internal
