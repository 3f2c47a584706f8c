// SemiFalseHeunSolver — Hoffmann's "Semi-False Heun": Standard Heun whose second position stage
// uses the velocity updated with the second slope.
//
// Source: seed 000 (Hoffmann) §11 and Appendix B case 7, whose update order is kept exactly.
// With a(t, x, v) = P·M⁻¹·[f(t, x, v) − rM·M·v − rK·K(x)·v]:
//
//   dv1 = h·a(t, x_n, v_n),     v1 = v_n + dv1,   dx1 = h·v_n,   x1 = x_n + dx1
//   dv2 = h·a(t + h, x1, v1),   v2 = v_n + dv2,   dx2 = h·v2
//   v_{n+1} = v_n + ½(dv1 + dv2),   x_{n+1} = x_n + ½(dx1 + dx2) = x_n + h·v_n + ½h·dv2
//
// Second order (derived here: x_{n+1} = x_n + h·v_n + ½h²·a + O(h³), and v is Heun's; Hoffmann:
// "as accurate as Standard Heun"). Two force evaluations per step.
//
// Undamped oscillator (Φ = ω·h): v ← (1 − Φ²/2)·v − Φ·y,  y ← Φ(1 − Φ²/2)·v + (1 − Φ²/2)·y,
// characteristic equation z² − 2(1 − Φ²/2)z + (1 − Φ⁴/4) = 0 (Hoffmann §11, checked):
// z = (1 − Φ²/2) ± jΦ·√(1 − Φ²/2) and r² = 1 − Φ⁴/4 while the roots are complex, Φ < √2.
// Deviation from the paper's wording: Hoffmann calls the method "always stable"; that holds for
// the complex pair only. For Φ > √2 the roots are real, z = 1 − Φ²/2 ± Φ·√(Φ²/2 − 1), and one
// reaches −1 when Φ⁴ + 4Φ² − 16 = 0: Φ = √(2(√5 − 1)) ≈ 1.5723 is the stability limit.
//
// Rayleigh damping (rM, rK) enters as the force −(rM·M + rK·K)·v at both stages (K at the stage
// position, assembled only when rK > 0); not in Hoffmann.
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

namespace {

class SemiFalseHeunSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "SemiFalseHeunSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary =
                "Hoffmann's Semi-False Heun: Heun with the new velocity in the second "
                "position stage only",
            .fields = fluxion::RayleighDampedForce::Fields(),
            .aliases = {}};
  }

  explicit SemiFalseHeunSolver(const fluxion::Parameters& p) : damped_force_(p) {}

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
    // Stage 1: dv1 and v1; the position x1 with the OLD velocity (dx1 = h·v_n).
    if (auto r = AccelerationAt(system, s, damped_force_, dv1_); !r.accepted()) return r;
    dv1_ *= h;
    stage_.time = s.time + h;
    stage_.v = s.v + dv1_;
    stage_.x = s.x + s.v * h;

    // Stage 2: dv2 at (x1, v1); dx2 = h·v2 with v2 = v_n + dv2 (Hoffmann's v12).
    if (auto r = AccelerationAt(system, stage_, damped_force_, dv2_); !r.accepted()) return r;
    dv2_ *= h;
    // x_{n+1} = x_n + ½(h·v_n + h·(v_n + dv2)).
    s.x += (s.v * 2.0 + dv2_) * (0.5 * h);
    s.v += (dv1_ + dv2_) * 0.5;
    return fluxion::StepResult::Ok();
  }

  fluxion::RayleighDampedForce damped_force_;
  fluxion::Vector dv1_, dv2_;
  fluxion::State stage_;  // (x1, v1) at t + h
};

}  // namespace

FLUXION_PLUGIN("semi_false_heun", "0.1.0") {
  registrar.AddSolver<SemiFalseHeunSolver>(
      SemiFalseHeunSolver::Spec(),
      {.order = 2, .flags = fluxion::kExplicitMethod, .force_evaluations = 2, .linear_solves = 0});
}
