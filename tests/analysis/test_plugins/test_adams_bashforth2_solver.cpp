// AnalysisTestAdamsBashforth2Solver — a test double with history, so that fluxion-analyze's
// recurrence measurement is tested against a closed form without depending on any shipped plugin.
//
// Two-step Adams–Bashforth on y = (x, v), F(y) = (v, a(x, v)), a = P·M⁻¹·f:
//   first step (start-up):  y_1 = y_0 + h·F(y_0)                          (forward Euler)
//   then:                   y_{n+1} = y_n + h·(3/2·F(y_n) − 1/2·F(y_{n−1}))
// On ẏ = μy each mode has the two roots of z² − (1 + 3/2·μh)·z + 1/2·μh = 0 (principal and
// spurious); Howe's Table 2: k = 2, e_I = 5/12. Built only for the tests, in their own folder.
#include <fluxion/plugin.h>

namespace {

class TestAdamsBashforth2Solver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "AnalysisTestAdamsBashforth2Solver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "test double: AB-2 with a forward-Euler first step",
            .fields = {},
            .aliases = {}};
  }
  explicit TestAdamsBashforth2Solver(const fluxion::Parameters&) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    force_.setZero(system.num_dofs());
    acceleration_.setZero(system.num_dofs());
    previous_velocity_.setZero(system.num_dofs());
    previous_acceleration_.setZero(system.num_dofs());
    started_ = false;
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    system.ComputeForce(s, force_);
    if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;
    if (!started_) {  // forward Euler start-up
      s.x += h * s.v;
      previous_velocity_ = s.v;
      s.v += h * acceleration_;
    } else {
      s.x += h * (1.5 * s.v - 0.5 * previous_velocity_);
      previous_velocity_ = s.v;  // v_n, before it becomes v_{n+1}
      s.v += h * (1.5 * acceleration_ - 0.5 * previous_acceleration_);
    }
    previous_acceleration_ = acceleration_;
    started_ = true;
    return fluxion::StepResult::Ok();
  }

  fluxion::Vector force_, acceleration_, previous_velocity_, previous_acceleration_;
  bool started_ = false;
};

}  // namespace

FLUXION_PLUGIN("analysis_test_ab2", "0.1.0") {
  registrar.AddSolver<TestAdamsBashforth2Solver>(
      TestAdamsBashforth2Solver::Spec(), {.order = 2,
                                          .flags = fluxion::kExplicitMethod | fluxion::kHasHistory,
                                          .force_evaluations = 1,
                                          .linear_solves = 0});
}
