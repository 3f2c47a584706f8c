// PositionVerletSolver — Sachs's Position Verlet (drift, kick, drift).
//
// Source: seed 001 (Sachs) "Verlet integration", Position Verlet; Hoffmann (seed 000) §8. With
// a(t, x, v) = P·M⁻¹·f(t, x, v):
//
//   x_{½}   = x_n + (h/2)·v_n
//   v_{n+1} = v_n + h·a(t + h/2, x_{½}, v_n)
//   x_{n+1} = x_{½} + (h/2)·v_{n+1}
//
// Second order and symplectic for forces that depend on position only; one force evaluation per
// step. Undamped oscillator (Φ = ω·h): z² − 2(1 − Φ²/2)z + 1 = 0, False Euler's characteristic
// equation (Hoffmann §8): r = 1, tan Ψ = Φ·√(1 − Φ²/4)/(1 − Φ²/2), stable for Φ < 2.
//
// Velocity-dependent forces (dashpots, damping force fields) are evaluated at v_n, the only
// velocity available at the midpoint without a second evaluation: their contribution is then
// first order (Sachs: "accuracy is going to be degraded if the velocity-dependent term is not
// small"). No Rayleigh parameters for that reason; the declared order is for conservative forces.
#include <fluxion/kick_drift.h>
#include <fluxion/plugin.h>

namespace {

class PositionVerletSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "PositionVerletSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "Position Verlet (half drift, kick, half drift), symplectic, second order",
            .fields = {},
            .aliases = {}};
  }

  explicit PositionVerletSolver(const fluxion::Parameters& /*parameters*/) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    force_.setZero(system.num_dofs());
    acceleration_.setZero(system.num_dofs());
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    for (fluxion::Vector* v : {&force_, &acceleration_}) fluxion::FollowRemovedBlocks(change, *v);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    // Half drift to the midpoint; the force is evaluated there, at t + h/2.
    const double start_time = s.time;
    s.x += s.v * (0.5 * h);
    s.time = start_time + 0.5 * h;
    system.ComputeForce(s, force_);
    s.time = start_time;  // the base advances time; DoStep must leave it at t_n
    if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;

    // Full kick, then the second half drift with the new velocity.
    fluxion::KickDrift(acceleration_, h, 0.5 * h, s);
    return fluxion::StepResult::Ok();
  }

  fluxion::Vector force_, acceleration_;
};

}  // namespace

FLUXION_PLUGIN("position_verlet", "0.1.0") {
  registrar.AddSolver<PositionVerletSolver>(
      PositionVerletSolver::Spec(), {.order = 2,
                                     .flags = fluxion::kExplicitMethod | fluxion::kSymplecticMethod,
                                     .force_evaluations = 1,
                                     .linear_solves = 0});
}
