// RungeKutta4Solver — SOFA's classic fourth-order Runge–Kutta on the pair (x, v).
//
// Source: seed 004 §5.2 ("Runge Kutta fourth order"); SOFA RungeKutta4Solver (sofa-notes §1.5,
// operation order sofa-semantics §10). With acc(t, x, v) = P·M⁻¹·f(t, x, v) (fixed DOFs projected),
// h2 = h/2, h3 = h/3, h6 = h/6 (each divided directly from h, as SOFA):
//
//   k1v = v_n                       k1a = acc(t,      x_n,           k1v)
//   k2v = v_n + h2·k1a              k2a = acc(t + h2, x_n + h2·k1v,  k2v)
//   k3v = v_n + h2·k2a              k3a = acc(t + h2, x_n + h2·k2v,  k3v)
//   k4v = v_n + h·k3a               k4a = acc(t + h,  x_n + h·k3v,   k4v)
//   x_{n+1} = x_n + h6·k1v + h3·k2v + h3·k3v + h6·k4v
//   v_{n+1} = v_n + h6·k1a + h3·k2a + h3·k3a + h6·k4a
//
// The sums are accumulated one term at a time, left to right, all of x before v (SOFA's vOp
// sequence), so rounding matches SOFA's. Fourth order; four force evaluations per step.
// Stability function R(z) = 1 + z + z²/2 + z³/6 + z⁴/24: on an undamped oscillator (z = iωh)
// |R|² = 1 − (ωh)⁶/72 + (ωh)⁸/576, which is ≤ 1 up to ωh = 2√2 ≈ 2.83: stable there, with a small
// numerical damping (energy loss ≈ (ωh)⁶/72 per step); real axis: −2.785 ≤ hλ ≤ 0.
//
// The seed and SOFA agree. SOFA quirk not reproduced: its multi-operation path applies
// solveConstraint to pos/vel instead of the result vectors; constraint solvers (contact) do not
// exist in Fluxion, and for projective constraints the call does nothing. No parameters and no
// Rayleigh damping, as in SOFA.
#include <fluxion/plugin.h>
#include <fluxion/threads.h>

namespace {

class RungeKutta4Solver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "RungeKutta4Solver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "Classic 4th-order Runge-Kutta on positions and velocities, as SOFA",
            .fields = {},
            .aliases = {}};
  }

  explicit RungeKutta4Solver(const fluxion::Parameters& /*parameters*/) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    force_.setZero(n);
    for (fluxion::Vector* a : {&k1a_, &k2a_, &k3a_, &k4a_}) a->setZero(n);
    for (fluxion::State* stage : {&stage2_, &stage3_, &stage4_}) {
      stage->x.setZero(n);
      stage->v.setZero(n);
    }
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    for (fluxion::Vector* v : {&force_, &k1a_, &k2a_, &k3a_, &k4a_, &stage2_.x, &stage2_.v,
                               &stage3_.x, &stage3_.v, &stage4_.x, &stage4_.v})
      fluxion::FollowRemovedBlocks(change, *v);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    const double h2 = h / 2.0, h3 = h / 3.0, h6 = h / 6.0;

    // Stage 1 at t: the slopes of the current state (k1v is v itself).
    if (auto r = Acceleration(system, s, k1a_); !r.accepted()) return r;

    // Stages 2 and 3 at t + h/2, each from the previous stage's slopes; stage 4 at t + h.
    // A stage's velocity is its position slope kᵢv, so the stage states keep k2v, k3v, k4v.
    Advance(s, s.v, k1a_, h2, s.time + h2, stage2_);
    if (auto r = Acceleration(system, stage2_, k2a_); !r.accepted()) return r;
    Advance(s, stage2_.v, k2a_, h2, s.time + h2, stage3_);
    if (auto r = Acceleration(system, stage3_, k3a_); !r.accepted()) return r;
    Advance(s, stage3_.v, k3a_, h, s.time + h, stage4_);
    if (auto r = Acceleration(system, stage4_, k4a_); !r.accepted()) return r;

    // Weighted sums, one increment at a time; x first (k1v is still the old v), then v.
    // One pass, the same sums in the same order per entry.
    const double *v2 = stage2_.v.data(), *v3 = stage3_.v.data(), *v4 = stage4_.v.data();
    const double *a1 = k1a_.data(), *a2 = k2a_.data(), *a3 = k3a_.data(), *a4 = k4a_.data();
    double *x = s.x.data(), *v = s.v.data();
    fluxion::ParallelFor(s.x.size(), fluxion::kVectorGrain,
                         [=](fluxion::Index b, fluxion::Index e) {
                           for (fluxion::Index i = b; i < e; ++i) {
                             double xi = x[i];
                             xi += v[i] * h6;
                             xi += v2[i] * h3;
                             xi += v3[i] * h3;
                             xi += v4[i] * h6;
                             x[i] = xi;
                             double vi = v[i];
                             vi += a1[i] * h6;
                             vi += a2[i] * h3;
                             vi += a3[i] * h3;
                             vi += a4[i] * h6;
                             v[i] = vi;
                           }
                         });
    return fluxion::StepResult::Ok();
  }

  // stage = (x_n + step·kv, v_n + step·ka) at `time`.
  static void Advance(const fluxion::State& s, const fluxion::Vector& kv, const fluxion::Vector& ka,
                      double step, double time, fluxion::State& stage) {
    stage.time = time;
    const double *x = s.x.data(), *v = s.v.data(), *dx = kv.data(), *dv = ka.data();
    double *xs = stage.x.data(), *vs = stage.v.data();
    fluxion::ParallelFor(s.x.size(), fluxion::kVectorGrain,
                         [=](fluxion::Index b, fluxion::Index e) {
                           for (fluxion::Index i = b; i < e; ++i) {
                             xs[i] = x[i] + dx[i] * step;
                             vs[i] = v[i] + dv[i] * step;
                           }
                         });
  }

  // a = P·M⁻¹·f(state).
  fluxion::StepResult Acceleration(const fluxion::MechanicalSystem& system,
                                   const fluxion::State& state, fluxion::Vector& a) {
    system.ComputeForce(state, force_);
    return ComputeAcceleration(system, force_, a);
  }

  fluxion::Vector force_, k1a_, k2a_, k3a_, k4a_;
  fluxion::State stage2_, stage3_, stage4_;  // their v are k2v, k3v, k4v
};

}  // namespace

FLUXION_PLUGIN("runge_kutta4", "0.1.0") {
  registrar.AddSolver<RungeKutta4Solver>(
      RungeKutta4Solver::Spec(),
      {.order = 4, .flags = fluxion::kExplicitMethod, .force_evaluations = 4, .linear_solves = 0});
}
