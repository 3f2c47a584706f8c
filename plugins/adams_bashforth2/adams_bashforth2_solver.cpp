// AdamsBashforth2Solver — the second-order Adams–Bashforth predictor (AB-2) on (x, v), with an
// Euler first step.
//
// Source: seed 002 (Howe) §§1, 3–4 and Table 2 (AB-2: e_I = 5/12, k = 2; "the startup problem …
// is solved by using Euler integration for the first step"). With
// a(t, x, v) = P·M⁻¹·[f(t, x, v) − rM·M·v − rK·K(x)·v] evaluated once per step at (x_n, v_n):
//
//   x_{n+1} = x_n + h·(3/2·v_n − 1/2·v_{n−1})
//   v_{n+1} = v_n + h·(3/2·a_n − 1/2·a_{n−1})
//   first step (and after a restart): x_1 = x_0 + h·v_0,  v_1 = v_0 + h·a_0   (forward Euler)
//
// Second order, one force evaluation per step; v_{n−1} and a_{n−1} are history. Characteristic
// equation per mode μ = λh: z² − (1 + 3μ/2)z + μ/2 = 0; the principal root has
// e_λ = (λ* − λ)/λ ≈ −(5/12)(λh)² (Howe eq. 12). On the undamped oscillator (μ = ±jΦ) |z| > 1:
// a weak instability (≈ Φ⁴/4 in r per step) for every h; not symplectic.
//
// History is committed only for accepted steps (DoCommit) and dropped (restarting with an Euler
// step) when the step size changes or the host says the state is not the one this solver left
// (Solver::InvalidateHistory: a scene reset, a state set by a tool), so the recurrence never mixes
// unrelated states.
// Rayleigh damping (rM, rK) enters as the force −(rM·M + rK·K)·v (K assembled only when rK > 0);
// not in Howe.
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

namespace {

class AdamsBashforth2Solver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "AdamsBashforth2Solver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "Second-order Adams-Bashforth (AB-2) with an Euler first step (Howe)",
            .fields = fluxion::RayleighDampedForce::Fields(),
            .aliases = {}};
  }

  explicit AdamsBashforth2Solver(const fluxion::Parameters& p) : damped_force_(p) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    for (fluxion::Vector* v :
         {&velocity_, &acceleration_, &previous_velocity_, &previous_acceleration_})
      v->setZero(n);
    damped_force_.Initialize(system);
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& system,
                            const fluxion::SystemChange& change) override {
    for (fluxion::Vector* v :
         {&velocity_, &acceleration_, &previous_velocity_, &previous_acceleration_})
      fluxion::FollowRemovedBlocks(change, *v);
    damped_force_.FollowSystemChange(system, change);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    // The history is valid only for the state this solver left, with the same step size.
    const bool continues = history_valid() && h == last_h_;
    if (auto r = AccelerationAt(system, s, damped_force_, acceleration_); !r.accepted()) return r;

    // Until a previous step exists, v_{n−1} and a_{n−1} are taken equal to v_n and a_n: the
    // AB-2 formulas then reduce to forward Euler (Howe's start-up). The history is only read.
    const fluxion::Vector& previous_velocity = continues ? previous_velocity_ : s.v;
    const fluxion::Vector& previous_acceleration =
        continues ? previous_acceleration_ : acceleration_;

    // AB-2 on both integrations; velocity_ keeps v_n, the next step's v_{n−1}.
    velocity_ = s.v;
    s.x += (s.v * 1.5 - previous_velocity * 0.5) * h;
    s.v += (acceleration_ * 1.5 - previous_acceleration * 0.5) * h;
    return fluxion::StepResult::Ok();
  }

  // The step is accepted: v_n and a_n become the next step's v_{n−1} and a_{n−1}.
  void DoCommit(const fluxion::MechanicalSystem& /*system*/, double h,
                const fluxion::State& /*state*/) override {
    previous_velocity_.swap(velocity_);
    previous_acceleration_.swap(acceleration_);
    last_h_ = h;
  }

  fluxion::RayleighDampedForce damped_force_;
  fluxion::Vector velocity_, acceleration_;                    // v_n, a_n of the step being taken
  fluxion::Vector previous_velocity_, previous_acceleration_;  // v_{n−1}, a_{n−1} (history)
  double last_h_ = 0.0;                                        // the step that made the history
};

}  // namespace

FLUXION_PLUGIN("adams_bashforth2", "0.1.0") {
  registrar.AddSolver<AdamsBashforth2Solver>(
      AdamsBashforth2Solver::Spec(), {.order = 2,
                                      .flags = fluxion::kExplicitMethod | fluxion::kHasHistory,
                                      .force_evaluations = 1,
                                      .linear_solves = 0});
}
