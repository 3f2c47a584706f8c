// SOFA's CGLinearSolver: unpreconditioned conjugate gradient with SOFA's stopping rules.
#pragma once

#include <string>

#include "core/continued_linear_solver.h"
#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/parameters.h"
#include "fluxion/types.h"
#include "linear/chunked_sums.h"

namespace fluxion::internal {

/// Conjugate gradient, matrix-free as SOFA's GraphScattered CG: the implicit system hands it an
/// operator (products evaluated force field by force field, FactorizeOperator); an assembled
/// matrix (Factorize) works too. Stops when ‖r‖/‖b‖ ≤ `tolerance`, when |pᵀAp| ≤ `threshold`,
/// when pᵀAp = 0 (not converged), or after `iterations`. As in SOFA, the tolerance and threshold
/// tests are skipped at the first iteration of the first solve only (SOFA warns there and goes on);
/// in later solves they can stop the iterations before x moves. x starts at 0 unless `warmStart`.
/// b = 0 gives x = 0. `LinearSolveResult::iterations` counts the iterations that updated x.
/// `Solve` before `Factorize` throws UsageError. A rebuild after a topological change carries the
/// count of solves over (ContinuedLinearSolver): the exemption is the first solve's of the run
/// only.
class CgLinearSolver final : public LinearSolver, public ContinuedLinearSolver {
 public:
  static ComponentSpec Spec();
  explicit CgLinearSolver(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  bool accepts_operator() const override { return true; }
  LinearSolveResult FactorizeOperator(const LinearOperator& A) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;
  void ContinueFrom(const LinearSolver& previous) override;

 private:
  std::string name_ = "CGLinearSolver";
  long max_iterations_;
  double tolerance_;
  double threshold_;
  bool warm_start_;
  void Multiply(const Vector& x, Vector& y) const;  // y = A·x with the operator or the matrix
  void Resize(Index size);

  const SparseMatrix* matrix_ = nullptr;
  const LinearOperator* operator_ = nullptr;
  long solves_ = 0;  // SOFA's timeStepCount: solves done since construction
  Vector r_, p_, q_;
  ChunkedSums sums_;  // the dot products
};

}  // namespace fluxion::internal
