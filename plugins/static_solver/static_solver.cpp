// StaticSolver — SOFA's static solver: each step moves the positions towards the equilibrium
// f(x) = 0 by Newton–Raphson iterations (fluxion/newton_raphson.h); velocities are not touched.
//
// Source: SOFA Sofa/Component/ODESolver/Backward/src/sofa/component/odesolver/backward/
// StaticSolver.{h,cpp} (v26.06), its StaticResidualFunction. With P the projection of fixed DOFs,
// K = −∂f/∂x at the current guess (SOFA assembles its +∂f/∂x with factor −1) and v, t those of
// the step's start:
//
//   r(x) = P·f(x, v, t_n)                         (the residual: the projected force)
//   P·K(x)·P·Δ = r(x),   x ← x + α·Δ              (the Newton correction, line search on α)
//
// The stopping rules, their order and their defaults are SOFA's NewtonRaphsonSolver's: the
// NewtonRaphsonSolver of the solver's node or below (or the one `newtonSolver` names), else its
// defaults — one Newton iteration per step, so that a nonlinear scene creeps to its equilibrium
// over several steps, exactly as in SOFA. ‖Δ‖ is the estimate difference, ‖x‖ the estimate.
//
// No order in time (kStaticMethod, order 0): h only advances time (time-dependent loads). A
// linear system (springs at rest length 0 in 1-D, constant loads) reaches its equilibrium in one
// iteration; a nonlinear one converges quadratically near a regular equilibrium. K must be
// invertible on the free DOFs: a mechanism or a free body fails the step. Away from a stable
// equilibrium K can be indefinite (compressed springs): a direct solver factorises it anyway, as
// SOFA's LDLᵀ does (ImplicitSystem::FactorizeIndefinite).
//
// Where Fluxion differs from SOFA: SOFA warns and creates a NewtonRaphsonSolver with its
// defaults when none is found; Fluxion uses the defaults silently (no component is added).
// SOFA's attributes removed in v25.12 (newton_iterations, …) are not accepted: they are errors.
#include <fluxion/implicit_system.h>
#include <fluxion/newton_raphson.h>
#include <fluxion/plugin.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using fluxion::FieldSpec;
using fluxion::Vector;

class StaticSolver final : public fluxion::Solver, private fluxion::NonlinearFunction {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "StaticSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary =
                "Static equilibrium by Newton–Raphson iterations on f(x) = 0 (velocities "
                "untouched)",
            .fields = {FieldSpec::Link("newtonSolver",
                                       "the NewtonRaphsonSolver whose fields drive the iterations "
                                       "(default: the first in the solver's node or below; none: "
                                       "SOFA's defaults)")},
            .aliases = {}};
  }

  explicit StaticSolver(const fluxion::Parameters& p)
      : newton_(fluxion::NewtonRaphsonOptions::From(p)) {}

  // The last accepted step's Newton iterations and final residual norm (SOFA's timer values
  // "nb_iterations" and "residual"): scene-runner --solver-outputs.
  std::vector<std::string> OutputNames() const override { return fluxion::NewtonOutputs::Names(); }
  void ReadOutputs(double* values) const override { outputs_.Read(values); }

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    system_ = &system;
    implicit_.Initialize(system, linear_solver());
    force_.setZero(system.num_dofs());
    correction_.setZero(system.num_dofs());
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    implicit_.FollowSystemChange(change);
    for (fluxion::Vector* v : {&force_, &correction_}) fluxion::FollowRemovedBlocks(change, *v);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& /*system*/, double /*h*/,
                             fluxion::State& s) override {
    iterate_ = &s;  // the iterations move s.x in place
    return outputs_.Record(fluxion::SolveNewtonRaphson(*this, newton_), *this);
  }

  // --- the nonlinear function r(x) = P·f(x) of SOFA's StaticResidualFunction ---

  fluxion::StepResult Evaluate() override {
    system_->ComputeForce(*iterate_, force_);
    system_->ProjectResponse(force_);
    return fluxion::StepResult::Ok();
  }

  double SquaredResidualNorm() const override { return force_.squaredNorm(); }

  fluxion::StepResult ComputeCorrection() override {
    implicit_.AssembleStiffness(*iterate_);
    if (auto r = implicit_.FactorizeIndefinite(0.0, 0.0, 1.0); !r.accepted()) return r;
    return implicit_.Solve(force_, correction_);  // NotConverged (CG) keeps its iterate
  }

  // Only an accepted step's iterations are reported.
  void DoCommit(const fluxion::MechanicalSystem& /*system*/, double /*h*/,
                const fluxion::State& /*state*/) override {
    outputs_.Commit();
  }

  void Update(double step) override { iterate_->x += step * correction_; }
  double SquaredCorrectionNorm() const override { return correction_.squaredNorm(); }
  double SquaredUnknownNorm() const override { return iterate_->x.squaredNorm(); }

  fluxion::NewtonRaphsonOptions newton_;
  fluxion::NewtonOutputs outputs_;
  fluxion::ImplicitSystem implicit_;
  const fluxion::MechanicalSystem* system_ = nullptr;
  fluxion::State* iterate_ = nullptr;
  Vector force_, correction_;
};

}  // namespace

FLUXION_PLUGIN("static_solver", "0.1.0") {
  registrar.AddSolver<StaticSolver>(
      StaticSolver::Spec(),
      {.order = 0,
       .flags = fluxion::kImplicitMethod | fluxion::kNeedsLinearSolver | fluxion::kStaticMethod,
       .force_evaluations = 1,
       .linear_solves = 1});
}
