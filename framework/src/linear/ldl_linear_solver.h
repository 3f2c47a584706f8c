// A direct sparse LDLᵀ solver (SOFA's SparseLDLSolver / EigenSimplicialLDLT) on Eigen.
#pragma once

#include <Eigen/SparseCholesky>
#include <string>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/parameters.h"

namespace fluxion::internal {

/// Eigen's SimplicialLDLT. The symbolic analysis (ordering, elimination tree) is done on the first
/// matrix and reused as long as the pattern is the same, which the system guarantees: each step
/// only refactorises numerically. A non-positive pivot is reported as a failure.
class FLUXION_API LdlLinearSolver final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit LdlLinearSolver(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

 private:
  std::string name_ = "SparseLDLSolver";
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> ldlt_;
  Index analysed_nonzeros_ = -1;
  Index analysed_rows_ = -1;
};

}  // namespace fluxion::internal
