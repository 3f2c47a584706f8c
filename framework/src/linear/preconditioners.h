// SOFA's preconditioners, as linear solvers a PCGLinearSolver links to (`preconditioner="@name"`):
// JacobiPreconditioner, BlockJacobiPreconditioner, SSORPreconditioner and AsyncSparseLDLSolver.
//
// Each is a LinearSolver: `Factorize(A)` builds the approximate inverse P⁻¹ of the assembled
// matrix A, `Solve(r, z)` applies it, z = P⁻¹·r. PCGLinearSolver calls Factorize when SOFA would
// rebuild the preconditioner's matrix (linear/pcg_linear_solver.h) and Solve once per iteration.
// Used directly as an ODE solver's linear solver (SOFA allows it), Jacobi and block Jacobi give
// the approximation P⁻¹·b, not A⁻¹·b, as in SOFA.
#pragma once

#include <string>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/parameters.h"
#include "fluxion/types.h"
#include "linear/ldl_linear_solver.h"

namespace fluxion::internal {

/// SOFA's JacobiPreconditioner (Sofa/Component/LinearSolver/Preconditioner/src/sofa/component/
/// linearsolver/preconditioner/JacobiPreconditioner.inl, template DiagonalMatrix): P = diag(A),
/// z_i = r_i / A_ii. A zero or non-finite diagonal entry fails the factorisation (SOFA divides by
/// it and goes on with infinities); negative entries are accepted, as in SOFA. Allocates only on
/// the first Factorize.
class JacobiPreconditioner final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit JacobiPreconditioner(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  bool approximate() const override { return true; }
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

 private:
  std::string name_ = "JacobiPreconditioner";
  Vector inverse_diagonal_;
  bool factorized_ = false;
};

/// SOFA's BlockJacobiPreconditioner (BlockJacobiPreconditioner.inl, template
/// BlockDiagonalMatrix<3>): P is A's 3×3 diagonal blocks (rows 3k..3k+2; a last block of 1 or 2
/// rows when the size is not a multiple of 3), each inverted by its cofactors as SOFA's Mat3x3
/// inversion does; z = P⁻¹·r block by block. A singular or non-finite block fails the
/// factorisation. Allocates only on the first Factorize.
class BlockJacobiPreconditioner final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit BlockJacobiPreconditioner(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  bool approximate() const override { return true; }
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

 private:
  std::string name_ = "BlockJacobiPreconditioner";
  Index size_ = 0;
  std::vector<double> inverse_blocks_;  // 9 doubles per block, row-major
  bool factorized_ = false;
};

/// SOFA's SSORPreconditioner (Sofa/Component/LinearSolver/Preconditioner/src/sofa/component/
/// linearsolver/preconditioner/SSORPreconditioner.{inl,cpp}): one symmetric successive
/// over-relaxation sweep with ω = `omega`, A = L + D + U. SOFA's sweeps, read off its code: a
/// backward one solving (D/ω + U)·t = r, then a forward one solving (I + ω·D⁻¹·L)·z = t, i.e.
///   z = s·(D/ω + L)⁻¹·(D/ω)·(D/ω + U)⁻¹·r,
/// with s = 2 − ω for the default template (CompressedRowSparseMatrixd) and s = 1 for
/// CompressedRowSparseMatrixMat3x3d, whose specialisation omits the final scaling (they agree at
/// SOFA's default ω = 1). Each row's sum runs in SOFA's order for its template: the scalar one
/// over the row's entries by increasing column; the 3×3 one in its backward sweep over the blocks
/// right of the diagonal block first, then the diagonal block's own entries (same value, other
/// rounding). A is symmetric (the LinearSolver contract), so row j is read as column j of the
/// column-major matrix. Factorize copies A's values (PCG may refresh the preconditioner less
/// often than A changes: SOFA's keeps its own matrix) and 1/A_jj; a zero or non-finite diagonal
/// entry fails it (SOFA divides by it). Allocates only when A's size or pattern grows.
class SsorPreconditioner final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit SsorPreconditioner(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  bool approximate() const override { return true; }
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

 private:
  std::string name_ = "SSORPreconditioner";
  double omega_;
  bool blocks_;  // template CompressedRowSparseMatrixMat3x3d
  SparseMatrix matrix_;
  Vector inverse_diagonal_;
  bool factorized_ = false;
};

/// SOFA's AsyncSparseLDLSolver (Sofa/Component/LinearSolver/Direct/src/sofa/component/
/// linearsolver/direct/AsyncSparseLDLSolver.inl), factorised **synchronously**: SparseLDLSolver
/// (CHOLMOD, linear/ldl_linear_solver.h) under SOFA's name.
///
/// Deliberate difference: SOFA factorises in a background thread when its matrix is invalidated
/// and solves, meanwhile, with whichever factorisation finished last (at least one step old after
/// the first solve, which waits): its result depends on how long the factorisation takes, a
/// nondeterministic schedule. Fluxion's results must be deterministic, so every Factorize, called
/// where SOFA would *request* one, is completed before the next Solve. Consequences: used as the
/// ODE solver's linear solver it solves exactly (SOFA's is approximate, with an old factor); as a
/// PCGLinearSolver's preconditioner refreshed every step (assemblingRate 1, SOFA's default) it is
/// the exact inverse, and PCG converges in one iteration where SOFA's needs several.
class AsyncSparseLdlSolver final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit AsyncSparseLdlSolver(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  LinearSolveResult FactorizeMass(const SparseMatrix& M) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;
  /// Factorisations done (each one synchronous).
  int factorizations() const { return factorizations_; }

 private:
  std::string name_ = "AsyncSparseLDLSolver";
  LdlLinearSolver ldl_;
  int factorizations_ = 0;
};

}  // namespace fluxion::internal
