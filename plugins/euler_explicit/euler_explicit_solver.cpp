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
#include <algorithm>

#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

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
    // Sized, not cleared: with the acceleration computed in the update pass only the projected
    // DOFs' entries are ever written and read, and the rest of its pages is never touched.
    acceleration_.resize(system.num_dofs());
    // The DOFs whose acceleration is 0 (fixed or massless: inverse mass 0), a byte each: the
    // update pass reads this instead of the inverse masses, 8 bytes each.
    const fluxion::Vector& inverse = system.inverse_mass_diagonal();
    massless_.resize(static_cast<std::size_t>(inverse.size()));
    for (fluxion::Index i = 0; i < inverse.size(); ++i)
      massless_[static_cast<std::size_t>(i)] = inverse[i] == 0.0 ? 1 : 0;
  }
  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange), the massless
  // flags move with their DOFs and are read again where a mass changed.
  void DoFollowSystemChange(const fluxion::MechanicalSystem& system,
                            const fluxion::SystemChange& change) override {
    fluxion::FollowRemovedBlocks(change, force_);
    fluxion::FollowRemovedBlocks(change, acceleration_);
    const auto block = static_cast<std::size_t>(change.block_size);
    for (const fluxion::Index slot : change.removed_blocks) {
      const auto first = static_cast<std::size_t>(slot);
      if (first + block != massless_.size())
        std::copy_n(massless_.end() - static_cast<std::ptrdiff_t>(block), block,
                    massless_.begin() + static_cast<std::ptrdiff_t>(first));
      massless_.resize(massless_.size() - block);
    }
    const fluxion::Vector& inverse = system.inverse_mass_diagonal();
    for (const fluxion::Index dof : change.mass_dofs)
      massless_[static_cast<std::size_t>(dof)] = inverse[dof] == 0.0 ? 1 : 0;
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    system.ComputeForce(s, force_);
    // With a diagonal M and a known list of projected DOFs, a = P·M⁻¹·f is computed inside the
    // update pass (one pass over the DOFs and the vector a fewer), then redone on the projected
    // DOFs; else by the base first. The same values either way, bit for bit.
    const fluxion::Vector* mass = diagonal_mass();
    const std::vector<fluxion::Index>* projected = system.projected_dofs();
    bool all_finite = false;
    if (mass != nullptr && projected != nullptr) {
      const UnprojectedAcceleration acceleration{force_.data(), massless_.data(), mass->data()};
      all_finite = UpdatePass(acceleration, h, s);
      if (!projected->empty())
        all_finite = RedoProjected(system, acceleration, *projected, h, s) && all_finite;
      if (!all_finite) all_finite = AllFinite(s);  // the first pass saw unprojected values
    } else {
      if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;
      all_finite = UpdatePass(StoredAcceleration{acceleration_.data()}, h, s);
    }
    StateBackedUp(all_finite);
    return fluxion::StepResult::Ok();
  }

  // a_i before P: 0 where the inverse mass is 0 (fixed or massless DOFs), else f_i / m_i — a
  // division, as the base's ComputeAcceleration and SOFA's accFromF.
  struct UnprojectedAcceleration {
    const double* force;
    const std::uint8_t* massless;
    const double* mass;
    double operator()(fluxion::Index i) const {
      return massless[i] != 0 ? 0.0 : force[i] / mass[i];
    }
  };
  struct StoredAcceleration {
    const double* a;
    double operator()(fluxion::Index i) const { return a[i]; }
  };

  // DOF i's update from its old values, as SOFA's EulerExplicitSolver orders it.
  template <bool kSymplectic>
  static void UpdateDof(double xi, double vi, double ai, double h, double& new_x, double& new_v) {
    if constexpr (kSymplectic) {
      new_v = vi + ai * h;     // velocity first ...
      new_x = xi + new_v * h;  // ... then the position with the new velocity
    } else {
      new_x = xi + vi * h;  // the position with the old velocity
      new_v = vi + ai * h;
    }
  }

  static bool IsFinite(double value) {  // its exponent bits are not all ones
    constexpr std::uint64_t kExponent = 0x7ff0000000000000ULL;
    return (std::bit_cast<std::uint64_t>(value) & kExponent) != kExponent;
  }

  // DOFs [begin, end): backup, update, and whether every new value is finite. Everything the
  // loop reads arrives by value, so it stays in registers while the loop stores to x and v.
  template <bool kSymplectic, class Acceleration>
  static bool UpdateRange(Acceleration acceleration, double h, double* x, double* v, double* old_x,
                          double* old_v, fluxion::Index begin, fluxion::Index end) {
    std::uint64_t bad = 0;  // no branch in the loop
    for (fluxion::Index i = begin; i < end; ++i) {
      const double xi = x[i], vi = v[i];
      old_x[i] = xi;
      old_v[i] = vi;
      double new_x, new_v;
      UpdateDof<kSymplectic>(xi, vi, acceleration(i), h, new_x, new_v);
      x[i] = new_x;
      v[i] = new_v;
      bad |= static_cast<std::uint64_t>(!IsFinite(new_x)) |
             static_cast<std::uint64_t>(!IsFinite(new_v));
    }
    return bad == 0;
  }

  // One pass over the DOFs, split over the threads (each DOF's update is independent). It reads
  // x and v anyway: it keeps the base's backup of them and checks the new values' finiteness,
  // for the base (BacksUpState). True when every new value is finite.
  template <class Acceleration>
  bool UpdatePass(Acceleration acceleration, double h, fluxion::State& s) {
    double* x = s.x.data();
    double* v = s.v.data();
    double* old_x = backup_x();
    double* old_v = backup_v();
    const bool symplectic = symplectic_;
    std::atomic<bool> all_finite{true};
    fluxion::ParallelFor(
        s.x.size(), fluxion::kVectorGrain,
        [=, &all_finite](fluxion::Index begin, fluxion::Index end) {
          const bool finite =
              symplectic ? UpdateRange<true>(acceleration, h, x, v, old_x, old_v, begin, end)
                         : UpdateRange<false>(acceleration, h, x, v, old_x, old_v, begin, end);
          if (!finite) all_finite.store(false, std::memory_order_relaxed);
        });
    return all_finite.load(std::memory_order_relaxed);
  }

  // The projected DOFs again, from their backed-up values, with P applied to their acceleration
  // (ProjectResponse reads and changes only the DOFs projected_dofs() lists). True when their
  // new values are finite.
  bool RedoProjected(const fluxion::MechanicalSystem& system,
                     const UnprojectedAcceleration& acceleration,
                     const std::vector<fluxion::Index>& projected, double h, fluxion::State& s) {
    for (const fluxion::Index i : projected) acceleration_[i] = acceleration(i);
    system.ProjectResponse(acceleration_);
    bool finite = true;
    for (const fluxion::Index i : projected) {
      if (symplectic_)
        UpdateDof<true>(backup_x()[i], backup_v()[i], acceleration_[i], h, s.x[i], s.v[i]);
      else
        UpdateDof<false>(backup_x()[i], backup_v()[i], acceleration_[i], h, s.x[i], s.v[i]);
      finite = finite && IsFinite(s.x[i]) && IsFinite(s.v[i]);
    }
    return finite;
  }

  static bool AllFinite(const fluxion::State& s) { return s.x.allFinite() && s.v.allFinite(); }

  bool BacksUpState() const override { return true; }

  bool symplectic_;
  fluxion::Vector force_, acceleration_;
  std::vector<std::uint8_t> massless_;
};

}  // namespace

FLUXION_PLUGIN("euler_explicit", "0.1.0") {
  registrar.AddSolver<EulerExplicitSolver>(
      EulerExplicitSolver::Spec(), {.order = 1,
                                    .flags = fluxion::kExplicitMethod | fluxion::kSymplecticMethod,
                                    .force_evaluations = 1,
                                    .linear_solves = 0});
}
