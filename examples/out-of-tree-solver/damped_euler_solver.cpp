// DampedEulerSolver — Hoffmann's "Damped Euler": forward Euler with an artificial damping that
// makes the undamped oscillator's numerical solution neither grow nor decay.
//
// Source: seed 000 (G. Hoffmann, "Simple Integration Algorithms") §6 "Damped Euler". Hoffmann
// writes the homogeneous harmonic oscillator in scaled variables (y the position, v the velocity
// divided by ω₀, T the step, Φ = ω₀T) and adds an artificial damping D:
//
//   v̇ = −ω₀(2D·v + y)            dv = −ω₀T(2D·v + y) = −Φ(2D·v + y)
//   ẏ = ω₀·v                     dy = ω₀T·v = Φ·v
//
//   v = v + dv = v − Φ(2D·v + y)
//   y = y + dy = y + Φ·v          (both right-hand sides use the values of the previous step:
//                                  v = (1 − Φ2D)·v·z⁻¹ − Φ·y·z⁻¹,  y = Φ·v·z⁻¹ + y·z⁻¹)
//
//   characteristic equation  z² − 2(1 − DΦ)z + (1 − 2DΦ + Φ²) = 0,   r₁² = 1 − 2DΦ + Φ²
//
// and chooses D = 0.5·Φ, so that r₁² = 1: a harmonic sample sequence whose frequency is too high,
// tan Ψ = Φ(1 − Φ²/4)^0.5 / (1 − Φ²/2), Ψ ≈ Φ(1 + Φ²/24).
//
// In physical units (velocity ω₀·v) one step of the method is
//
//   x_{n+1} = x_n + h·v_n
//   v_{n+1} = v_n + h·(a_n − 2D·ω₀·v_n),      a_n = −ω₀²·(x_n − x_eq).
//
// On a mechanical system M·a = f(t, x, v) with tangent stiffness K = −∂f/∂x this solver applies
// the artificial drag −c·K(x_n)·v_n (stiffness-proportional), which gives every undamped mode ω the
// damping 2D_ω·ω with D_ω = c·ω/2, and Hoffmann's scalar drag on a one-mode system:
//
//   x_{n+1} = x_n + h·v_n
//   v_{n+1} = v_n + h·P·M⁻¹·(f(t_n, x_n, v_n) − c·K(x_n)·v_n)        (P projects fixed DOFs)
//
//   default:                       c = h, i.e. D = Φ/2 = ω·h/2 for every mode at once (Hoffmann)
//   dampingRatio = D, omega = ω₀:  c = 2D/ω₀, i.e. D at ω₀ (and D·ω/ω₀ at ω)
//
// First order (the drag is O(h)); explicit, one force evaluation and one stiffness assembly per
// step. Stability: by default every mode has r = 1 while Φ = ω·h < 2 (False Euler's limit; its
// characteristic equation is the same) and is unstable beyond; with a fixed c all roots are inside
// the unit circle iff h < c and ω_max²·h·(2c − h) < 4. Real forces (springs' dashpots, damping
// fields) act through f at v_n, as Hoffmann's drag does.
//
// Deviation: Hoffmann's D is a scalar for one oscillator; the stiffness-proportional drag is this
// example's generalisation to many DOFs (for one mode it is exactly his method).
#include <fluxion/errors.h>
#include <fluxion/plugin.h>

#include <optional>
#include <string>

namespace {

class DampedEulerSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {
        .name = "DampedEulerSolver",
        .kind = fluxion::ComponentKind::kOdeSolver,
        .summary = "Forward Euler with Hoffmann's artificial damping (D = h·ω/2 by default)",
        .fields = {fluxion::FieldSpec::OptionalReal(
                       "dampingRatio",
                       "Hoffmann's artificial damping D at the angular frequency omega; "
                       "absent: D = Φ/2 = ω·h/2 for every mode")
                       .AtLeast(0.0),
                   fluxion::FieldSpec::OptionalReal(
                       "omega", "[rad/s] the angular frequency ω₀ at which dampingRatio applies")
                       .GreaterThan(0.0)},
        .aliases = {}};
  }

  explicit DampedEulerSolver(const fluxion::Parameters& p) {
    // D is defined at a frequency: the two fields come together or not at all.
    if (p.has("dampingRatio") != p.has("omega")) {
      const std::string missing = p.has("dampingRatio") ? "omega" : "dampingRatio";
      throw fluxion::ConfigError(
          missing, "dampingRatio and omega must be given together ('" + missing + "' is missing)");
    }
    if (p.has("dampingRatio")) drag_time_ = 2.0 * p.real("dampingRatio") / p.real("omega");
  }

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    force_.setZero(n);
    acceleration_.setZero(n);
    drag_.setZero(n);
    stiffness_ = system.CreateMatrix();  // the common pattern, refilled every step
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    const double c = drag_time_.value_or(h);  // c = h  <=>  D = Φ/2 for every mode

    // The force at the start of the step, minus the artificial drag c·K(x_n)·v_n.
    system.ComputeForce(s, force_);
    if (c > 0.0) {
      system.AssembleStiffness(s, stiffness_);
      drag_.noalias() = stiffness_ * s.v;
      force_ -= c * drag_;
    }
    if (auto r = ComputeAcceleration(system, force_, acceleration_); !r.accepted()) return r;

    // Forward Euler: the position moves with the velocity of step n, then the velocity is updated.
    s.x += h * s.v;
    s.v += h * acceleration_;
    return fluxion::StepResult::Ok();
  }

  std::optional<double> drag_time_;  // c [s]; empty: c = h
  fluxion::Vector force_, acceleration_, drag_;
  fluxion::SparseMatrix stiffness_;
};

}  // namespace

FLUXION_PLUGIN("damped_euler", "1.0.0") {
  registrar.AddSolver<DampedEulerSolver>(
      DampedEulerSolver::Spec(),
      {.order = 1, .flags = fluxion::kExplicitMethod, .force_evaluations = 1, .linear_solves = 0});
}
