// SOFA's MinResLinearSolver: MINRES (Paige and Saunders) for symmetric, possibly indefinite,
// systems.
#pragma once

#include <string>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/parameters.h"
#include "fluxion/types.h"
#include "linear/chunked_sums.h"

namespace fluxion::internal {

/// SOFA's MinResLinearSolver (Sofa/Component/LinearSolver/Iterative/src/sofa/component/
/// linearsolver/iterative/MinResLinearSolver.inl, itself from Villa, Saunders and Akle's tminres):
/// unpreconditioned MINRES — the Lanczos tridiagonalisation of A from r₀ = b − A·x₀, QR-factorised
/// by Givens rotations as it grows, x updated along the directions w so that ‖b − A·x‖ is the
/// smallest over the Krylov space. Paige and Saunders, "Solution of sparse indefinite systems of
/// linear equations", SIAM J. Numer. Anal. 12 (1975); the recurrences, step for step and in SOFA's
/// order of operations, are in the .cpp.
///
/// Stopping rules, SOFA's (all tested after each iteration): `iterations` iterations; test1 =
/// φ̄/(‖A‖·‖x‖) ≤ `tolerance` (‖r‖ relative to ‖A‖‖x‖, with ‖A‖ estimated by the Frobenius norm
/// of the tridiagonal matrix so far); test2 = ‖A·r‖/(‖A‖·‖r‖) ≤ `tolerance`; test1 or test2 ≤ 0;
/// an estimated condition number ≥ 0.1/ε; ‖A‖·ε·‖x‖ ≥ β₁ = ‖r₀‖; and β₂/β₁ < 10ε after the
/// first iteration (b in an invariant subspace: solved). `converged` is true when one of the
/// tolerance tests (or the invariant-subspace one, or b = A·x₀) ended the solve.
///
/// Start: as SOFA's (the ODE solver's dx, its previous solution), `x` as given — 0 when it is
/// resized or not finite. b − A·x₀ = 0 returns x₀. Matrix-free (accepts_operator), as SOFA's
/// GraphScattered template. Dot products over fixed chunks (ChunkedSums): the same bits for any
/// thread count (SOFA's serial sums round differently). Nothing allocates after the first
/// Factorize and Solve.
class MinResLinearSolver final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit MinResLinearSolver(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  bool accepts_operator() const override { return true; }
  LinearSolveResult FactorizeOperator(const LinearOperator& A) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

 private:
  std::string name_ = "MinResLinearSolver";
  long max_iterations_;
  double tolerance_;
  void Multiply(const Vector& x, Vector& y) const;  // y = A·x
  void Resize(Index size);

  const SparseMatrix* matrix_ = nullptr;
  const LinearOperator* operator_ = nullptr;
  Vector r1_, r2_, y_, w_, w2_, v_;
  ChunkedSums sums_;
};

}  // namespace fluxion::internal
