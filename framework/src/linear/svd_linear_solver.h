// SOFA's SVDLinearSolver: a dense singular value decomposition, small singular values dropped.
#pragma once

#include <Eigen/SVD>
#include <string>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/parameters.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// SOFA's SVDLinearSolver (Sofa/Component/LinearSolver/Direct/src/sofa/component/linearsolver/
/// direct/SVDLinearSolver.inl): A = U·Σ·Vᵀ by Eigen's JacobiSVD of A made dense (thin U and V),
/// then x = V·Σ⁺·Uᵀ·b with Σ⁺ᵢ = 1/σᵢ for σᵢ > `minSingularValue` and 0 otherwise — the
/// minimum-norm least-squares solution of the system cut at that threshold, which keeps an
/// ill-conditioned or singular system finite. Eigen's JacobiSVD is the library SOFA calls, with
/// the same options. `conditionNumber` (σ_max/σ_min of the last factorisation, SOFA's output) is
/// kept (condition_number()), not logged: a log line per step would allocate.
///
/// Cost: O(n³) per factorisation on a dense n × n copy, as SOFA's (meant for small systems and
/// for studying conditioning). Where Fluxion differs: SOFA decomposes A at every solve, Fluxion
/// once per Factorize (the same A between them, so the same result). The dense buffers and
/// JacobiSVD's work space are kept from one factorisation to the next (no allocation once sized).
class SvdLinearSolver final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit SvdLinearSolver(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;
  /// σ_max/σ_min of the last factorised matrix (SOFA's `conditionNumber` output).
  double condition_number() const { return condition_number_; }

 private:
  std::string name_ = "SVDLinearSolver";
  double min_singular_value_;
  Eigen::MatrixXd dense_;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_;
  Vector projected_;  // Σ⁺·Uᵀ·b
  double condition_number_ = 0.0;
  bool factorized_ = false;
};

}  // namespace fluxion::internal
