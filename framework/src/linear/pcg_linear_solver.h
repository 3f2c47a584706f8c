// SOFA's PCGLinearSolver: preconditioned conjugate gradient, the preconditioner being another
// linear solver of the scene (`preconditioner="@name"`).
#pragma once

#include <memory>
#include <string>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/parameters.h"
#include "fluxion/simulation.h"
#include "fluxion/types.h"
#include "linear/chunked_sums.h"

namespace fluxion::internal {

/// Preconditioned conjugate gradient, step for step as SOFA's PCGLinearSolver::solve
/// (Sofa/Component/LinearSolver/Iterative/src/sofa/component/linearsolver/iterative/
/// PCGLinearSolver.inl), with z = P⁻¹·r applied by the linked preconditioner's Solve:
///
///     r = b − A·x,  w = P⁻¹·r,  δ = rᵀw                          (x: the vector given, see below)
///     while iter ≤ iterations and |δ| > tolerance·bᵀb:
///         s = A·w,  α = δ / wᵀs,  x += α·w,  r −= α·s
///         s = P⁻¹·r,  δ_old = δ,  δ = rᵀs,  w = s + (δ/δ_old)·w,  iter += 1
///
/// Stopping rules (SOFA's, both): `iterations` matrix products at most, or rᵀP⁻¹r ≤ tolerance·bᵀb
/// — a *squared*, preconditioned residual ratio, unlike CGLinearSolver's ‖r‖/‖b‖ ≤ tolerance.
/// `converged` is false when the iterations ran out with |δ| > tolerance·bᵀb. SOFA has no guard on
/// wᵀs; Fluxion stops (not converged) when wᵀs = 0 instead of dividing by it.
///
/// Deliberate difference, |δ| where SOFA tests δ: an LDLᵀ preconditioner of an indefinite matrix
/// (a Newton Jacobian past a buckling point, factorised through FactorizeMass as SOFA's LDLᵀ
/// does) makes P⁻¹ indefinite and δ = rᵀP⁻¹r can be negative. SOFA's `δ > tolerance·bᵀb` then
/// ends the solve before the first iteration and returns x unchanged, silently; with |δ| the
/// exact preconditioner still gives A⁻¹·b in one iteration (α = δ/wᵀAw = 1 for w = A⁻¹r). Both
/// rules agree whenever P⁻¹ is positive definite, the case PCG is made for. Measured on SOFA's
/// BDFOdeSolver.scn with springs in place of its FEM: SOFA's rule returned the previous solution
/// in 17 of 344 solves (all with δ < 0, once the Newton iterations had stopped converging, t >
/// 0.84 s); with |δ| all 346 take one iteration.
///
/// Start: SOFA's PCG starts from the solution vector the ODE solver hands in (its previous
/// solution) and so does this one: `x` as given, or 0 when `x` is resized or not finite.
/// b = 0 gives x = 0 at once (SOFA would iterate from x towards 0).
///
/// Without a preconditioner (none linked, or use_precond="false") P = I and the iterates are
/// CGLinearSolver's from the same start (same recurrences: α = rᵀr/pᵀAp, p = r + β·p); they stop
/// at different points (squared vs plain ratio; CG's `threshold` on |pᵀAp| and its first-solve
/// exemption are not in SOFA's PCG). It is then matrix-free, as SOFA's GraphScattered PCG
/// (accepts_operator). With a preconditioner it takes the assembled matrix, which the
/// preconditioners here need (LDLᵀ, diagonal blocks).
///
/// Preconditioner updates: SOFA's PreconditionedMatrixFreeSystem rebuilds the preconditioner's
/// matrix on every `assemblingRate`-th system assembly (default 1: every step or Newton
/// iteration), and the preconditioner refactorises on its next solve. Here each Factorize counts
/// as an assembly: the preconditioner's Factorize runs on the first one and then every
/// `assemblingRate`-th (SetAssemblingRate); in between it keeps its older factorisation, which
/// still preconditions (more iterations, same solution to the tolerance).
///
/// Nothing allocates after the first Factorize and Solve (the preconditioner's own rule applies to
/// it). `Solve` before `Factorize` throws UsageError.
class PcgLinearSolver final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  /// SOFA's PreconditionedMatrixFreeSystem (PreconditionedMatrixFreeSystem.inl): the matrix-free
  /// system of a PCG whose `assemblingRate` (alias update_step) is the preconditioner's update
  /// rate; never built, read by the scene builder as the
  /// refresh interval of what the PCG links (LinkedLinearSolver).
  static ComponentSpec PreconditionedSystemSpec();
  explicit PcgLinearSolver(const Parameters& parameters);
  ~PcgLinearSolver() override;

  /// The linear solver that applies P⁻¹ (owned, possibly a plugin's). Null: plain CG. Call before
  /// the implicit system is initialised (accepts_operator depends on it). The scene builder calls
  /// it through AttachLinked with the solver the `preconditioner` link names.
  void SetPreconditioner(LinearSolverHandle preconditioner);
  LinearSolver* preconditioner() const { return preconditioner_.get(); }
  /// SOFA's PreconditionedMatrixFreeSystem::assemblingRate (≥ 1).
  void SetAssemblingRate(long rate);
  /// Whether P⁻¹ is applied: a preconditioner is set and use_precond is true.
  bool preconditioned() const { return preconditioner_ != nullptr && use_preconditioner_; }
  /// How many times the preconditioner was factorised.
  long preconditioner_updates() const { return preconditioner_updates_; }

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  LinearSolveResult FactorizeMass(const SparseMatrix& M) override;
  /// The `preconditioner` link's solver, refactorised every `refresh_interval`-th assembly.
  void AttachLinked(LinkedLinearSolver linked) override;
  bool accepts_operator() const override { return !preconditioned(); }
  LinearSolveResult FactorizeOperator(const LinearOperator& A) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

 private:
  std::string name_ = "PCGLinearSolver";
  long max_iterations_;
  double tolerance_;
  bool use_preconditioner_;
  LinearSolverHandle preconditioner_;  // pins a plugin's library while it lives
  long assembling_rate_ = 1;
  long assembly_counter_ = 1;  // SOFA's m_assemblyCounter: starts at the rate (build at once)
  long preconditioner_updates_ = 0;

  const SparseMatrix* matrix_ = nullptr;
  const LinearOperator* operator_ = nullptr;
  Vector r_, w_, s_;
  ChunkedSums sums_;  // the dot products

  LinearSolveResult FactorizeMatrix(const SparseMatrix& A, bool mass);
  void Multiply(const Vector& x, Vector& y) const;             // y = A·x
  LinearSolveResult Precondition(const Vector& r, Vector& z);  // z = P⁻¹·r (or r)
  void Resize(Index size);
};

}  // namespace fluxion::internal
