// A direct sparse LDLᵀ solver (SOFA's SparseLDLSolver / EigenSimplicialLDLT).
//
// It also stands for SOFA's other direct solvers of the symmetric systems mass–spring scenes
// assemble (M, K, B and their combinations are symmetric): EigenSimplicialLLT, SparseCholeskySolver
// (CSparseSolvers plugin) and CholeskySolver (dense) factor the same symmetric positive definite
// matrices (LLᵀ and LDLᵀ give the same solution); EigenSparseLU
// (Sofa/Component/LinearSolver/Direct/src/sofa/component/linearsolver/direct/EigenSparseLU.h,
// SOFA's RestShapeSpringsForceField2.scn) solves general matrices, so on these symmetric ones it
// gives the same solution whenever the matrix is positive definite. Where Fluxion differs: an
// indefinite matrix, which SOFA's LU would still solve, fails here with "not positive definite".
// Their SOFA fields other than `template` are not accepted.
#pragma once

#include <string>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/parameters.h"
#include "linear/sparse_ldl.h"

namespace fluxion::internal {

/// Sparse LDLᵀ with AMD ordering (SparseLdl: bit-identical to Eigen's SimplicialLDLT, without its
/// per-step allocations). The symbolic analysis (ordering, elimination tree, L's pattern) is done
/// on the first matrix and reused as long as the pattern is the same, which the system
/// guarantees: each step only refactorises numerically, and neither Factorize nor Solve allocates.
/// A matrix with another pattern (compared entry by entry, not only by size) is analysed again. A
/// non-positive pivot is reported as a failure, and `Solve` then fails too until a Factorize
/// succeeds. `Solve` before any `Factorize` throws UsageError.
class LdlLinearSolver final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit LdlLinearSolver(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  /// Accepts negative pivots, as SOFA's LDLᵀ does (see LinearSolver::FactorizeMass).
  LinearSolveResult FactorizeMass(const SparseMatrix& M) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

  /// How many symbolic analyses were done (1 for a whole run on one system).
  int symbolic_analyses() const { return symbolic_analyses_; }

 private:
  std::string name_ = "SparseLDLSolver";
  SparseLdl ldl_;
  int symbolic_analyses_ = 0;
  bool factorized_ = false;  // the last Factorize succeeded

  LinearSolveResult FactorizeWith(const SparseMatrix& A, SparseLdl::Pivots accepted);
};

}  // namespace fluxion::internal
