// EulerExplicitSolver — SOFA's forward Euler, symplectic by default.
//
// Source: seed 004 §2.1 ("EulerExplicit solver"); SOFA EulerExplicitSolver (sofa-notes §1.1).
// With a = P·M⁻¹·f(x_n, v_n) (fixed DOFs projected, SOFA's accFromF + projectResponse):
//
//   symplectic = 1 (default):  v_{n+1} = v_n + h·a,   x_{n+1} = x_n + h·v_{n+1}
//                              semi-implicit (symplectic) Euler, Hoffmann's "False Euler":
//                              first order, stable for ω·h < 2, bounded energy error.
//   symplectic = 0:            x_{n+1} = x_n + h·v_n,   v_{n+1} = v_n + h·a
//                              textbook forward Euler: first order, unstable on undamped
//                              oscillators for every h (|λ|² = 1 + ω²h²).
//
// Deviation from the seed: its text writes the symplectic update with v_k in the position line;
// SOFA's default (and this solver's) uses the new velocity, as the seed's own symplectic flag says.
// No Rayleigh damping (SOFA has none here); dashpots act through the springs' forces.
#include <fluxion/plugin.h>
#include <fluxion/threads.h>

namespace {

class EulerExplicitSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "EulerExplicitSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary = "Explicit Euler; symplectic (velocity first) by default, as SOFA",
            .fields = {fluxion::FieldSpec::Bool(
                "symplectic", true,
                "1: update v then x with the new v (semi-implicit Euler); 0: forward Euler")},
            .aliases = {}};
  }

  explicit EulerExplicitSolver(const fluxion::Parameters& p) : symplectic_(p.flag("symplectic")) {}

  // symplectic=0 is forward Euler: not symplectic (its amplification on an undamped oscillator is
  // √(1 + Φ²) > 1).
  fluxion::SolverTraits RefineTraits(const fluxion::SolverTraits& registered) const override {
    fluxion::SolverTraits traits = registered;
    if (!symplectic_) traits.flags &= ~static_cast<unsigned>(fluxion::kSymplecticMethod);
    return traits;
  }

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    force_.setZero(system.num_dofs());
    acceleration_.setZero(system.num_dofs());
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    system.ComputeForce(s, force_);
    if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;
    // One pass over the DOFs, split over the threads (each DOF's update is independent).
    const double* a = acceleration_.data();
    double* x = s.x.data();
    double* v = s.v.data();
    if (symplectic_) {
      fluxion::ParallelFor(s.x.size(), fluxion::kVectorGrain,
                           [=](fluxion::Index b, fluxion::Index e) {
                             for (fluxion::Index i = b; i < e; ++i) {
                               v[i] += a[i] * h;  // velocity first ...
                               x[i] += v[i] * h;  // ... then the position with the new velocity
                             }
                           });
    } else {
      fluxion::ParallelFor(s.x.size(), fluxion::kVectorGrain,
                           [=](fluxion::Index b, fluxion::Index e) {
                             for (fluxion::Index i = b; i < e; ++i) {
                               x[i] += v[i] * h;  // the position with the old velocity
                               v[i] += a[i] * h;
                             }
                           });
    }
    return fluxion::StepResult::Ok();
  }

  bool symplectic_;
  fluxion::Vector force_, acceleration_;
};

}  // namespace

FLUXION_PLUGIN("euler_explicit", "0.1.0") {
  registrar.AddSolver<EulerExplicitSolver>(
      EulerExplicitSolver::Spec(), {.order = 1,
                                    .flags = fluxion::kExplicitMethod | fluxion::kSymplecticMethod,
                                    .force_evaluations = 1,
                                    .linear_solves = 0});
}
