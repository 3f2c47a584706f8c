// RungeKutta2Solver — SOFA's second-order Runge–Kutta: the explicit midpoint rule on (x, v).
//
// Source: seed 004 §5.1 ("Runge Kutta second order"); SOFA RungeKutta2Solver (sofa-notes §1.5,
// operation order sofa-semantics §10). With acc(t, x, v) = P·M⁻¹·f(t, x, v) (fixed DOFs projected):
//
//   a1 = acc(t, x_n, v_n)
//   x_m = x_n + (h/2)·v_n,   v_m = v_n + (h/2)·a1          the midpoint state, at t + h/2
//   a2 = acc(t + h/2, x_m, v_m)
//   x_{n+1} = x_n + h·v_m,   then   v_{n+1} = v_n + h·a2   (SOFA updates x first, then v)
//
// Second order; two force evaluations per step. Stability function R(z) = 1 + z + z²/2: on an
// undamped oscillator (z = iωh) |R|² = 1 + (ωh)⁴/4 > 1, so undamped modes grow slowly for every h
// (energy gain ≈ (ωh)⁴/4 per step); damped modes are stable inside the RK2 region (real axis:
// −2 ≤ hλ ≤ 0).
//
// The seed and SOFA agree. The seed's closing "a_{k+1} = Fext_{k+1}/m" is not stored: the next
// step evaluates a1 afresh, as SOFA does. The order of the two final updates does not change the
// result (neither reads the other). No parameters and no Rayleigh damping, as in SOFA.
#include <fluxion/plugin.h>
#include <fluxion/threads.h>

namespace {

class RungeKutta2Solver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "RungeKutta2Solver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "Explicit midpoint rule (2nd-order Runge-Kutta), as SOFA",
            .fields = {},
            .aliases = {}};
  }

  explicit RungeKutta2Solver(const fluxion::Parameters& /*parameters*/) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    force_.setZero(n);
    a1_.setZero(n);
    a2_.setZero(n);
    midpoint_.x.setZero(n);
    midpoint_.v.setZero(n);
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    for (fluxion::Vector* v : {&force_, &a1_, &a2_, &midpoint_.x, &midpoint_.v})
      fluxion::FollowRemovedBlocks(change, *v);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    const double half = h / 2.0;

    // Stage 1: the acceleration at the start of the step.
    system.ComputeForce(s, force_);
    if (auto r = ComputeAcceleration(system, force_, a1_); !r.accepted()) return r;

    // Stage 2: half an Euler step to the midpoint, and the acceleration there.
    midpoint_.time = s.time + half;
    {
      const double *x = s.x.data(), *v = s.v.data(), *a = a1_.data();
      double *xm = midpoint_.x.data(), *vm = midpoint_.v.data();
      fluxion::ParallelFor(s.x.size(), fluxion::kVectorGrain,
                           [=](fluxion::Index b, fluxion::Index e) {
                             for (fluxion::Index i = b; i < e; ++i) {
                               xm[i] = x[i] + v[i] * half;
                               vm[i] = v[i] + a[i] * half;
                             }
                           });
    }
    system.ComputeForce(midpoint_, force_);
    if (auto r = ComputeAcceleration(system, force_, a2_); !r.accepted()) return r;

    // The full step with the midpoint slopes; position first, as SOFA's vector operations.
    {
      const double *vm = midpoint_.v.data(), *a = a2_.data();
      double *x = s.x.data(), *v = s.v.data();
      fluxion::ParallelFor(s.x.size(), fluxion::kVectorGrain,
                           [=](fluxion::Index b, fluxion::Index e) {
                             for (fluxion::Index i = b; i < e; ++i) {
                               x[i] += vm[i] * h;
                               v[i] += a[i] * h;
                             }
                           });
    }
    return fluxion::StepResult::Ok();
  }

  fluxion::Vector force_, a1_, a2_;
  fluxion::State midpoint_;  // (x_m, v_m) at t + h/2
};

}  // namespace

FLUXION_PLUGIN("runge_kutta2", "0.1.0") {
  registrar.AddSolver<RungeKutta2Solver>(
      RungeKutta2Solver::Spec(),
      {.order = 2, .flags = fluxion::kExplicitMethod, .force_evaluations = 2, .linear_solves = 0});
}
