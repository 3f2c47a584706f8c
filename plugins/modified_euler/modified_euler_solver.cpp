// ModifiedEulerSolver — Howe's modified Euler: positions and accelerations at integer steps,
// velocities at half-integer steps, one force evaluation per step.
//
// Source: seed 002 (Howe) eqs. 2–4, Table 1, eqs. 15–16 and 24–27, start-up as in §4. With
// A(t, D, V) = P·M⁻¹·[f(t, D, V) − rM·M·V − rK·K(D)·V] and V̂_n an estimate of V at t_n:
//
//   V_{n+½} = V_{n−½} + h·A(t_n, D_n, V̂_n),     D_{n+1} = D_n + h·V_{n+½}          (eq. 4)
//
// velocityEstimate (Table 1):
//   euler        V̂_n = V_{n−½}
//   ab2          V̂_n = 3/2·V_{n−½} − 1/2·V_{n−3/2}
//   predictor    V̂_n = V_{n−½} + h·(7/8·A_{n−1} − 3/8·A_{n−2})   (default: Howe's most accurate)
//   trapezoidal  V̂_n = ½(V_{n+½} + V_{n−½}), made explicit as in eq. 27 by linearising A in V
//                about V_{n−½} with c = diag(−∂A/∂V) = diag(B + rM·M + rK·K)/diag(M) (Howe §5:
//                "simple formulas … involving only the diagonal terms"):
//                V_{n+½} = V_{n−½} + h·A(t_n, D_n, V_{n−½}) / (1 + h·c/2)   per DOF
//                (exact eqs. 15–16 for mass-proportional or uniform velocity damping). B is the
//                damping matrix a force field declares (UniformVelocityDampingForceField
//                implicit="1", exactDampingJacobian="1"); other dashpots get the Euler estimate.
//
// Start-up (Howe §4): the first step, any step after the host set the state
// (Solver::InvalidateHistory) and any step whose h changed starts from the given (D_n, V_n):
// A_n = A(t_n, D_n, V_n) exactly, V_{n+½} = V_n + (h/2)·A_n (a half step), with
// V_{n−½} := V_n − (h/2)·A_n and A_{n−1} := A_n.
//
// Reported state: D at integer steps and, as velocity, the chosen estimate V̂_{n+1} (computed from
// the history: it is exactly the V̂ the next step uses). The half-step velocities V_{n±½} and
// A_{n−1} are kept internally. The trapezoidal estimate V̂_{n+1} = V_{n+½} + (h/2)·A(t_{n+1},
// D_{n+1}, V_{n+½})/(1 + h·c/2) needs a second force evaluation per step (not reused by the next
// step: forces may change between steps, e.g. SOFA's externalForce).
//
// Second order (e_I = 1/24, Table 2: the smallest of the second-order methods). With no velocity
// dependence this is the leapfrog / Störmer–Verlet scheme: z² − (2 − Φ²)z + 1 = 0 on the undamped
// oscillator, |z| = 1 for every Φ = ω·h < 2 (zero numerical damping, Howe §5), symplectic.
//
// Discrepancies in the paper: the difference equation before eq. 15 prints −ζω_n(V_{n+½} + V_{n−½})
// without the factor h (and calls the estimate V̂_{n+1} where eq. 4 uses V̂_n); eqs. 15–16
// (C1 = (1 − ζω_n h)/(1 + ζω_n h), C2 = ω_n²h/(1 + ζω_n h)) are derived with h, and so is this
// solver. Rayleigh damping is not in Howe.
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

#include <string>

namespace {

using fluxion::FieldSpec;
using fluxion::RayleighCoefficients;

enum class Estimate { kEuler, kAb2, kTrapezoidal, kPredictor };

class ModifiedEulerSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "ModifiedEulerSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary =
                "Howe's modified Euler: velocities at half steps, one force evaluation, "
                "second order with zero numerical damping",
            .fields = {FieldSpec::Choice("velocityEstimate", "predictor",
                                         {"euler", "ab2", "trapezoidal", "predictor"},
                                         "integer-step velocity estimate for velocity-dependent "
                                         "forces and for the reported velocity (Howe's Table 1)"),
                       RayleighCoefficients::MassField(), RayleighCoefficients::StiffnessField()},
            .aliases = {}};
  }

  explicit ModifiedEulerSolver(const fluxion::Parameters& p)
      : estimate_(ParseEstimate(p.text("velocityEstimate"))),
        rayleigh_mass_(p.real("rayleighMass")),
        rayleigh_stiffness_(p.real("rayleighStiffness")) {}

 private:
  static Estimate ParseEstimate(const std::string& name) {
    if (name == "euler") return Estimate::kEuler;
    if (name == "ab2") return Estimate::kAb2;
    if (name == "trapezoidal") return Estimate::kTrapezoidal;
    return Estimate::kPredictor;  // the Choice field admits nothing else
  }

  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    for (fluxion::Vector* v : {&force_, &product_, &acceleration_, &previous_acceleration_,
                               &half_velocity_, &new_half_velocity_, &start_half_velocity_,
                               &next_acceleration_, &divisor_, &stage_.x, &stage_.v})
      v->setZero(n);
    // 1/M_ii (0 for massless or fixed DOFs), for the diagonal velocity Jacobian.
    inverse_mass_diagonal_ = system.mass().diagonal();
    for (fluxion::Index i = 0; i < n; ++i)
      inverse_mass_diagonal_[i] =
          inverse_mass_diagonal_[i] > 0 ? 1.0 / inverse_mass_diagonal_[i] : 0;
    if (rayleigh_stiffness_ > 0) stiffness_ = system.CreateMatrix();
    if (estimate_ == Estimate::kTrapezoidal && system.has_damping_matrix())
      damping_ = system.CreateMatrix();
  }

  // A = P·M⁻¹·[f(t, D, V) − rM·M·V − rK·K(D)·V] at `at`; with rK > 0 it leaves K(D) in stiffness_.
  fluxion::StepResult Acceleration(const fluxion::MechanicalSystem& system,
                                   const fluxion::State& at, fluxion::Vector& a) {
    system.ComputeForce(at, force_);
    if (rayleigh_mass_ > 0) {
      product_.noalias() = system.mass() * at.v;
      force_ -= rayleigh_mass_ * product_;
    }
    if (rayleigh_stiffness_ > 0) {
      system.AssembleStiffness(at, stiffness_);
      product_.noalias() = stiffness_ * at.v;
      force_ -= rayleigh_stiffness_ * product_;
    }
    return ComputeAcceleration(system, force_, a);
  }

  // Trapezoidal damping (eq. 27, diagonal form): a /= 1 + (h/2)·c with c = diag(−∂A/∂V) at `at`,
  // right after Acceleration(at) (which left K(at) in stiffness_ when rK > 0).
  fluxion::StepResult TrapezoidalDamping(const fluxion::MechanicalSystem& system,
                                         const fluxion::State& at, double h, fluxion::Vector& a) {
    divisor_.setConstant(rayleigh_mass_);
    if (rayleigh_stiffness_ > 0)
      divisor_ += rayleigh_stiffness_ * stiffness_.diagonal().cwiseProduct(inverse_mass_diagonal_);
    if (system.has_damping_matrix()) {
      system.AssembleDamping(at, damping_);
      divisor_ += damping_.diagonal().cwiseProduct(inverse_mass_diagonal_);
    }
    divisor_.array() = 1.0 + (0.5 * h) * divisor_.array();
    if (divisor_.size() > 0 && !(divisor_.minCoeff() > 0))  // an empty system has no factor
      return fluxion::StepResult::Failure(
          "ModifiedEulerSolver: trapezoidal damping factor 1 + h·c/2 is not positive (negative "
          "velocity Jacobian; use another velocityEstimate)");
    a.array() /= divisor_.array();
    return fluxion::StepResult::Ok();
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    const bool trapezoidal = estimate_ == Estimate::kTrapezoidal;
    // The history is valid only for the state this solver left, with the same step size. It is
    // only read here: the start-up values go to scratch, since the step may still be rejected.
    const bool continues = history_valid() && h == last_h_;
    const fluxion::Vector* half_velocity = &half_velocity_;                  // V_{n−½}
    const fluxion::Vector* previous_acceleration = &previous_acceleration_;  // A_{n−1}
    if (!continues) {
      // Howe's start-up: A_n at the given velocity, then V_{n+½} = V_n + (h/2)·A_n below.
      if (auto r = Acceleration(system, s, acceleration_); !r.accepted()) return r;
      start_half_velocity_ = s.v - acceleration_ * (0.5 * h);  // V_{n−½} := V_n − (h/2)·A_n
      half_velocity = &start_half_velocity_;
      previous_acceleration = &acceleration_;  // A_{n−1} := A_n
    } else if (trapezoidal) {
      // A at (D_n, V_{n−½}) with the damping treated by the trapezoidal rule (eq. 27).
      stage_.time = s.time;
      stage_.x = s.x;
      stage_.v = half_velocity_;
      if (auto r = Acceleration(system, stage_, acceleration_); !r.accepted()) return r;
      if (auto r = TrapezoidalDamping(system, stage_, h, acceleration_); !r.accepted()) return r;
    } else {
      // s.v is the estimate V̂_n this solver reported at the end of the previous step.
      if (auto r = Acceleration(system, s, acceleration_); !r.accepted()) return r;
    }

    // Eq. 4: the half-step velocity, then the integer-step position.
    new_half_velocity_ = *half_velocity + acceleration_ * h;
    s.x += new_half_velocity_ * h;

    // The reported velocity: the estimate V̂_{n+1} (Table 1) from the history.
    switch (estimate_) {
      case Estimate::kEuler:
        s.v = new_half_velocity_;
        break;
      case Estimate::kAb2:
        s.v = new_half_velocity_ * 1.5 - *half_velocity * 0.5;
        break;
      case Estimate::kPredictor:
        s.v = new_half_velocity_ + (acceleration_ * 0.875 - *previous_acceleration * 0.375) * h;
        break;
      case Estimate::kTrapezoidal:
        // ½(V_{n+½} + V_{n+3/2}), V_{n+3/2} from A at (D_{n+1}, V_{n+½}) as the next step will.
        stage_.time = s.time + h;
        stage_.x = s.x;
        stage_.v = new_half_velocity_;
        if (auto r = Acceleration(system, stage_, next_acceleration_); !r.accepted()) return r;
        if (auto r = TrapezoidalDamping(system, stage_, h, next_acceleration_); !r.accepted())
          return r;
        s.v = new_half_velocity_ + next_acceleration_ * (0.5 * h);
        break;
    }
    return fluxion::StepResult::Ok();
  }

  // The step is accepted: V_{n+½} and A_n become the next step's V_{n−½} and A_{n−1}.
  void DoCommit(const fluxion::MechanicalSystem& /*system*/, double h,
                const fluxion::State& /*state*/) override {
    half_velocity_.swap(new_half_velocity_);
    previous_acceleration_.swap(acceleration_);
    last_h_ = h;
  }

  Estimate estimate_;
  double rayleigh_mass_;
  double rayleigh_stiffness_;
  fluxion::SparseMatrix stiffness_, damping_;
  fluxion::Vector inverse_mass_diagonal_, divisor_;
  fluxion::Vector force_, product_, acceleration_, next_acceleration_;
  fluxion::Vector half_velocity_, new_half_velocity_;  // V_{n−½} (history), V_{n+½}
  fluxion::Vector start_half_velocity_;                // V_{n−½} of a start-up step (scratch)
  fluxion::Vector previous_acceleration_;              // A_{n−1} (history)
  fluxion::State stage_;
  double last_h_ = 0.0;  // the step that made the history
};

}  // namespace

FLUXION_PLUGIN("modified_euler", "0.1.0") {
  registrar.AddSolver<ModifiedEulerSolver>(
      ModifiedEulerSolver::Spec(),
      {.order = 2,
       .flags = fluxion::kExplicitMethod | fluxion::kSymplecticMethod | fluxion::kHasHistory,
       .force_evaluations = 1,
       .linear_solves = 0});
}
