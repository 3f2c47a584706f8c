// The linear system of an implicit step, A = m·M + b·B + k·K, shared by every implicit solver.
#pragma once

#include <memory>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/mechanical_system.h"
#include "fluxion/solver.h"
#include "fluxion/state.h"
#include "fluxion/types.h"

namespace fluxion {

/// The system matrix of an implicit step (or Newton iteration) and its solve:
///
///   A = P[ m·M + b·B + k·K ]P + (I − P),   A·y = r,
///
/// with K = −∂f/∂x and B = −∂f/∂v at a state the solver chooses (the start of the step, a Newton
/// iterate) and P the projection of fixed DOFs (MechanicalSystem::ProjectMatrix). Every implicit
/// method builds this matrix, with its own factors m, b, k; this class does it once for all, so
/// that each solver writes only its factors and its right-hand side.
///
/// Two forms, chosen at Initialize from the linear solver:
///  - **matrix-free** when the linear solver accepts an operator (CGLinearSolver, as SOFA's
///    GraphScattered CG): K and B are linearised force field by force field
///    (MechanicalSystem::CreateTangentOperator) and A is applied as products; no sparse pattern
///    is built;
///  - **assembled** otherwise (direct solvers): K, B and A come from `system.CreateMatrix()` and
///    share the system's pattern, so assembling never allocates and the solver analyses the
///    pattern once; A is formed by CombineMatrices, entry by entry (m·M_ij + b·B_ij) + k·K_ij.
///
/// Solvers form their right-hand sides with `MultiplyMass`, `MultiplyStiffness` and
/// `MultiplyDamping`, which use whichever form is there, so nothing is evaluated twice.
///
/// Per step: `AssembleStiffness(state)` (and `AssembleDamping(state)` when b ≠ 0), then
/// `Factorize(m, b, k)`, then `Solve(r, y)` any number of times. Nothing allocates after
/// Initialize except the message of a failed or unconverged solve (and, in the matrix-free form,
/// the first call of stiffness() or damping()). Not copyable; one per solver.
class FLUXION_API ImplicitSystem {
 public:
  ImplicitSystem();
  ~ImplicitSystem();
  ImplicitSystem(const ImplicitSystem&) = delete;
  ImplicitSystem& operator=(const ImplicitSystem&) = delete;

  /// Binds to `system` and `linear_solver` (the solver's `linear_solver()`, which may be null:
  /// Factorize then fails) and creates K, B and A. Call from DoInitialize; both must outlive
  /// every later call. Calling it again rebinds and recreates the matrices.
  void Initialize(const MechanicalSystem& system, LinearSolver* linear_solver);
  /// Follows a change of the bound system made in place (Solver::FollowSystemChange): in the
  /// matrix-free form the tangent operator is kept when it follows such changes
  /// (TangentOperator::FollowsSystemChanges) and its vectors shrink in place; otherwise, and in
  /// the assembled form when DOFs were removed, the matrices are created again as by Initialize.
  void FollowSystemChange(const SystemChange& change);

  /// K = −∂f/∂x at `state`, into `stiffness()`.
  void AssembleStiffness(const State& state);
  /// B = −∂f/∂v at `state`, into `damping()`; nothing when the system has no damping matrix.
  void AssembleDamping(const State& state);

  /// K as last assembled (zero before the first AssembleStiffness). In the matrix-free form it is
  /// assembled on demand (the first call allocates it): prefer MultiplyStiffness.
  const SparseMatrix& stiffness() const;
  /// B as last assembled; an empty 0×0 matrix when the system has no damping matrix.
  const SparseMatrix& damping() const;

  /// y = M·x (y must have num_dofs() entries).
  void MultiplyMass(const Vector& x, Vector& y) const;
  /// y = K·x with K as last assembled.
  void MultiplyStiffness(const Vector& x, Vector& y) const;
  /// y = B·x with B as last assembled (0 without damping matrices).
  void MultiplyDamping(const Vector& x, Vector& y) const;

  /// A = P[m·M + b·B + k·K]P from the last assembled K and B, factorised with the linear solver.
  /// B enters only when b ≠ 0 and the system has a damping matrix; with b ≠ 0 it must have been
  /// assembled at this step's state. Returns Ok, or Failure with the linear solver's message
  /// (e.g. "not positive definite") when the factorisation fails or there is no linear solver.
  StepResult Factorize(double m, double b, double k);
  /// As Factorize, for a Newton Jacobian that may be indefinite away from a stable equilibrium
  /// (compressed springs during a static or BDF iteration): a direct solver accepts any non-zero
  /// pivot, as SOFA's LDLᵀ solvers do (the rule of LinearSolver::FactorizeMass); a singular
  /// matrix still fails. An iterative solver behaves as in Factorize.
  StepResult FactorizeIndefinite(double m, double b, double k);

  /// y = A⁻¹·r for the last factorised A. `y` is the linear solver's starting guess if it uses
  /// one (CG), and must have num_dofs() entries. Returns Ok; NotConverged with the linear
  /// solver's message when an iterative solver missed its tolerance (y is its last iterate, a
  /// usable approximation); Failure when the solve failed (y is not to be used).
  StepResult Solve(const Vector& rhs, Vector& solution);

 private:
  StepResult FactorizeAs(double m, double b, double k, bool indefinite);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fluxion
