// StandardHeunSolver — Hoffmann's "Standard Heun": Euler predictor, trapezoidal corrector on (x,
// v).
//
// Source: seed 000 (Hoffmann) §9 and Appendix B case 5 (update order taken from there); the
// same scheme is Sachs's "trapezoidal integration" (seed 001) and Fazarinc's explicit Heun
// (seed 003 eq. 9). With a(t, x, v) = P·M⁻¹·[f(t, x, v) − rM·M·v − rK·K(x)·v]:
//
//   dv1 = h·a(t, x_n, v_n),     dx1 = h·v_n
//   v1  = v_n + dv1,            x1  = x_n + dx1                 (Euler predictor, at t + h)
//   dv2 = h·a(t + h, x1, v1),   dx2 = h·v1
//   v_{n+1} = v_n + ½(dv1 + dv2),   x_{n+1} = x_n + ½(dx1 + dx2)
//
// Second order, two force evaluations per step. On the undamped oscillator (Φ = ω·h) the
// characteristic equation is z² − 2(1 − Φ²/2)z + (1 + Φ⁴/4) = 0: z = 1 − Φ²/2 ± jΦ,
// r² = 1 + Φ⁴/4 > 1 (a weak instability for every h) and tan Ψ = Φ/(1 − Φ²/2) (Hoffmann §9).
// Not symplectic: the energy of an undamped system grows by ≈ Φ⁴/4 per step.
//
// Rayleigh damping (rayleighMass rM, rayleighStiffness rK) enters as the force −(rM·M + rK·K)·v
// at both stages (K at the stage position, assembled only when rK > 0). It is not in Hoffmann.
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

namespace {

class StandardHeunSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "StandardHeunSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary =
                "Heun's predictor-corrector (explicit trapezoidal rule), Hoffmann's Standard "
                "Heun",
            .fields = fluxion::RayleighDampedForce::Fields(),
            .aliases = {}};
  }

  explicit StandardHeunSolver(const fluxion::Parameters& p) : damped_force_(p) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    for (fluxion::Vector* v : {&a1_, &a2_, &stage_.x, &stage_.v}) v->setZero(n);
    damped_force_.Initialize(system);
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& system,
                            const fluxion::SystemChange& change) override {
    for (fluxion::Vector* v : {&a1_, &a2_, &stage_.x, &stage_.v})
      fluxion::FollowRemovedBlocks(change, *v);
    damped_force_.FollowSystemChange(system, change);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    // Predictor: a full Euler step on x and v with the slopes at the start.
    if (auto r = AccelerationAt(system, s, damped_force_, a1_); !r.accepted()) return r;
    stage_.time = s.time + h;
    stage_.x = s.x + s.v * h;
    stage_.v = s.v + a1_ * h;

    // Corrector: the slopes at the predicted end point, averaged with the first ones.
    if (auto r = AccelerationAt(system, stage_, damped_force_, a2_); !r.accepted()) return r;
    s.x += (s.v + stage_.v) * (0.5 * h);  // ½(dx1 + dx2), dx2 = h·v1
    s.v += (a1_ + a2_) * (0.5 * h);       // ½(dv1 + dv2)
    return fluxion::StepResult::Ok();
  }

  fluxion::RayleighDampedForce damped_force_;
  fluxion::Vector a1_, a2_;
  fluxion::State stage_;  // (x1, v1) at t + h
};

}  // namespace

FLUXION_PLUGIN("standard_heun", "0.1.0") {
  registrar.AddSolver<StandardHeunSolver>(
      StandardHeunSolver::Spec(),
      {.order = 2, .flags = fluxion::kExplicitMethod, .force_evaluations = 2, .linear_solves = 0});
}
