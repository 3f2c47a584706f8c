#include "linear/minres_linear_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"

namespace fluxion::internal {

ComponentSpec MinResLinearSolver::Spec() {
  return ComponentSpec{
      .name = "MinResLinearSolver",
      .kind = ComponentKind::kLinearSolver,
      .summary =
          "MINRES (minimum residual) iterative solver for symmetric, possibly indefinite, "
          "systems (SOFA's stopping rules)",
      .fields = {FieldSpec::Integer("iterations", 25, "maximum number of iterations").AtLeast(1),
                 FieldSpec::Real("tolerance", 1e-5,
                                 "stop when ‖r‖/(‖A‖·‖x‖) or ‖A·r‖/(‖A‖·‖r‖) ≤ tolerance")
                     .AtLeast(0),
                 FieldSpec::Text("graph", "", "SOFA's output: residuals per iteration (ignored)"),
                 FieldSpec::Text("template", "GraphScattered",
                                 "SOFA matrix template (accepted for compatibility; Fluxion "
                                 "multiplies force field by force field, as GraphScattered)"),
                 FieldSpec::Link("linearSystem",
                                 "SOFA's link to the component storing the system: accepted; "
                                 "Fluxion needs none")},
      .aliases = {}};
}

MinResLinearSolver::MinResLinearSolver(const Parameters& parameters)
    : max_iterations_(parameters.integer("iterations")), tolerance_(parameters.real("tolerance")) {}

void MinResLinearSolver::Resize(Index size) {
  if (r1_.size() != size) {
    for (Vector* v : {&r1_, &r2_, &y_, &w_, &w2_, &v_}) v->setZero(size);
    sums_.Resize(size);
  }
}

LinearSolveResult MinResLinearSolver::Factorize(const SparseMatrix& A) {
  matrix_ = &A;
  operator_ = nullptr;
  Resize(A.rows());
  return {};
}

LinearSolveResult MinResLinearSolver::FactorizeOperator(const LinearOperator& A) {
  operator_ = &A;
  matrix_ = nullptr;
  Resize(A.size());
  return {};
}

void MinResLinearSolver::Multiply(const Vector& x, Vector& y) const {
  if (operator_ != nullptr)
    operator_->Apply(x, y);
  else
    y.noalias() = *matrix_ * x;
}

// SOFA's MinResLinearSolver::solve with its names: r1 and r2 the last two Lanczos vectors (scaled
// by β), y the next one, v the normalised current one, w and w2 the last two update directions,
// (cs, sn) the last Givens rotation, φ̄ the residual norm.
LinearSolveResult MinResLinearSolver::Solve(const Vector& b, Vector& x) {
  LinearSolveResult result;
  if (matrix_ == nullptr && operator_ == nullptr)
    throw UsageError("MinResLinearSolver::Solve called before Factorize");
  if (x.size() != b.size() || !x.allFinite()) x.setZero(b.size());
  Vector* r1 = &r1_;
  Vector* r2 = &r2_;
  Vector* w = &w_;
  Vector* w2 = &w2_;
  Multiply(x, *r1);
  *r1 = b - *r1;  // r₀ = b − A·x₀
  double beta1 = sums_.Dot(*r1, *r1);
  if (!(beta1 > 0.0)) {  // x₀ solves it (SOFA stops with x = x₀)
    result.iterations = 0;
    return result;
  }
  beta1 = std::sqrt(beta1);
  y_ = *r1;
  w_.setZero();
  w2_.setZero();

  constexpr double eps = std::numeric_limits<double>::epsilon();
  double oldb = 0.0, beta = beta1, dbar = 0.0, epsln = 0.0, oldeps = 0.0;
  double phi = 0.0, phibar = beta1, tnorm2 = 0.0;
  double cs = -1.0, sn = 0.0;
  double gmax = 0.0, gmin = std::numeric_limits<double>::max();
  double test1 = 1.0;
  const char* ended = "iterations";
  long iteration = 0;
  for (; iteration < max_iterations_; ++iteration) {
    // The next Lanczos vector: v = y/β, y = A·v − (β/β_old)·r1 − (α/β)·r2 with α = vᵀA·v.
    *r2 = y_;
    const double s = 1.0 / beta;
    v_ = y_ * s;
    Multiply(v_, y_);
    if (iteration != 0) y_ -= (beta / oldb) * *r1;
    const double alpha = sums_.Dot(v_, y_);
    y_ -= (alpha / beta) * *r2;
    std::swap(r1, r2);
    oldb = beta;
    beta = sums_.Dot(y_, y_);
    if (beta < 0.0) {
      ended = "βᵀβ < 0";
      break;
    }
    beta = std::sqrt(beta);
    tnorm2 += alpha * alpha + oldb * oldb + beta * beta;

    // The previous rotation applied to the new column, then the next rotation.
    oldeps = epsln;
    const double delta = cs * dbar + sn * alpha;
    const double gbar = sn * dbar - cs * alpha;
    epsln = sn * beta;
    dbar = -cs * beta;
    const double root = std::sqrt(gbar * gbar + dbar * dbar);
    double gamma = std::sqrt(gbar * gbar + beta * beta);
    gamma = std::max(gamma, eps);
    const double denominator = 1.0 / gamma;
    cs = gbar * denominator;
    sn = beta * denominator;
    phi = cs * phibar;
    phibar = sn * phibar;

    // w = (v − ε_old·w_old2 − δ·w_old)/γ, x += φ·w.
    std::swap(w, w2);
    *w *= -oldeps;
    *w -= delta * *w2;
    *w += v_;
    *w *= denominator;
    x += phi * *w;
    if (iteration == 0 && beta / beta1 < 10.0 * eps) {
      ended = "invariant subspace";
      break;
    }
    const double a_norm = std::sqrt(tnorm2);
    const double y_norm = std::sqrt(sums_.Dot(x, x));
    test1 = phibar / (a_norm * y_norm);
    gmax = std::max(gmax, gamma);
    gmin = std::min(gmin, gamma);
    const double test2 = root / a_norm;
    // SOFA tests these together; the order here only names the one that ended the solve.
    if (test2 <= tolerance_) {
      ended = "‖A·r‖/(‖A‖·‖r‖) ≤ tolerance";
      break;
    }
    if (test1 <= tolerance_) {
      ended = "‖r‖/(‖A‖·‖x‖) ≤ tolerance";
      break;
    }
    if (test1 <= 0.0 || test2 <= 0.0) {
      ended = "a test ≤ 0";
      break;
    }
    if (gmax / gmin >= 0.1 / eps) {
      ended = "condition estimate ≥ 0.1/ε";
      break;
    }
    if (a_norm * eps * y_norm >= beta1) {
      ended = "‖A‖·ε·‖x‖ ≥ ‖r₀‖";
      break;
    }
    if (iteration >= max_iterations_ - 1) break;
  }
  const std::string_view end(ended);
  result.iterations = static_cast<int>(std::min(iteration + 1, max_iterations_));
  result.residual = phibar / beta1;
  result.converged = end.find("tolerance") != std::string_view::npos ||
                     end == "invariant subspace" || end == "a test ≤ 0";
  if (ShouldLog(LogLevel::kDebug))
    LogDebug("MinResLinearSolver: " + std::to_string(result.iterations) + " iterations, ended on " +
             std::string(end) + ", ‖r‖/‖r₀‖ = " + FormatReal(result.residual));
  if (!x.allFinite()) {
    result.ok = false;
    result.message = "MinResLinearSolver produced a non-finite solution";
  } else if (!result.converged) {
    result.message = "MinResLinearSolver stopped on " + std::string(end) + " after " +
                     std::to_string(result.iterations) +
                     " iterations (‖r‖/‖r₀‖ = " + FormatReal(result.residual) + ", tolerance " +
                     FormatReal(tolerance_) + ")";
  }
  return result;
}

}  // namespace fluxion::internal
