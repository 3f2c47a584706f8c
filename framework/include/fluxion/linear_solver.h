// The linear solver a scene provides to its implicit ODE solvers (CGLinearSolver, SparseLDLSolver).
#pragma once

#include <memory>
#include <string>

#include "fluxion/export.h"
#include "fluxion/pinned_handle.h"
#include "fluxion/types.h"

namespace fluxion {

class LinearSolver;
/// A linear solver owned by the framework, possibly created by a plugin (PinnedDeleter).
using LinearSolverHandle = std::unique_ptr<LinearSolver, PinnedDeleter<LinearSolver>>;

/// A linear solver that another one applies, named by a link field the linking solver declares
/// with `FieldSpec::LinkTo(name, ComponentKind::kLinearSolver, …)`: SOFA's PCGLinearSolver
/// `preconditioner="@ldl"`. The scene builder resolves the link (to a linear solver in the linking
/// solver's node or below, not itself, not one that links a solver in turn), creates the linked
/// component from its own attributes and hands it over with LinearSolver::AttachLinked before the
/// implicit system is initialised.
struct LinkedLinearSolver {
  std::string field;          ///< the link field's name, e.g. "preconditioner"
  LinearSolverHandle solver;  ///< created from the linked component's attributes
  /// Refactorise the linked solver on every `refresh_interval`-th factorisation of the linking
  /// one: SOFA's PreconditionedMatrixFreeSystem `assemblingRate` (the linear system component
  /// the linking solver's `linearSystem` names, else the first of its node); 1 without one.
  long refresh_interval = 1;
};

/// How a linear solve ended.
struct LinearSolveResult {
  bool ok = true;         ///< false: factorisation failed (not positive definite) or diverged
  bool converged = true;  ///< iterative solvers: the tolerance was met (a warning otherwise)
  int iterations = 0;     ///< iterative solvers: iterations done
  double residual = 0.0;  ///< iterative solvers: ‖r‖/‖b‖ at exit
  std::string message;    ///< why, when !ok or !converged
};

/// A symmetric matrix given by its products y = A·x only (an implicit step's matrix evaluated
/// force field by force field: ImplicitSystem builds one for solvers that accept it).
class FLUXION_API LinearOperator {
 public:
  virtual ~LinearOperator();
  virtual Index size() const = 0;
  /// y = A·x; y is resized to size() if needed (first call only).
  virtual void Apply(const Vector& x, Vector& y) const = 0;
};

/// Solves A x = b for the symmetric matrices of implicit integrators.
///
/// Usage per step: `Factorize(A)` once the values of A are filled, then any number of `Solve`.
/// `A` must keep the same sparsity pattern from call to call (direct solvers analyse it once)
/// and must stay alive and unchanged between `Factorize` and the last `Solve`.
class FLUXION_API LinearSolver {
 public:
  virtual ~LinearSolver();
  /// The scene component name, e.g. "CGLinearSolver".
  virtual const std::string& name() const = 0;
  virtual LinearSolveResult Factorize(const SparseMatrix& A) = 0;
  /// Factorises a (projected) mass matrix for the solve a = M⁻¹·f. Unlike an implicit system
  /// matrix, a mass matrix is constant and comes straight from the scene: SOFA's consistent
  /// masses can be indefinite (MeshMatrixMass on hexahedra spreads mass over the 12 cube edges
  /// only, ρV/40·(2I + A) with A the cube's adjacency, which has the eigenvalue −1), and SOFA's
  /// LDLᵀ factorises them anyway. A direct solver accepts any non-zero pivot here and says in
  /// `message` (with `ok` true) how many were negative; the default is `Factorize`.
  virtual LinearSolveResult FactorizeMass(const SparseMatrix& M);
  /// True for solvers that need only products A·x (iterative solvers, SOFA's GraphScattered
  /// matrices): the implicit system then hands them a LinearOperator and never assembles A.
  /// Default false: A is assembled and given to Factorize.
  virtual bool accepts_operator() const;
  /// As Factorize, for A given as an operator (called only when accepts_operator()). The
  /// operator must stay alive and unchanged until the last Solve. Default: throws UsageError.
  virtual LinearSolveResult FactorizeOperator(const LinearOperator& A);
  /// True for a solver whose Solve applies an approximation P⁻¹ of A⁻¹ by design, whatever its
  /// settings: SOFA's preconditioners (JacobiPreconditioner, BlockJacobiPreconditioner), which a
  /// scene may also name as an ODE solver's linear solver. Such a solver is exact only where P = A
  /// (a diagonal A for Jacobi); an iterative solver that converges to a tolerance is not
  /// approximate. Default false: the linear-solver conformance suite then holds the solver to
  /// solving every SPD system it is given.
  virtual bool approximate() const;
  /// Receives the linear solver a `LinkTo(…, kLinearSolver)` field of this solver names (see
  /// LinkedLinearSolver); called at most once per such field, before the first Factorize, and
  /// may change accepts_operator(). Default: throws UsageError — a solver that declares such a
  /// field must take what it links.
  virtual void AttachLinked(LinkedLinearSolver linked);
  /// x = A⁻¹ b for the last factorised A. `x` is resized if needed (first call only).
  virtual LinearSolveResult Solve(const Vector& b, Vector& x) = 0;
};

}  // namespace fluxion
