#include "linear/cg_linear_solver.h"

#include <cmath>

#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "fluxion/threads.h"

namespace fluxion::internal {

ComponentSpec CgLinearSolver::Spec() {
  return ComponentSpec{
      .name = "CGLinearSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary =
          "Conjugate gradient linear solver for the implicit ODE solvers (SOFA's stopping rules)",
      .fields = {FieldSpec::Integer("iterations", 25, "maximum number of CG iterations").AtLeast(1),
                 FieldSpec::Real("tolerance", 1e-5, "stop when ‖r‖/‖b‖ ≤ tolerance").AtLeast(0),
                 FieldSpec::Real("threshold", 1e-5, "stop when the denominator |pᵀAp| ≤ threshold")
                     .AtLeast(0)
                     .Alias("smallDenominatorThreshold"),
                 FieldSpec::Bool("warmStart", false,
                                 "start from the previous solution instead of 0"),
                 FieldSpec::Text("template", "GraphScattered",
                                 "SOFA matrix template (accepted for compatibility; Fluxion always "
                                 "multiplies force field by force field, as GraphScattered)"),
                 FieldSpec::Link("linearSystem",
                                 "SOFA's link to the component storing the system (e.g. a "
                                 "MatrixLinearSystem): accepted; Fluxion needs none")},
      .aliases = {"ParallelCGLinearSolver"}};
}

CgLinearSolver::CgLinearSolver(const Parameters& parameters)
    : max_iterations_(parameters.integer("iterations")),
      tolerance_(parameters.real("tolerance")),
      threshold_(parameters.real("threshold")),
      warm_start_(parameters.flag("warmStart")) {}

// Every solve writes r, p and q before it reads them (r = b − A·x, p = r, q = A·p), so a new size
// keeps their buffers (conservativeResize: shrinking after a topological change reallocates
// nothing and touches no page) instead of creating and zeroing them.
void CgLinearSolver::Resize(Index size) {
  if (r_.size() != size) {
    for (Vector* v : {&r_, &p_, &q_}) v->conservativeResize(size);
    sums_.Resize(size);
  }
}

LinearSolveResult CgLinearSolver::Factorize(const SparseMatrix& A) {
  matrix_ = &A;
  operator_ = nullptr;
  Resize(A.rows());
  return {};
}

LinearSolveResult CgLinearSolver::FactorizeOperator(const LinearOperator& A) {
  operator_ = &A;
  matrix_ = nullptr;
  Resize(A.size());
  return {};
}

void CgLinearSolver::Multiply(const Vector& x, Vector& y) const {
  if (operator_ != nullptr)
    operator_->Apply(x, y);
  else
    y.noalias() = *matrix_ * x;
}

void CgLinearSolver::ContinueFrom(const LinearSolver& previous) {
  if (const auto* cg = dynamic_cast<const CgLinearSolver*>(&previous)) solves_ = cg->solves_;
}

// SOFA's CGLinearSolver::solve, step for step (sofa-notes §3): x = 0 (or the previous x with
// warmStart) and r = b − A·x; then per iteration ρ = rᵀr, stop if √ρ/‖b‖ ≤ tolerance; p = r (first
// iteration) or r + (ρ/ρ_prev)·p; q = A·p; stop if pᵀq = 0 or |pᵀq| ≤ threshold; x += α·p and
// r −= α·q with α = ρ/pᵀq. At the first iteration of the *first* solve SOFA only warns about the
// tolerance and threshold tests and carries on; later solves stop there (x unchanged).
LinearSolveResult CgLinearSolver::Solve(const Vector& b, Vector& x) {
  LinearSolveResult result;
  if (matrix_ == nullptr && operator_ == nullptr)
    throw UsageError("CGLinearSolver::Solve called before Factorize");
  if (x.size() != b.size()) x.setZero(b.size());
  const bool first_solve = solves_ == 0;
  ++solves_;

  // Initial residual.
  if (warm_start_) {
    Multiply(x, r_);
    r_ = b - r_;
  } else {
    x.setZero();
    r_ = b;
  }
  // Dot products over fixed chunks (linear/chunked_sums.h): the same bits for any thread count.
  const double norm_b = std::sqrt(sums_.Dot(b, b));
  if (norm_b == 0.0) {  // the solution of A x = 0 is 0 (SOFA: "null norm of vector b")
    x.setZero();
    return result;
  }

  double rho = sums_.Dot(r_, r_);
  double rho_previous = 1.0;
  double error = 0.0;
  int updates = 0;  // iterations that moved x (matrix-vector products A·p)
  bool stopped = false;
  const char* stop_reason = nullptr;
  const char* end_condition = "iterations";  // SOFA's endcond, for the debug log
  for (long iteration = 1; iteration <= max_iterations_; ++iteration) {
    error = std::sqrt(rho) / norm_b;
    const bool exempt = iteration == 1 && first_solve;
    if (error <= tolerance_ && !exempt) {
      stopped = true;
      end_condition = "tolerance";
      break;
    }
    if (iteration == 1) {
      p_ = r_;
    } else {
      const double beta = rho / rho_previous;
      // p = p·β + r, entry by entry (any split over the threads gives the same bits).
      ParallelFor(p_.size(), kVectorGrain, [&](Index begin, Index end) {
        for (Index i = begin; i < end; ++i) p_[i] = p_[i] * beta + r_[i];
      });
    }
    Multiply(p_, q_);
    const double denominator = sums_.Dot(p_, q_);
    if (denominator == 0.0) {  // SOFA: "den = 0.0, break the iterations"
      stop_reason = "pᵀAp = 0 (the matrix is singular)";
      break;
    }
    if (std::abs(denominator) <= threshold_ && !exempt) {
      stopped = true;  // SOFA ends on the threshold criterion without complaint
      end_condition = "threshold";
      break;
    }
    const double alpha = rho / denominator;
    rho_previous = rho;
    // x += α·p, r −= α·q, and the next ρ = rᵀr, in one pass.
    rho = sums_.UpdateAndSquaredNorm(alpha, p_, q_, x, r_);
    ++updates;
  }
  if (!stopped) error = std::sqrt(rho) / norm_b;
  if (stop_reason != nullptr) end_condition = "pᵀAp = 0";
  if (ShouldLog(LogLevel::kDebug))  // SOFA's printLog line: how the iterations ended
    LogDebug("CGLinearSolver: " + std::to_string(updates) + " iterations, ended on " +
             end_condition + ", ‖r‖/‖b‖ = " + FormatReal(error));
  result.iterations = updates;
  result.residual = error;
  result.converged = stopped || error <= tolerance_;
  if (!std::isfinite(error) || !x.allFinite()) {
    result.ok = false;
    result.message =
        "CGLinearSolver produced a non-finite solution (the matrix is singular or "
        "indefinite)";
  } else if (!result.converged) {
    result.message = stop_reason != nullptr
                         ? std::string("CGLinearSolver stopped: ") + stop_reason +
                               " (‖r‖/‖b‖ = " + FormatReal(error) + ")"
                         : "CGLinearSolver did not converge in " + std::to_string(max_iterations_) +
                               " iterations (‖r‖/‖b‖ = " + FormatReal(error) + ", tolerance " +
                               FormatReal(tolerance_) + ")";
  }
  return result;
}

}  // namespace fluxion::internal
