// JacobiPreconditionedCGSolver — conjugate gradient with a diagonal (Jacobi) preconditioner, a
// linear solver for the symmetric positive definite systems of Fluxion's implicit ODE solvers.
//
// Source: Y. Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed. (SIAM, 2003), §9.2.1,
// Algorithm 9.1 "Preconditioned Conjugate Gradient", with the Jacobi preconditioner M = D =
// diag(A) of §10.2 (the same iteration is in Golub & Van Loan, "Matrix Computations", 4th ed.,
// §11.5). Saad's preconditioner M is called D here (M is Fluxion's mass matrix):
//
//   x₀ = 0,  r₀ = b − A·x₀ = b,  z₀ = D⁻¹·r₀,  p₀ = z₀
//   for j = 0, 1, …
//     αⱼ   = (rⱼ, zⱼ) / (A·pⱼ, pⱼ)
//     xⱼ₊₁ = xⱼ + αⱼ·pⱼ
//     rⱼ₊₁ = rⱼ − αⱼ·A·pⱼ
//     zⱼ₊₁ = D⁻¹·rⱼ₊₁
//     βⱼ   = (rⱼ₊₁, zⱼ₊₁) / (rⱼ, zⱼ)
//     pⱼ₊₁ = zⱼ₊₁ + βⱼ·pⱼ
//
// Stopping rules (checked in this order; `iterations` counts the updates of x):
//   - converged when ‖rⱼ‖₂ ≤ tolerance·‖b‖₂ (the residual of A·x = b itself, not of D⁻¹A);
//   - breakdown when (A·pⱼ, pⱼ) ≤ threshold·(D·pⱼ, pⱼ): the Rayleigh quotient of the Jacobi-scaled
//     matrix D^-½·A·D^-½ (unit diagonal, so its eigenvalues average 1) along pⱼ is below
//     `threshold`, i.e. A is singular to that relative precision: stop, not converged. A negative
//     quotient means A is not positive definite: the solve fails, as SparseLDLSolver's does;
//   - not converged after `iterations` updates.
// The threshold is relative, unlike CGLinearSolver's absolute |pᵀAp| test (SOFA's), so it does not
// depend on the units of A.
//
// Convergence: in exact arithmetic at most n iterations; the A-norm of the error shrinks at least
// like 2·((√κ − 1)/(√κ + 1))ʲ with κ the condition number of D^-½·A·D^-½ (Saad §6.11.3), which
// is invariant under a rescaling of single DOFs (A → S·A·S, S diagonal: heavy and light beads). The
// error of x is at most κ(A)·tolerance relative to x. Fixed DOFs need nothing special: the system
// projects A to a unit row and column, so their z and x stay 0.
//
// Cost per iteration: one sparse product A·p, four reductions (pᵀAp, pᵀDp, ‖r‖, rᵀz), three vector
// updates (x, r, p) and one diagonal scaling (z). Factorize only keeps A and inverts its diagonal
// (rejecting a diagonal entry that is not > 0: A is then not positive definite); all work vectors
// are sized once, on the first Factorize, so neither Factorize nor Solve allocates after that
// (messages are built only when a solve fails or misses its tolerance).
#include <fluxion/errors.h>
#include <fluxion/linear_solver.h>
#include <fluxion/parameters.h>
#include <fluxion/plugin.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace {

// "%.3g" of a value, for messages only.
std::string Short(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

class JacobiPreconditionedCGSolver final : public fluxion::LinearSolver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {
        .name = "JacobiPreconditionedCGSolver",
        .kind = fluxion::ComponentKind::kLinearSolver,
        .summary = "Conjugate gradient with a diagonal (Jacobi) preconditioner (Saad, alg. 9.1)",
        .fields = {fluxion::FieldSpec::Integer("iterations", 25,
                                               "maximum number of conjugate-gradient iterations "
                                               "(updates of x) per solve")
                       .AtLeast(1),
                   fluxion::FieldSpec::Real("tolerance", 1e-9,
                                            "converged when ‖b − A·x‖₂ ≤ tolerance·‖b‖₂ (relative "
                                            "residual of A·x = b)")
                       .AtLeast(0.0),
                   fluxion::FieldSpec::Real("threshold", 1e-9,
                                            "breakdown guard: stop when pᵀAp ≤ threshold·pᵀDp "
                                            "(D = diag(A)), i.e. A is singular along the search "
                                            "direction p to this relative precision")
                       .AtLeast(0.0)},
        .aliases = {}};
  }

  explicit JacobiPreconditionedCGSolver(const fluxion::Parameters& p)
      : max_iterations_(p.integer("iterations")),
        tolerance_(p.real("tolerance")),
        threshold_(p.real("threshold")) {}

  const std::string& name() const override { return name_; }

  fluxion::LinearSolveResult Factorize(const fluxion::SparseMatrix& A) override {
    fluxion::LinearSolveResult result;
    if (A.rows() != A.cols())
      throw fluxion::UsageError(name_ + "::Factorize needs a square matrix");
    const fluxion::Index n = A.rows();

    // Work vectors: sized on the first call (the system's size never changes afterwards).
    if (diagonal_.size() != n) {
      diagonal_.setZero(n);
      inverse_diagonal_.setZero(n);
      r_.setZero(n);
      z_.setZero(n);
      p_.setZero(n);
      q_.setZero(n);
    }

    // The preconditioner D = diag(A). An SPD matrix has a positive diagonal; anything else (a
    // zero, a negative or a non-finite entry) means A is not SPD and CG does not apply.
    matrix_ = &A;
    factorized_ = false;
    for (fluxion::Index i = 0; i < n; ++i) {
      const double d = A.coeff(i, i);
      if (!(d > 0.0) || !std::isfinite(d)) {
        result.ok = false;
        result.message = name_ + ": the matrix is not positive definite (diagonal entry " +
                         std::to_string(i) + " is " + Short(d) + ", not > 0)";
        return result;
      }
      diagonal_[i] = d;
      inverse_diagonal_[i] = 1.0 / d;
    }
    factorized_ = true;
    return result;
  }

  fluxion::LinearSolveResult Solve(const fluxion::Vector& b, fluxion::Vector& x) override {
    fluxion::LinearSolveResult result;
    if (matrix_ == nullptr) throw fluxion::UsageError(name_ + "::Solve called before Factorize");
    const fluxion::SparseMatrix& A = *matrix_;
    if (b.size() != A.rows()) throw fluxion::UsageError(name_ + "::Solve: b has the wrong size");
    if (!factorized_) {  // the last Factorize rejected A: there is no preconditioner
      result.ok = false;
      result.message = name_ + ": no valid preconditioner (the last Factorize failed)";
      return result;
    }
    if (x.size() != b.size()) x.resize(b.size());  // the caller's vector, on its first solve only

    // x₀ = 0, so r₀ = b; the solution of A·x = 0 is 0.
    x.setZero();
    const double norm_b = b.norm();
    if (norm_b == 0.0) return result;
    const double stop_norm = tolerance_ * norm_b;

    // z₀ = D⁻¹·r₀, p₀ = z₀.
    r_ = b;
    z_ = inverse_diagonal_.cwiseProduct(r_);
    p_ = z_;
    double rz = r_.dot(z_);  // (rⱼ, zⱼ) > 0 while rⱼ ≠ 0, since D is positive
    double norm_r = norm_b;
    const char* breakdown = nullptr;
    int updates = 0;
    while (norm_r > stop_norm && updates < max_iterations_) {
      // Step length αⱼ = (rⱼ, zⱼ)/(A·pⱼ, pⱼ), after the breakdown test on the curvature pᵀAp.
      q_.noalias() = A * p_;
      const double curvature = p_.dot(q_);
      const double scale = (p_.array().square() * diagonal_.array()).sum();  // pᵀDp > 0
      if (!(curvature > threshold_ * scale)) {
        // 0 ≤ pᵀAp ≤ threshold·pᵀDp: A is (numerically) singular along p, keep x as it is.
        // pᵀAp < 0 or NaN: A is not positive definite, and CG's x means nothing.
        const bool singular = curvature >= 0.0;
        breakdown = singular ? "A is singular along a search direction"
                             : "A is not positive definite (or not finite)";
        result.ok = singular;
        if (!result.ok)
          result.message =
              name_ + ": " + breakdown + " (pᵀAp/pᵀDp = " + Short(curvature / scale) + ")";
        break;
      }
      const double alpha = rz / curvature;

      // xⱼ₊₁ = xⱼ + αⱼ·pⱼ and the recurrence rⱼ₊₁ = rⱼ − αⱼ·A·pⱼ.
      x += alpha * p_;
      r_ -= alpha * q_;
      ++updates;
      norm_r = r_.norm();

      // zⱼ₊₁ = D⁻¹·rⱼ₊₁, βⱼ = (rⱼ₊₁, zⱼ₊₁)/(rⱼ, zⱼ), pⱼ₊₁ = zⱼ₊₁ + βⱼ·pⱼ.
      z_ = inverse_diagonal_.cwiseProduct(r_);
      const double rz_next = r_.dot(z_);
      const double beta = rz_next / rz;
      rz = rz_next;
      p_ *= beta;
      p_ += z_;
    }

    // How the solve ended.
    result.iterations = updates;
    result.residual = norm_r / norm_b;
    result.converged = norm_r <= stop_norm;
    if (result.ok && (!std::isfinite(norm_r) || !x.allFinite())) {
      result.ok = false;
      result.message = name_ + " produced a non-finite solution (the matrix is not finite)";
    } else if (result.ok && !result.converged) {
      result.message = name_ +
                       (breakdown != nullptr
                            ? std::string(" stopped: ") + breakdown
                            : " did not converge in " + std::to_string(updates) + " iterations") +
                       " (‖r‖/‖b‖ = " + Short(result.residual) + ", tolerance " +
                       Short(tolerance_) + ")";
    }
    return result;
  }

 private:
  std::string name_ = "JacobiPreconditionedCGSolver";
  long max_iterations_;
  double tolerance_;
  double threshold_;
  const fluxion::SparseMatrix* matrix_ = nullptr;  // A, owned by the caller (alive until Solve)
  bool factorized_ = false;                        // the last Factorize accepted A
  fluxion::Vector diagonal_, inverse_diagonal_;    // D and D⁻¹
  fluxion::Vector r_, z_, p_, q_;                  // residual, D⁻¹r, direction, A·p
};

}  // namespace

FLUXION_PLUGIN("jacobi_pcg", "1.0.0") {
  registrar.AddLinearSolver<JacobiPreconditionedCGSolver>(JacobiPreconditionedCGSolver::Spec());
}
