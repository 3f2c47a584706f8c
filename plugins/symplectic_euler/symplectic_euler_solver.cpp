// SymplecticEulerSolver — semi-implicit (symplectic) Euler: Hoffmann's "False Euler", Sachs's
// "semi-implicit Euler".
//
// Source: seed 000 (Hoffmann) §7 "False Euler" and Appendix B case 3; seed 001 (Sachs)
// "Semi-implicit Euler integration". With a(t, x, v) = P·M⁻¹·f(t, x, v) (fixed DOFs projected):
//
//   v_{n+1} = v_n + h·a(t_n, x_n, v_n)
//   x_{n+1} = x_n + h·v_{n+1}          (the *new* velocity: the one change from forward Euler)
//
// First order. On the undamped oscillator (Φ = ω·h) the transition matrix has the characteristic
// equation z² − 2(1 − Φ²/2)z + 1 = 0 (Hoffmann §7): r = 1 and
// tan Ψ = Φ·√(1 − Φ²/4)/(1 − Φ²/2) for Φ < 2, unstable beyond (T/T₀ > 1/π). Symplectic: the energy
// of a conservative system oscillates with an O(h) amplitude and does not drift. Verlet
// (Hoffmann §8) has the same characteristic equation. One force evaluation per step.
//
// The same update as EulerExplicitSolver with symplectic="1", registered under the papers' name.
// No Rayleigh parameters: damping is velocity-dependent and this method is meant for
// conservative forces; dashpots and damping force fields still act through f, evaluated at v_n.
// (Hoffmann's Damped Euler §6 differs: it moves the position with the old velocity.)
#include <fluxion/kick_drift.h>
#include <fluxion/plugin.h>

namespace {

class SymplecticEulerSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "SymplecticEulerSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary =
                "Semi-implicit (symplectic) Euler: v first, then x with the new v "
                "(Hoffmann's False Euler)",
            .fields = {},
            .aliases = {}};
  }

  explicit SymplecticEulerSolver(const fluxion::Parameters& /*parameters*/) {}

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
    // The acceleration at the start of the step.
    system.ComputeForce(s, force_);
    if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;
    // Velocity first, then the position with the new velocity.
    fluxion::KickDrift(acceleration_, h, h, s);
    return fluxion::StepResult::Ok();
  }

  fluxion::Vector force_, acceleration_;
};

}  // namespace

FLUXION_PLUGIN("symplectic_euler", "0.1.0") {
  registrar.AddSolver<SymplecticEulerSolver>(
      SymplecticEulerSolver::Spec(),
      {.order = 1,
       .flags = fluxion::kExplicitMethod | fluxion::kSymplecticMethod,
       .force_evaluations = 1,
       .linear_solves = 0});
}
