// FalseHeunSolver — Hoffmann's "False Heun": Standard Heun with the False-Euler trick (positions
// advanced with the already updated velocity) applied in both stages.
//
// Source: seed 000 (Hoffmann) §10 and Appendix B case 6, whose update order is kept exactly.
// With a(t, x, v) = P·M⁻¹·[f(t, x, v) − rM·M·v − rK·K(x)·v]:
//
//   dv1 = h·a(t, x_n, v_n),     v1 = v_n + dv1,   dx1 = h·v1,   x1 = x_n + dx1
//   dv2 = h·a(t + h, x1, v1),   v2 = v_n + dv2,   dx2 = h·v2
//   v_{n+1} = v_n + ½(dv1 + dv2),   x_{n+1} = x_n + ½(dx1 + dx2)
//
// Since ½(dx1 + dx2) = h·v_n + ½h(dv1 + dv2), this is x_{n+1} = x_n + h·v_{n+1}: a Heun velocity
// update followed by a False-Euler position update. The h² term of x is then twice too large,
// so the method is FIRST order (derived here; Hoffmann gives no order). Two force evaluations.
//
// Undamped oscillator (Φ = ω·h), from Hoffmann's own derivation and Appendix B's transition
// matrix:  v ← (1 − Φ²/2)·v − Φ(1 − Φ²/2)·y,   y ← Φ(1 − Φ²/2)·v + (1 − Φ² + Φ⁴/2)·y,
// characteristic equation z² − 2(1 − 3Φ²/4 + Φ⁴/4)z + (1 − Φ²/2) = 0. While the roots are a
// complex pair (p² < q with p = 1 − 3Φ²/4 + Φ⁴/4, q = 1 − Φ²/2, i.e. Φ < 1.2695, the root of
// u³ − 6u² + 17u − 16 = 0 with u = Φ²) r² = q = 1 − Φ²/2: a damped oscillation. Beyond, both roots
// are real in (0, 1) (monotonic decay) until one reaches z = 1 at Φ = √2; for Φ > √2 it is
// monotonically unstable ("either monotonic unstable or a damped oscillation", Hoffmann).
//
// Discrepancies in the paper (§10): the printed line "y = y + 0.5(2Φv − Φ³v − Φ²y + Φ⁴y)" should
// read −2Φ²y (the next printed line has the right −Φ²y), and the printed z-form's y-row
// coefficient (1 − Φ²/2)·y should be (1 − Φ² + Φ⁴/2)·y. The characteristic equation, r², and
// Appendix B's transition-matrix code follow the correct derivation; this solver and its tests
// follow the derivation.
//
// Rayleigh damping (rM, rK) enters as the force −(rM·M + rK·K)·v at both stages (K at the stage
// position, assembled only when rK > 0); not in Hoffmann.
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

namespace {

class FalseHeunSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "FalseHeunSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary =
                "Hoffmann's False Heun: Heun with the new velocity in both position stages "
                "(first order, dissipative)",
            .fields = fluxion::RayleighDampedForce::Fields(),
            .aliases = {}};
  }

  explicit FalseHeunSolver(const fluxion::Parameters& p) : damped_force_(p) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    for (fluxion::Vector* v : {&dv1_, &dv2_, &stage_.x, &stage_.v}) v->setZero(n);
    damped_force_.Initialize(system);
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& system,
                            const fluxion::SystemChange& change) override {
    for (fluxion::Vector* v : {&dv1_, &dv2_, &stage_.x, &stage_.v})
      fluxion::FollowRemovedBlocks(change, *v);
    damped_force_.FollowSystemChange(system, change);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    // Stage 1: dv1, then v1 and the position x1 with the new velocity v1.
    if (auto r = AccelerationAt(system, s, damped_force_, dv1_); !r.accepted()) return r;
    dv1_ *= h;
    stage_.time = s.time + h;
    stage_.v = s.v + dv1_;
    stage_.x = s.x + stage_.v * h;

    // Stage 2: dv2 at (x1, v1); v2 = v_n + dv2 (Hoffmann's v12) gives dx2 = h·v2.
    if (auto r = AccelerationAt(system, stage_, damped_force_, dv2_); !r.accepted()) return r;
    dv2_ *= h;
    // x_{n+1} = x_n + ½(h·v1 + h·v2), with v1 = v_n + dv1 and v2 = v_n + dv2.
    s.x += (s.v * 2.0 + dv1_ + dv2_) * (0.5 * h);
    s.v += (dv1_ + dv2_) * 0.5;
    return fluxion::StepResult::Ok();
  }

  fluxion::RayleighDampedForce damped_force_;
  fluxion::Vector dv1_, dv2_;
  fluxion::State stage_;  // (x1, v1) at t + h
};

}  // namespace

FLUXION_PLUGIN("false_heun", "0.1.0") {
  registrar.AddSolver<FalseHeunSolver>(
      FalseHeunSolver::Spec(),
      {.order = 1, .flags = fluxion::kExplicitMethod, .force_evaluations = 2, .linear_solves = 0});
}
