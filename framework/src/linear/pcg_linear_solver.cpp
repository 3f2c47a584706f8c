#include "linear/pcg_linear_solver.h"

#include <cmath>

#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "fluxion/threads.h"

namespace fluxion::internal {

ComponentSpec PcgLinearSolver::Spec() {
  return ComponentSpec{
      .name = "PCGLinearSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary =
          "Preconditioned conjugate gradient; the preconditioner is another linear solver "
          "of the scene (SOFA's stopping rules)",
      .fields =
          {FieldSpec::Integer("iterations", 25, "maximum number of PCG iterations").AtLeast(0),
           FieldSpec::Real("tolerance", 1e-5,
                           "stop when rᵀP⁻¹r is within ±tolerance·bᵀb (a squared residual ratio)")
               .AtLeast(0),
           FieldSpec::Bool("use_precond", true,
                           "apply the linked preconditioner (false: plain conjugate gradient)"),
           FieldSpec::LinkTo("preconditioner", ComponentKind::kLinearSolver,
                             "the linear solver applying P⁻¹ (e.g. @preconditioner naming an "
                             "AsyncSparseLDLSolver, JacobiPreconditioner or "
                             "BlockJacobiPreconditioner); none: plain conjugate gradient"),
           FieldSpec::Integer(
               "update_step", 1,
               "deprecated in SOFA (v25.12) and without effect there: accepted; "
               "the preconditioner's update rate is PreconditionedMatrixFreeSystem's "
               "assemblingRate")
               .AtLeast(0),
           FieldSpec::Text("template", "GraphScattered",
                           "SOFA matrix template (accepted for compatibility)"),
           FieldSpec::Link("linearSystem",
                           "SOFA's link to the component storing the system (a "
                           "PreconditionedMatrixFreeSystem, whose assemblingRate is read)")},
      .aliases = {}};
}

ComponentSpec PcgLinearSolver::PreconditionedSystemSpec() {
  return ComponentSpec{
      .name = "PreconditionedMatrixFreeSystem",
      .kind = ComponentKind::kLinearSystem,
      .summary =
          "The matrix-free system of a PCGLinearSolver: how often its preconditioner is "
          "rebuilt",
      .fields = {FieldSpec::Integer("assemblingRate", 1,
                                    "rebuild the PCG's preconditioner on every assemblingRate-th "
                                    "system assembly (step or Newton iteration); 0 acts as 1")
                     .AtLeast(0)
                     .Alias("update_step"),
                 FieldSpec::Text("template", "GraphScattered",
                                 "SOFA matrix template (accepted for compatibility)"),
                 FieldSpec::Link("preconditionerSystem",
                                 "SOFA's link to the preconditioner's system: accepted; Fluxion "
                                 "gives the preconditioner the PCG's assembled matrix")},
      .aliases = {}};
}

PcgLinearSolver::PcgLinearSolver(const Parameters& parameters)
    : max_iterations_(parameters.integer("iterations")),
      tolerance_(parameters.real("tolerance")),
      use_preconditioner_(parameters.flag("use_precond")) {}

PcgLinearSolver::~PcgLinearSolver() = default;

void PcgLinearSolver::SetPreconditioner(LinearSolverHandle preconditioner) {
  preconditioner_ = std::move(preconditioner);
}

void PcgLinearSolver::AttachLinked(LinkedLinearSolver linked) {
  if (linked.field != "preconditioner") return LinearSolver::AttachLinked(std::move(linked));
  SetPreconditioner(std::move(linked.solver));
  SetAssemblingRate(linked.refresh_interval);
}

void PcgLinearSolver::SetAssemblingRate(long rate) {
  if (rate < 1) throw UsageError("PCGLinearSolver: assemblingRate must be ≥ 1");
  assembling_rate_ = rate;
  assembly_counter_ = rate;
}

void PcgLinearSolver::Resize(Index size) {
  if (r_.size() != size) {
    r_.setZero(size);
    w_.setZero(size);
    s_.setZero(size);
    sums_.Resize(size);
  }
}

LinearSolveResult PcgLinearSolver::FactorizeMatrix(const SparseMatrix& A, bool mass) {
  matrix_ = &A;
  operator_ = nullptr;
  Resize(A.rows());
  if (!preconditioned()) return {};
  // SOFA's PreconditionedMatrixFreeSystem::buildSystemMatrix: the preconditioner's matrix is
  // rebuilt on every assemblingRate-th assembly (the counter starts at the rate: the first one).
  if (++assembly_counter_ < assembling_rate_) return {};
  assembly_counter_ = 0;
  ++preconditioner_updates_;
  LinearSolveResult result =
      mass ? preconditioner_->FactorizeMass(A) : preconditioner_->Factorize(A);
  if (!result.ok) result.message = "PCGLinearSolver's preconditioner: " + result.message;
  return result;
}

LinearSolveResult PcgLinearSolver::Factorize(const SparseMatrix& A) {
  return FactorizeMatrix(A, false);
}

LinearSolveResult PcgLinearSolver::FactorizeMass(const SparseMatrix& M) {
  return FactorizeMatrix(M, true);
}

LinearSolveResult PcgLinearSolver::FactorizeOperator(const LinearOperator& A) {
  if (preconditioned())
    throw UsageError("PCGLinearSolver with a preconditioner needs the assembled matrix");
  operator_ = &A;
  matrix_ = nullptr;
  Resize(A.size());
  return {};
}

void PcgLinearSolver::Multiply(const Vector& x, Vector& y) const {
  if (operator_ != nullptr)
    operator_->Apply(x, y);
  else
    y.noalias() = *matrix_ * x;
}

LinearSolveResult PcgLinearSolver::Precondition(const Vector& r, Vector& z) {
  if (!preconditioned()) {
    z = r;
    return {};
  }
  return preconditioner_->Solve(r, z);
}

// SOFA's PCGLinearSolver::solve (the recursion in the header comment), with the same names: r the
// residual, w the search direction, s the product A·w and then the preconditioned residual.
LinearSolveResult PcgLinearSolver::Solve(const Vector& b, Vector& x) {
  LinearSolveResult result;
  if (matrix_ == nullptr && operator_ == nullptr)
    throw UsageError("PCGLinearSolver::Solve called before Factorize");
  if (x.size() != b.size() || !x.allFinite()) x.setZero(b.size());

  // Dot products over fixed chunks, as CGLinearSolver's (linear/chunked_sums.h): the same bits
  // for any thread count, and without a preconditioner the same iterates as CG's.
  const double b_norm = sums_.Dot(b, b);  // SOFA's b_norm is bᵀb
  const double tolerance = tolerance_ * b_norm;
  if (b_norm == 0.0) {  // A·x = 0 is solved by x = 0 (SOFA would iterate from x towards it)
    x.setZero();
    return result;
  }

  // r = b − A·x, w = P⁻¹·r, δ = rᵀw.
  Multiply(x, r_);
  r_ = b - r_;
  LinearSolveResult preconditioned = Precondition(r_, w_);
  if (!preconditioned.ok) return preconditioned;
  double delta = sums_.Dot(r_, w_);

  long iteration = 1;
  const char* stop_reason = nullptr;
  while (iteration <= max_iterations_ && std::abs(delta) > tolerance) {  // |δ|: see the header
    Multiply(w_, s_);
    const double denominator = sums_.Dot(w_, s_);
    if (denominator == 0.0) {  // SOFA divides by it; Fluxion stops with x as it is
      stop_reason = "wᵀAw = 0";
      break;
    }
    const double alpha = delta / denominator;
    ParallelFor(x.size(), kVectorGrain, [&](Index begin, Index end) {
      for (Index i = begin; i < end; ++i) {
        x[i] += alpha * w_[i];
        r_[i] -= alpha * s_[i];
      }
    });
    preconditioned = Precondition(r_, s_);
    if (!preconditioned.ok) return preconditioned;
    const double delta_old = delta;
    delta = sums_.Dot(r_, s_);
    const double beta = delta / delta_old;
    // w = w·β + s, entry by entry (any split over the threads gives the same bits).
    ParallelFor(w_.size(), kVectorGrain, [&](Index begin, Index end) {
      for (Index i = begin; i < end; ++i) w_[i] = w_[i] * beta + s_[i];
    });
    ++iteration;
  }

  const int updates = static_cast<int>(iteration - 1);
  const double residual = r_.norm() / std::sqrt(b_norm);  // the recursive residual's ‖r‖/‖b‖
  if (ShouldLog(LogLevel::kDebug))                        // SOFA's "PCG iterations" value
    LogDebug("PCGLinearSolver: " + std::to_string(updates) + " iterations, rᵀP⁻¹r/bᵀb = " +
             FormatReal(delta / b_norm) + ", ‖r‖/‖b‖ = " + FormatReal(residual));
  result.iterations = updates;
  result.residual = residual;
  result.converged = std::abs(delta) <= tolerance;
  if (!std::isfinite(delta) || !x.allFinite()) {
    result.ok = false;
    result.message =
        "PCGLinearSolver produced a non-finite solution (the matrix or the preconditioner is "
        "singular or indefinite)";
  } else if (!result.converged) {
    result.message = stop_reason != nullptr
                         ? std::string("PCGLinearSolver stopped: ") + stop_reason
                         : "PCGLinearSolver did not converge in " +
                               std::to_string(max_iterations_) +
                               " iterations (rᵀP⁻¹r/bᵀb = " + FormatReal(delta / b_norm) +
                               ", tolerance " + FormatReal(tolerance_) + ")";
  }
  return result;
}

}  // namespace fluxion::internal
