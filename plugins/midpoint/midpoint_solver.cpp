// MidpointSolver — Sachs's explicit midpoint method on (x, v).
//
// Source: seed 001 (Sachs) "The Midpoint Method" (testMidpoint: both components of the state
// advanced together). With a(t, x, v) = P·M⁻¹·[f(t, x, v) − rM·M·v − rK·K(x)·v]:
//
//   x_m = x_n + (h/2)·v_n,   v_m = v_n + (h/2)·a(t, x_n, v_n)       (trial half step)
//   x_{n+1} = x_n + h·v_m,   v_{n+1} = v_n + h·a(t + h/2, x_m, v_m)
//
// Second order, two force evaluations per step. Stability function R(z) = 1 + z + z²/2 (the same
// as Standard Heun's): on the undamped oscillator (Φ = ω·h) z = 1 − Φ²/2 ± jΦ, r² = 1 + Φ⁴/4 and
// tan Ψ = Φ/(1 − Φ²/2); the energy grows slowly for every h (Sachs: midpoint "suffers from energy
// drift"). The same update as SOFA's RungeKutta2Solver, registered under Sachs's name, plus
// Rayleigh damping.
//
// Rayleigh damping (rM, rK) enters as the force −(rM·M + rK·K)·v at both stages (K at the stage
// position, assembled only when rK > 0); not in Sachs.
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

namespace {

class MidpointSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "MidpointSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "Explicit midpoint method (Sachs), with Rayleigh damping",
            .fields = fluxion::RayleighDampedForce::Fields(),
            .aliases = {}};
  }

  explicit MidpointSolver(const fluxion::Parameters& p) : damped_force_(p) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    for (fluxion::Vector* v : {&a1_, &a2_, &mid_.x, &mid_.v}) v->setZero(n);
    damped_force_.Initialize(system);
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& system,
                            const fluxion::SystemChange& change) override {
    for (fluxion::Vector* v : {&a1_, &a2_, &mid_.x, &mid_.v})
      fluxion::FollowRemovedBlocks(change, *v);
    damped_force_.FollowSystemChange(system, change);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    // Trial Euler half step to the midpoint.
    if (auto r = AccelerationAt(system, s, damped_force_, a1_); !r.accepted()) return r;
    mid_.time = s.time + 0.5 * h;
    mid_.x = s.x + s.v * (0.5 * h);
    mid_.v = s.v + a1_ * (0.5 * h);

    // The full step with the midpoint slopes.
    if (auto r = AccelerationAt(system, mid_, damped_force_, a2_); !r.accepted()) return r;
    s.x += mid_.v * h;
    s.v += a2_ * h;
    return fluxion::StepResult::Ok();
  }

  fluxion::RayleighDampedForce damped_force_;
  fluxion::Vector a1_, a2_;
  fluxion::State mid_;  // (x_m, v_m) at t + h/2
};

}  // namespace

FLUXION_PLUGIN("midpoint", "0.1.0") {
  registrar.AddSolver<MidpointSolver>(
      MidpointSolver::Spec(),
      {.order = 2, .flags = fluxion::kExplicitMethod, .force_evaluations = 2, .linear_solves = 0});
}
