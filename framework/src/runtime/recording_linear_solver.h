// A linear solver that keeps the last system it solved, for SofaPython3's MatrixLinearSystem
// access (Simulation::LastLinearSystem).
#pragma once

#include "fluxion/linear_solver.h"
#include "fluxion/simulation.h"

namespace fluxion::internal {

/// Wraps a node's linear solver when the node holds a MatrixLinearSystem: every call goes to the
/// wrapped solver unchanged (results are bit-identical), and the recorder keeps a copy of the
/// last factorised matrix and of the last right-hand side and solution. SOFA's MatrixLinearSystem
/// (Sofa/Component/LinearSystem/…/MatrixLinearSystem.h) stores the assembled system for the
/// linear solver to read; Fluxion's solvers assemble their own, so the component only asks for
/// this copy. The copies reuse their storage from the second solve on: with the pattern fixed
/// (fluxion/linear_solver.h), recording allocates nothing in the steady step.
///
/// An operator (a matrix-free CG) cannot be copied: the recorder keeps a pointer to it, valid as
/// long as the solver keeps it (ImplicitSystem does, until its next factorisation), and Record
/// materialises it column by column — n products, for inspection, not for every step.
class RecordingLinearSolver final : public LinearSolver {
 public:
  explicit RecordingLinearSolver(LinearSolverHandle inner);

  const std::string& name() const override { return inner_->name(); }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  LinearSolveResult FactorizeMass(const SparseMatrix& M) override;
  bool accepts_operator() const override { return inner_->accepts_operator(); }
  LinearSolveResult FactorizeOperator(const LinearOperator& A) override;
  bool approximate() const override { return inner_->approximate(); }
  void AttachLinked(LinkedLinearSolver linked) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

  /// The last system solved (all empty before the first solve).
  LinearSystemRecord Record() const;

 private:
  // matrix_ = A, reusing matrix_'s arrays when A has the pattern of the last copy.
  void Keep(const SparseMatrix& A);

  LinearSolverHandle inner_;
  SparseMatrix matrix_;
  const LinearOperator* operator_ = nullptr;  // the last factorised operator, else null
  Vector rhs_, solution_;
  long solves_ = 0;
};

}  // namespace fluxion::internal
