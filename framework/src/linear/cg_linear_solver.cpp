#include "linear/cg_linear_solver.h"

#include <cmath>

#include "core/text_parsing.h"

namespace fluxion::internal {

ComponentSpec CgLinearSolver::Spec() {
  return ComponentSpec{
      .name = "CGLinearSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary = "Conjugate gradient linear solver for the implicit ODE solvers (SOFA's stopping rules)",
      .fields = {FieldSpec::Integer("iterations", 25, "maximum number of CG iterations").AtLeast(1),
                 FieldSpec::Real("tolerance", 1e-5, "stop when ‖r‖/‖b‖ ≤ tolerance").AtLeast(0),
                 FieldSpec::Real("threshold", 1e-5,
                                 "stop when the denominator |pᵀAp| ≤ threshold")
                     .AtLeast(0)
                     .Alias("smallDenominatorThreshold"),
                 FieldSpec::Bool("warmStart", false, "start from the previous solution instead of 0"),
                 FieldSpec::Text("template", "GraphScattered",
                                 "SOFA matrix template (accepted for compatibility; Fluxion always "
                                 "uses its assembled sparse matrix)")},
      .aliases = {}};
}

CgLinearSolver::CgLinearSolver(const Parameters& parameters)
    : max_iterations_(parameters.integer("iterations")),
      tolerance_(parameters.real("tolerance")),
      threshold_(parameters.real("threshold")),
      warm_start_(parameters.flag("warmStart")) {}

LinearSolveResult CgLinearSolver::Factorize(const SparseMatrix& A) {
  matrix_ = &A;
  if (r_.size() != A.rows()) {
    r_.setZero(A.rows());
    p_.setZero(A.rows());
    q_.setZero(A.rows());
  }
  return {};
}

LinearSolveResult CgLinearSolver::Solve(const Vector& b, Vector& x) {
  LinearSolveResult result;
  const SparseMatrix& A = *matrix_;
  if (x.size() != b.size()) x.setZero(b.size());

  // Initial residual.
  if (warm_start_) {
    r_.noalias() = A * x;
    r_ = b - r_;
  } else {
    x.setZero();
    r_ = b;
  }
  const double norm_b = b.norm();
  if (norm_b == 0.0) {  // SOFA returns x = 0 for a zero right-hand side
    x.setZero();
    return result;
  }

  double rho_previous = 1.0;
  double error = 0.0;
  long iteration = 1;
  bool converged = false;
  for (; iteration <= max_iterations_; ++iteration) {
    const double rho = r_.squaredNorm();
    error = std::sqrt(rho) / norm_b;
    // SOFA: meeting the tolerance at the first iteration only warns and does one more iteration.
    if (error <= tolerance_ && iteration > 1) {
      converged = true;
      break;
    }
    if (iteration == 1) {
      p_ = r_;
    } else {
      const double beta = rho / rho_previous;
      p_ = beta * p_ + r_;
    }
    q_.noalias() = A * p_;
    const double denominator = p_.dot(q_);
    if (std::abs(denominator) <= threshold_ && iteration > 1) {
      converged = true;  // SOFA ends on the threshold criterion without complaint
      break;
    }
    const double alpha = rho / denominator;
    x += alpha * p_;
    r_ -= alpha * q_;
    rho_previous = rho;
  }
  if (!converged) {
    error = r_.norm() / norm_b;
    converged = error <= tolerance_;
  }
  result.iterations = static_cast<int>(std::min(iteration, max_iterations_));
  result.residual = error;
  result.converged = converged;
  if (!std::isfinite(error) || !x.allFinite()) {
    result.ok = false;
    result.message = "CGLinearSolver produced a non-finite solution (the matrix is singular or "
                     "indefinite)";
  } else if (!converged) {
    result.message = "CGLinearSolver did not converge in " + std::to_string(max_iterations_) +
                     " iterations (‖r‖/‖b‖ = " + FormatReal(error) + ", tolerance " +
                     FormatReal(tolerance_) + ")";
  }
  return result;
}

}  // namespace fluxion::internal
