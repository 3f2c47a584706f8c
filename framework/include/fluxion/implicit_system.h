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
///   A = P[ m·M + b·B + k·K ]P,   A·y = r,
///
/// with K = −∂f/∂x and B = −∂f/∂v assembled at a state the solver chooses (the start of the step,
/// a Newton iterate) and P the projection of fixed DOFs (MechanicalSystem::ProjectMatrix). Every
/// implicit method builds this matrix, with its own factors m, b, k; this class does it once for
/// all, so that each solver writes only its factors and its right-hand side.
///
/// It owns K, B and A, all from `system.CreateMatrix()`: they share the system's pattern, so
/// assembling never allocates and a direct linear solver analyses the pattern once. B exists only
/// when the system has damping matrices (`has_damping_matrix()`). K and B are also the solver's
/// Jacobians for its right-hand side (`stiffness()`, `damping()`), so nothing is assembled twice.
///
/// Per step: `AssembleStiffness(state)` (and `AssembleDamping(state)` when b ≠ 0), then
/// `Factorize(m, b, k)`, then `Solve(r, y)` any number of times. A is formed by CombineMatrices,
/// entry by entry (m·M_ij + b·B_ij) + k·K_ij, from factors the caller computes: the rounding is
/// exactly that of a solver calling CombineMatrices itself. Nothing allocates after Initialize
/// except the message of a failed or unconverged solve. Not copyable; one per solver.
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

  /// K = −∂f/∂x at `state`, into `stiffness()`.
  void AssembleStiffness(const State& state);
  /// B = −∂f/∂v at `state`, into `damping()`; nothing when the system has no damping matrix.
  void AssembleDamping(const State& state);

  /// K as last assembled (zero before the first AssembleStiffness).
  const SparseMatrix& stiffness() const;
  /// B as last assembled; an empty 0×0 matrix when the system has no damping matrix.
  const SparseMatrix& damping() const;

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
