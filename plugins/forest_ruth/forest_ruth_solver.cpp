// ForestRuthSolver — the fourth-order symplectic integrator of Forest and Ruth (1990), with
// Sachs's coefficients.
//
// Source: seed 001 (Sachs) "Higher-order methods" (his pseudocode, step for step). With
// a(t, x, v) = P·M⁻¹·f(t, x, v) and K = 1/(2 − ∛2) = 1.3512071919596578…:
//
//   x_a = x_n + (K/2)·h·v_n             v_a = v_n + K·h·a(x_a)
//   x_b = x_a + ((1 − K)/2)·h·v_a       v_b = v_a + (1 − 2K)·h·a(x_b)
//   x_c = x_b + ((1 − K)/2)·h·v_b       v_{n+1} = v_b + K·h·a(x_c)
//   x_{n+1} = x_c + (K/2)·h·v_{n+1}
//
// The forces are evaluated at t + (K/2)h, t + h/2 and t + (1 − K/2)h (the positions' times) and
// at the velocity current in the sequence (v_n, v_a, v_b). Fourth order and symplectic for forces
// that depend on position only; three force evaluations per step. Since 1 − 2K < 0, the middle
// kick goes backwards in time. Undamped oscillator: |z| = 1 up to its stability limit
// Φ = ω·h ≈ 1.573 (a symmetric composition of Verlet steps: r = 1, Ψ = Φ + O(Φ⁵)).
//
// With velocity-dependent forces (dashpots) the velocity used at each kick lags by part of a
// step: the damping term is then integrated to first order only (Sachs's caveat for Verlet).
// No Rayleigh parameters for that reason; the declared order is for conservative forces.
#include <fluxion/plugin.h>

#include <cmath>

namespace {

class ForestRuthSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "ForestRuthSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "Forest-Ruth fourth-order symplectic integrator (three drift-kick stages)",
            .fields = {},
            .aliases = {}};
  }

  explicit ForestRuthSolver(const fluxion::Parameters& /*parameters*/) {}

 private:
  // K = 1/(2 − 2^{1/3}), Sachs's constant.
  static inline const double kTheta = 1.0 / (2.0 - std::cbrt(2.0));

  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    force_.setZero(system.num_dofs());
    acceleration_.setZero(system.num_dofs());
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    for (fluxion::Vector* v : {&force_, &acceleration_}) fluxion::FollowRemovedBlocks(change, *v);
  }

  // v += weight·h·a(t, x, v) for the state's current positions, at time `t`.
  fluxion::StepResult Kick(const fluxion::MechanicalSystem& system, double t, double weight,
                           double h, fluxion::State& s) {
    const double start_time = s.time;
    s.time = t;
    system.ComputeForce(s, force_);
    s.time = start_time;
    if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;
    s.v += acceleration_ * (weight * h);
    return fluxion::StepResult::Ok();
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    const double t = s.time;
    // Drift K/2, kick K.
    s.x += s.v * (0.5 * kTheta * h);
    if (auto r = Kick(system, t + 0.5 * kTheta * h, kTheta, h, s); !r.accepted()) return r;
    // Drift (1 − K)/2, kick 1 − 2K (backwards: 1 − 2K < 0).
    s.x += s.v * (0.5 * (1.0 - kTheta) * h);
    if (auto r = Kick(system, t + 0.5 * h, 1.0 - 2.0 * kTheta, h, s); !r.accepted()) return r;
    // Drift (1 − K)/2, kick K.
    s.x += s.v * (0.5 * (1.0 - kTheta) * h);
    if (auto r = Kick(system, t + (1.0 - 0.5 * kTheta) * h, kTheta, h, s); !r.accepted()) return r;
    // Final drift K/2.
    s.x += s.v * (0.5 * kTheta * h);
    return fluxion::StepResult::Ok();
  }

  fluxion::Vector force_, acceleration_;
};

}  // namespace

FLUXION_PLUGIN("forest_ruth", "0.1.0") {
  registrar.AddSolver<ForestRuthSolver>(
      ForestRuthSolver::Spec(), {.order = 4,
                                 .flags = fluxion::kExplicitMethod | fluxion::kSymplecticMethod,
                                 .force_evaluations = 3,
                                 .linear_solves = 0});
}
