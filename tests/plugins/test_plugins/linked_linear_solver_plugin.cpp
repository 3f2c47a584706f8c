// A plugin linear solver that takes a preconditioner through a typed link, as the built-in
// PCGLinearSolver does (FieldSpec::LinkTo + LinearSolver::AttachLinked), for
// tests/plugins/linked_linear_solver_test.cpp:
//  - TestDelegatingSolver applies the linear solver its `preconditioner` link names as A⁻¹ itself
//    (x = P⁻¹·b): with an exact P (SparseLDLSolver) every solve is that solver's, so a scene gives
//    the direct solver's trajectory bit for bit. It refactorises P every `refresh_interval`-th
//    Factorize, logs the interval once at info level, and refuses to solve without a link.
#include <fluxion/errors.h>
#include <fluxion/linear_solver.h>
#include <fluxion/log.h>
#include <fluxion/plugin.h>

#include <string>
#include <utility>

namespace {

using fluxion::ComponentKind;
using fluxion::ComponentSpec;
using fluxion::FieldSpec;
using fluxion::LinearSolveResult;
using fluxion::LinkedLinearSolver;
using fluxion::SparseMatrix;
using fluxion::Vector;

class DelegatingSolver final : public fluxion::LinearSolver {
 public:
  static ComponentSpec Spec() {
    return {.name = "TestDelegatingSolver",
            .kind = ComponentKind::kLinearSolver,
            .summary = "test plugin: solves with the linear solver its preconditioner link names",
            .fields = {FieldSpec::LinkTo("preconditioner", ComponentKind::kLinearSolver,
                                         "the linear solver applied as A⁻¹")},
            .aliases = {}};
  }
  explicit DelegatingSolver(const fluxion::Parameters&) {}

  const std::string& name() const override { return name_; }
  void AttachLinked(LinkedLinearSolver linked) override {
    refresh_interval_ = linked.refresh_interval;
    counter_ = refresh_interval_;  // the first Factorize refactorises
    linked_ = std::move(linked.solver);
    fluxion::LogInfo(name_ + ": preconditioner " + linked_->name() + " refactorised every " +
                     std::to_string(refresh_interval_) + " factorisation(s)");
  }
  LinearSolveResult Factorize(const SparseMatrix& A) override {
    if (!linked_) return {.ok = false, .message = name_ + " has no preconditioner link"};
    if (++counter_ < refresh_interval_) return {};
    counter_ = 0;
    return linked_->Factorize(A);
  }
  LinearSolveResult Solve(const Vector& b, Vector& x) override {
    if (!linked_) throw fluxion::UsageError(name_ + ": Solve without a preconditioner link");
    return linked_->Solve(b, x);
  }

 private:
  std::string name_ = "TestDelegatingSolver";
  fluxion::LinearSolverHandle linked_;
  long refresh_interval_ = 1;
  long counter_ = 1;
};

}  // namespace

FLUXION_PLUGIN("test_linked_linear_solver", "1.0") {
  registrar.AddLinearSolver<DelegatingSolver>(DelegatingSolver::Spec());
}
