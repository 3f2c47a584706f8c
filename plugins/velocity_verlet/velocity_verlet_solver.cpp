// VelocityVerletSolver — Sachs's Velocity Verlet (kick, drift, kick).
//
// Source: seed 001 (Sachs) "Verlet integration", first form; Hoffmann (seed 000) §8 shows that
// Verlet's positions obey False Euler's characteristic equation. With
// a(t, x, v) = P·M⁻¹·f(t, x, v):
//
//   a1      = a(t, x_n, v_n)
//   v_{½}   = v_n + (h/2)·a1
//   x_{n+1} = x_n + h·v_{½}
//   a2      = a(t + h, x_{n+1}, v*),   v* = v_n + h·a1   (Sachs's "coarse estimate" of the end
//   velocity) v_{n+1} = v_{½} + (h/2)·a2
//
// Second order, symplectic for forces that depend on position only. Undamped oscillator
// (Φ = ω·h): z² − 2(1 − Φ²/2)z + 1 = 0, the characteristic equation of False Euler (Hoffmann §8):
// r = 1 and tan Ψ = Φ·√(1 − Φ²/4)/(1 − Φ²/2) for Φ < 2.
//
// Deviation from Sachs: he reuses a2 as the next step's a1 (one force evaluation per step) and
// warns that this is wrong when the force depends on velocity. Here a1 is evaluated afresh at
// every step (two evaluations), because spring dashpots make f depend on v, and forces may change
// between steps (SOFA's externalForce is cleared after the first step). With velocity-dependent
// forces, a2 uses Sachs's suggested end-of-step velocity estimate v*, which keeps second order.
// No Rayleigh parameters (a method for conservative forces); damping acts through f.
#include <fluxion/kick_drift.h>
#include <fluxion/plugin.h>

namespace {

class VelocityVerletSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "VelocityVerletSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "Velocity Verlet (half kick, drift, half kick), symplectic, second order",
            .fields = {},
            .aliases = {}};
  }

  explicit VelocityVerletSolver(const fluxion::Parameters& /*parameters*/) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    for (fluxion::Vector* v : {&force_, &a1_, &a2_, &end_.x, &end_.v}) v->setZero(n);
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    for (fluxion::Vector* v : {&force_, &a1_, &a2_, &end_.x, &end_.v})
      fluxion::FollowRemovedBlocks(change, *v);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    // Half kick with the acceleration at the start of the step.
    system.ComputeForce(s, force_);
    if (auto r = ComputeAcceleration(system, force_, a1_); !r.accepted()) return r;
    end_.v = s.v + a1_ * h;  // v*, only for velocity-dependent forces at the end of the step
    // Half kick, then the drift with the half-step velocity.
    fluxion::KickDrift(a1_, 0.5 * h, h, s);

    // Half kick with the acceleration at the new position.
    end_.time = s.time + h;
    end_.x = s.x;
    system.ComputeForce(end_, force_);
    if (auto r = ComputeAcceleration(system, force_, a2_); !r.accepted()) return r;
    s.v += a2_ * (0.5 * h);
    return fluxion::StepResult::Ok();
  }

  fluxion::Vector force_, a1_, a2_;
  fluxion::State end_;  // (x_{n+1}, v*) at t + h
};

}  // namespace

FLUXION_PLUGIN("velocity_verlet", "0.1.0") {
  registrar.AddSolver<VelocityVerletSolver>(
      VelocityVerletSolver::Spec(), {.order = 2,
                                     .flags = fluxion::kExplicitMethod | fluxion::kSymplecticMethod,
                                     .force_evaluations = 2,
                                     .linear_solves = 0});
}
