// A minimal explicit solver shared by the test plugins (semi-implicit Euler, as EulerExplicit's
// default): v ← v + h·P·M⁻¹·f(x, v), then x ← x + h·v. Only its registration matters to the tests.
#pragma once

#include <fluxion/plugin.h>

namespace fluxion_test {

class TestSolver final : public fluxion::Solver {
 public:
  /// The spec of a parameterless ODE solver registered under `name`.
  static fluxion::ComponentSpec Spec(const char* name) {
    return {.name = name,
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "test plugin: semi-implicit Euler",
            .fields = {},
            .aliases = {}};
  }
  static constexpr fluxion::SolverTraits kTraits = {
      .order = 1, .flags = fluxion::kExplicitMethod, .force_evaluations = 1, .linear_solves = 0};

  explicit TestSolver(const fluxion::Parameters&) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    force_.setZero(system.num_dofs());
    acceleration_.setZero(system.num_dofs());
  }
  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    system.ComputeForce(s, force_);
    if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;
    s.v += acceleration_ * h;
    s.x += s.v * h;
    return fluxion::StepResult::Ok();
  }

  fluxion::Vector force_, acceleration_;
};

}  // namespace fluxion_test
