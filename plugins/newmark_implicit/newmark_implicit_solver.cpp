// NewmarkImplicitSolver — SOFA's Newmark-β scheme on the accelerations, one linear solve per step.
//
// Source: seed 004 §3 ("Newmark solver"); SOFA NewmarkImplicitSolver (sofa-notes §1.3, operation
// order in sofa-semantics §10). In Fluxion's convention K = −∂f/∂x and B = −∂f/∂v (SOFA's K and B
// are +∂f/∂x, +∂f/∂v, so every K and B factor below has SOFA's sign flipped). With the stored
// acceleration a_n (a_0 = P·M⁻¹·f(x_0, v_0) on the first step), f = f(x_n, v_n), K and B at
// (x_n, v_n), and P the projection of fixed DOFs:
//
//   b = f − [h(1−γ)·rM·M + h(1−γ)·B + (h(1−γ)·rK + h²(1−2β)/2)·K]·a_n     (see quirk 2)
//         − [rM·M + B + (rK + h)·K]·v_n                                     (see quirk 1)
//   A = P[ (1 + hγ·rM)·M + hγ·B + (h²β + hγ·rK)·K ]P,    A·a_{n+1} = P·b
//   x_{n+1} = x_n + h·v_n + h²(½ − β)·a_n + h²β·a_{n+1}
//   v_{n+1} = v_n + h(1 − γ)·a_n + hγ·a_{n+1},   then v_{n+1} ← v_{n+1}·exp(−h·vdamping)
//
// Order 2 for γ = ½ (order 1 otherwise). With the defaults γ = ½, β = ¼ (the trapezoidal rule,
// "average acceleration") it is unconditionally stable and conserves the energy of undamped linear
// systems: the one-step amplification has |λ| = 1 and phase 2·atan(ωh/2) (phase error O(h²)).
// Unconditional stability needs 2β ≥ γ ≥ ½.
//
// SOFA behaviours reproduced:
//  1. The v-term contains 1·B·v_n: the double counting PR #4848 removed from EulerImplicitSolver
//     (the dashpot force is already in f). It only matters when a field provides B.
//  2. The a_n-term block (B part included) is added only when rM ≠ 0, rK ≠ 0 or β ≠ ½; with the
//     default β = ¼ it is always there.
//  3. The seed's Newmark text writes Fext_k without the B terms; SOFA's (and this) form has them.
// Deliberate deviation: SOFA computes a_0 once per solver object (`cpt` is never reset); Fluxion
// recomputes it whenever the solver is (re)initialised or told that the state was set from outside
// (Solver::InvalidateHistory), which is what a restart means here.
// vdamping is applied to v_{n+1} only: the stored a_{n+1} is not damped, as in SOFA.
#include <fluxion/implicit_system.h>
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

#include <cmath>

namespace {

using fluxion::FieldSpec;
using fluxion::RayleighCoefficients;

class NewmarkImplicitSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {
        .name = "NewmarkImplicitSolver",
        .kind = fluxion::ComponentKind::kOdeSolver,
        .summary =
            "Implicit Newmark-β scheme (trapezoidal rule by default), one linear solve per step",
        .fields = {RayleighCoefficients::StiffnessField(), RayleighCoefficients::MassField(),
                   FieldSpec::Real(
                       "vdamping", 0.0,
                       "velocity decay: v is multiplied by exp(−h·vdamping) after each step [1/s]")
                       .AtLeast(0),
                   FieldSpec::Real("gamma", 0.5,
                                   "Newmark γ: weight of a_{n+1} in the velocity update")
                       .AtLeast(0),
                   FieldSpec::Real("beta", 0.25,
                                   "Newmark β: weight of a_{n+1} in the position update")
                       .GreaterThan(0)},
        .aliases = {}};
  }

  explicit NewmarkImplicitSolver(const fluxion::Parameters& p)
      : rayleigh_stiffness_(p.real("rayleighStiffness")),
        rayleigh_mass_(p.real("rayleighMass")),
        velocity_damping_(p.real("vdamping")),
        gamma_(p.real("gamma")),
        beta_(p.real("beta")) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    implicit_.Initialize(system, linear_solver());
    force_.setZero(n);
    rhs_.setZero(n);
    product_.setZero(n);
    acceleration_.setZero(n);
    new_acceleration_.setZero(n);
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    implicit_.FollowSystemChange(change);
    for (fluxion::Vector* v : {&force_, &rhs_, &product_, &acceleration_, &new_acceleration_})
      fluxion::FollowRemovedBlocks(change, *v);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    const double g = gamma_, beta = beta_, r_m = rayleigh_mass_, r_k = rayleigh_stiffness_;
    const bool use_damping = system.has_damping_matrix();

    // a_0 = P·M⁻¹·f(x_0, v_0) when starting up. The history slot serves as a_n: without a valid
    // history there is nothing in it to keep, and a rejected step recomputes it from the same
    // state.
    if (!history_valid()) {
      system.ComputeForce(s, force_);
      if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;
    }

    // Right-hand side b = f + (a_n-terms) + (v_n-terms), K and B at the start of the step.
    system.ComputeForce(s, rhs_);
    implicit_.AssembleStiffness(s);
    if (use_damping) implicit_.AssembleDamping(s);
    if (r_m != 0.0 || r_k != 0.0 || beta != 0.5) {
      implicit_.MultiplyMass(acceleration_, product_);
      rhs_ += (-h * (1 - g) * r_m) * product_;
      if (use_damping) {
        implicit_.MultiplyDamping(acceleration_, product_);
        rhs_ += (-h * (1 - g)) * product_;
      }
      implicit_.MultiplyStiffness(acceleration_, product_);
      rhs_ += (-(h * (1 - g) * r_k + h * h * (1 - 2 * beta) / 2.0)) * product_;
    }
    implicit_.MultiplyMass(s.v, product_);
    rhs_ += (-r_m) * product_;
    if (use_damping) {  // SOFA's B(1) factor: subtracted once more although f holds the damping
      implicit_.MultiplyDamping(s.v, product_);
      rhs_ -= product_;
    }
    implicit_.MultiplyStiffness(s.v, product_);
    rhs_ += (-(r_k + h)) * product_;
    system.ProjectResponse(rhs_);

    // A·a_{n+1} = b (B enters A only when the system has a damping matrix, as use_damping says).
    if (auto r = implicit_.Factorize(1 + h * g * r_m, h * g, h * h * beta + h * r_k * g);
        !r.accepted())
      return r;
    fluxion::StepResult solved = implicit_.Solve(rhs_, new_acceleration_);  // Ok or NotConverged
    if (!solved.accepted()) return solved;

    // Position first (it uses v_n), then velocity; SOFA's left-to-right accumulation.
    s.x += s.v * h;
    s.x += acceleration_ * (h * h * (0.5 - beta));
    s.x += new_acceleration_ * (h * h * beta);
    s.v += acceleration_ * (h * (1 - g));
    s.v += new_acceleration_ * (h * g);
    if (velocity_damping_ != 0.0) s.v *= std::exp(-h * velocity_damping_);
    // a_{n+1} is committed by DoCommit. No finiteness check here: a non-finite a_{n+1} makes
    // x_{n+1} non-finite (x += h²β·a_{n+1}, and ∞·w, NaN·w are never finite), which the base
    // rejects.
    return solved;
  }

  // The step is accepted: a_{n+1} becomes the stored acceleration.
  void DoCommit(const fluxion::MechanicalSystem& /*system*/, double /*h*/,
                const fluxion::State& /*state*/) override {
    acceleration_.swap(new_acceleration_);
  }

  double rayleigh_stiffness_;
  double rayleigh_mass_;
  double velocity_damping_;
  double gamma_;
  double beta_;
  fluxion::ImplicitSystem implicit_;
  fluxion::Vector force_, rhs_, product_;
  fluxion::Vector acceleration_;      // a_n (history, valid when history_valid())
  fluxion::Vector new_acceleration_;  // a_{n+1} of the step being taken
};

}  // namespace

FLUXION_PLUGIN("newmark_implicit", "0.1.0") {
  registrar.AddSolver<NewmarkImplicitSolver>(
      NewmarkImplicitSolver::Spec(),
      {.order = 2,
       .flags = fluxion::kImplicitMethod | fluxion::kNeedsLinearSolver | fluxion::kHasHistory,
       .force_evaluations = 1,
       .linear_solves = 1});
}
