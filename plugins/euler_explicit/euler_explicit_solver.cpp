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

#include <atomic>
#include <bit>
#include <cstdint>

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
    // One pass over the DOFs, split over the threads (each DOF's update is independent). It
    // reads x and v anyway: it keeps the base's backup of them and checks the new values'
    // finiteness (a double is not finite when its exponent bits are all ones), for the base
    // (BacksUpState).
    const double* a = acceleration_.data();
    double* x = s.x.data();
    double* v = s.v.data();
    double* old_x = backup_x();
    double* old_v = backup_v();
    const bool symplectic = symplectic_;
    std::atomic<bool> all_finite{true};
    fluxion::ParallelFor(
        s.x.size(), fluxion::kVectorGrain, [&, h](fluxion::Index b, fluxion::Index e) {
          constexpr std::uint64_t kExponent = 0x7ff0000000000000ULL;
          std::uint64_t bad = 0;
          for (fluxion::Index i = b; i < e; ++i) {
            const double xi = x[i], vi = v[i];
            old_x[i] = xi;
            old_v[i] = vi;
            double new_x, new_v;
            if (symplectic) {
              new_v = vi + a[i] * h;   // velocity first ...
              new_x = xi + new_v * h;  // ... then the position with the new velocity
            } else {
              new_x = xi + vi * h;  // the position with the old velocity
              new_v = vi + a[i] * h;
            }
            x[i] = new_x;
            v[i] = new_v;
            bad |= static_cast<std::uint64_t>((std::bit_cast<std::uint64_t>(new_x) & kExponent) ==
                                              kExponent) |
                   static_cast<std::uint64_t>((std::bit_cast<std::uint64_t>(new_v) & kExponent) ==
                                              kExponent);
          }
          if (bad != 0) all_finite.store(false, std::memory_order_relaxed);
        });
    StateBackedUp(all_finite.load(std::memory_order_relaxed));
    return fluxion::StepResult::Ok();
  }

  bool BacksUpState() const override { return true; }

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
