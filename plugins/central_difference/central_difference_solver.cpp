// CentralDifferenceSolver — SOFA's central difference (leapfrog) with optional Rayleigh mass
// damping.
//
// Source: seed 004 §6 ("CentralDifference solver"); SOFA CentralDifferenceSolver (sofa-notes §1.6,
// operation order sofa-semantics §10). With a = P·M⁻¹·f(t, x_n, v_n) (fixed DOFs projected) and
// r = rayleighMass:
//
//   r = 0:   v_{n+1} = v_n + h·a,   x_{n+1} = x_n + h·v_{n+1}
//   r ≠ 0:   v_{n+1} = c·v_n + a/(1/h + r/2),   c = (1/h − r/2)/(1/h + r/2)
//            x_{n+1} = x_n + h·v_{n+1}
//
// i.e. (v_{n+1} − v_n)/h = a − r·(v_n + v_{n+1})/2: the mass damping by the trapezoidal rule.
// For r = 0 this is bit for bit EulerExplicitSolver's symplectic Euler.
//
// Order: declared 1. Second order in x when v is read as the half-step velocity, v_n ≈ v(t_n − h/2)
// (Störmer–Verlet). The scene's initial velocity is used as that half-step velocity; if it is
// instead v(t_0) and a(x_0) ≠ 0, the start-up error is O(h) and positions are first-order accurate
// (exactly as with symplectic Euler). Stability: on an oscillator of frequency ω, stable for
// ωh < 2 whatever r ≥ 0; for r = 0 |λ| = 1 there (no numerical damping, bounded energy error).
//
// Deviation from the seed: its text writes a_{k+1} = Fext_{k+1}/m in the update of v_{k+1}; SOFA
// (and this solver) uses the force at the start of the step, f(x_n, v_n). SOFA quirk reproduced:
// the velocity is scaled as v += (−1 + c)·v, not v = c·v; equal in exact arithmetic, not bitwise.
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>
#include <fluxion/threads.h>

namespace {

class CentralDifferenceSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "CentralDifferenceSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "Explicit central difference (leapfrog), optional Rayleigh mass damping",
            .fields = {fluxion::RayleighCoefficients::MassField(
                "Rayleigh mass damping coefficient r [1/s]: damping force −r·M·v, treated by the "
                "trapezoidal rule")},
            .aliases = {}};
  }

  explicit CentralDifferenceSolver(const fluxion::Parameters& p)
      : rayleigh_mass_(p.real("rayleighMass")) {}

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
    system.ComputeForce(s, force_);
    if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;

    if (rayleigh_mass_ == 0.0) {
      // Undamped: symplectic Euler, velocity first.
      const double* a = acceleration_.data();
      double *x = s.x.data(), *v = s.v.data();
      fluxion::ParallelFor(s.x.size(), fluxion::kVectorGrain,
                           [=](fluxion::Index b, fluxion::Index e) {
                             for (fluxion::Index i = b; i < e; ++i) {
                               v[i] += a[i] * h;
                               x[i] += v[i] * h;  // the position with the new velocity
                             }
                           });
      return fluxion::StepResult::Ok();
    }
    // Damped: SOFA's two velocity operations, with the coefficients formed as SOFA forms them.
    const double r = rayleigh_mass_;
    const double velocity_coefficient = -1.0 + (1.0 / h - r / 2.0) / (1.0 / h + r / 2.0);
    const double acceleration_coefficient = 1.0 / (1.0 / h + r / 2.0);
    s.v += s.v * velocity_coefficient;
    s.v += acceleration_ * acceleration_coefficient;
    s.x += s.v * h;  // the position with the new velocity
    return fluxion::StepResult::Ok();
  }

  double rayleigh_mass_;
  fluxion::Vector force_, acceleration_;
};

}  // namespace

FLUXION_PLUGIN("central_difference", "0.1.0") {
  registrar.AddSolver<CentralDifferenceSolver>(
      CentralDifferenceSolver::Spec(),
      // Order 1: a SOFA scene's initial velocity is v(t₀), from which positions are first-order
      // accurate (see the header); second order needs the leapfrog start v(t₀ − h/2).
      {.order = 1,
       .flags = fluxion::kExplicitMethod | fluxion::kSymplecticMethod,
       .force_evaluations = 1,
       .linear_solves = 0});
}
