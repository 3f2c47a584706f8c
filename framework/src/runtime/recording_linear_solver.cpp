#include "runtime/recording_linear_solver.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace fluxion::internal {

RecordingLinearSolver::RecordingLinearSolver(LinearSolverHandle inner) : inner_(std::move(inner)) {}

void RecordingLinearSolver::Keep(const SparseMatrix& A) {
  operator_ = nullptr;
  const bool same_pattern =
      matrix_.rows() == A.rows() && matrix_.cols() == A.cols() && A.isCompressed() &&
      matrix_.isCompressed() && matrix_.nonZeros() == A.nonZeros() &&
      std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1,
                 matrix_.outerIndexPtr()) &&
      std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), matrix_.innerIndexPtr());
  if (same_pattern)
    std::copy(A.valuePtr(), A.valuePtr() + A.nonZeros(), matrix_.valuePtr());
  else
    matrix_ = A;
}

LinearSolveResult RecordingLinearSolver::Factorize(const SparseMatrix& A) {
  Keep(A);
  return inner_->Factorize(A);
}

LinearSolveResult RecordingLinearSolver::FactorizeMass(const SparseMatrix& M) {
  Keep(M);
  return inner_->FactorizeMass(M);
}

LinearSolveResult RecordingLinearSolver::FactorizeOperator(const LinearOperator& A) {
  operator_ = &A;
  return inner_->FactorizeOperator(A);
}

void RecordingLinearSolver::AttachLinked(LinkedLinearSolver linked) {
  inner_->AttachLinked(std::move(linked));
}

LinearSolveResult RecordingLinearSolver::Solve(const Vector& b, Vector& x) {
  LinearSolveResult result = inner_->Solve(b, x);
  rhs_ = b;  // same size every step: Eigen keeps the storage
  solution_ = x;
  ++solves_;
  return result;
}

LinearSystemRecord RecordingLinearSolver::Record() const {
  LinearSystemRecord record;
  record.solves = solves_;
  if (solves_ == 0) return record;
  record.rhs = rhs_;
  record.solution = solution_;
  if (operator_ == nullptr) {
    record.matrix = matrix_;
    return record;
  }
  // Column j of A is A·e_j; only the non-zeros are kept.
  const Index n = operator_->size();
  std::vector<Eigen::Triplet<double, int>> entries;
  Vector unit = Vector::Zero(n), column(n);
  for (Index j = 0; j < n; ++j) {
    unit[j] = 1.0;
    operator_->Apply(unit, column);
    unit[j] = 0.0;
    for (Index i = 0; i < n; ++i)
      if (column[i] != 0.0)
        entries.emplace_back(static_cast<int>(i), static_cast<int>(j), column[i]);
  }
  record.matrix.resize(static_cast<int>(n), static_cast<int>(n));
  record.matrix.setFromTriplets(entries.begin(), entries.end());
  return record;
}

}  // namespace fluxion::internal
