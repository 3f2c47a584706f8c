// A direct sparse solver (SOFA's SparseLDLSolver / EigenSimplicialLDLT), on SuiteSparse's CHOLMOD.
//
// It also stands for SOFA's other direct solvers of the symmetric systems mass–spring scenes
// assemble (M, K, B and their combinations are symmetric): EigenSimplicialLLT, SparseCholeskySolver
// (CSparseSolvers plugin) and CholeskySolver (dense) factor the same symmetric positive definite
// matrices (LLᵀ and LDLᵀ give the same solution); EigenSparseLU
// (Sofa/Component/LinearSolver/Direct/src/sofa/component/linearsolver/direct/EigenSparseLU.h,
// SOFA's RestShapeSpringsForceField2.scn) and EigenSparseQR (EigenSparseQR.h, Eigen's sparse QR:
// SOFA's FEMBAR_EigenSparseQR.scn) solve general matrices, so on these symmetric ones they give
// the same solution whenever the matrix is positive definite (to rounding). Where Fluxion differs:
// an implicit system matrix that is not positive definite, which SOFA's LDLᵀ and LU would still
// solve, fails here with "not positive definite" (an implicit step's m·M + b·B + k·K loses
// definiteness only when springs are compressed hard, i.e. when the motion is already blowing
// up). Their SOFA fields other than `template` are not accepted.
#pragma once

#include <string>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/parameters.h"
#include "linear/cholmod_cholesky.h"
#include "linear/sparse_ldl.h"

namespace fluxion::internal {

/// Sparse direct solver of the symmetric matrices of implicit steps and consistent masses.
///
/// Positive definite matrices (every `Factorize`, and `FactorizeMass` first) go to CHOLMOD's
/// supernodal Cholesky (CholmodCholesky: AMD or METIS ordering, BLAS kernels): the symbolic
/// analysis is done on the first matrix and reused as long as the pattern is the same, which the
/// system guarantees, so each step only refactorises numerically. A matrix with another pattern
/// (compared entry by entry, not only by size) is analysed again.
///
/// Indefinite matrices, which `FactorizeMass` (and ImplicitSystem::FactorizeIndefinite) must
/// accept as SOFA's LDLᵀ does, fall back to SparseLdl: the up-looking LDLᵀ that accepts any
/// non-zero pivot (CHOLMOD's supernodal factorisation is LLᵀ only, and its simplicial LDLᵀ is the
/// same algorithm as SparseLdl without SparseLdl's guarantee of no allocation).
///
/// Neither Factorize nor Solve allocates once the pattern has been analysed and factorised once.
/// A failed factorisation is reported in the result, and `Solve` then fails too until a
/// Factorize succeeds. `Solve` before any `Factorize` throws UsageError.
class LdlLinearSolver final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit LdlLinearSolver(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  /// Accepts negative pivots, as SOFA's LDLᵀ does (see LinearSolver::FactorizeMass).
  LinearSolveResult FactorizeMass(const SparseMatrix& M) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

  /// How many symbolic analyses were done, by either factorisation (1 for a whole run on one
  /// system with a positive definite matrix).
  int symbolic_analyses() const { return symbolic_analyses_; }
  /// Which factorisation the last successful Factorize or FactorizeMass used.
  enum class Factor { kNone, kCholesky, kIndefiniteLdl };
  Factor factor() const { return factor_; }

 private:
  std::string name_ = "SparseLDLSolver";
  CholmodCholesky cholesky_;
  SparseLdl ldl_;  // analysed only when an indefinite matrix comes
  int symbolic_analyses_ = 0;
  bool ever_factorized_ = false;
  Factor factor_ = Factor::kNone;  // kNone: the last factorisation failed

  // CHOLMOD's LLᵀ; false when A is not positive definite (`why` then says where).
  bool FactorizeCholesky(const SparseMatrix& A, std::string& why);
};

}  // namespace fluxion::internal
