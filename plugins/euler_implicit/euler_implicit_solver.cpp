// EulerImplicitSolver — SOFA's linearised backward Euler (Baraff & Witkin 1998), one linear solve
// per step, no Newton loop.
//
// Source: seed 004 §2.2 ("EulerImplicit solver"); SOFA EulerImplicitSolver (sofa-notes §1.2,
// operation order in sofa-semantics §10). In Fluxion's convention K = −∂f/∂x and B = −∂f/∂v
// (SOFA's K and B are +∂f/∂x, +∂f/∂v, so every K and B factor below has SOFA's sign flipped).
// With f = f(x_n, v_n) (springs' dashpots and damping force fields included), τ = 1, or ½ with
// trapezoidalScheme, and P the projection of fixed DOFs:
//
//   b  = P·h·( f − rM·M·v_n − (τh + rK)·K·v_n )
//   A  = P[ (1 + τh·rM)·M + τh·B + τh(τh + rK)·K ]P      (B only when a field provides it)
//   A·Δv = b,   v_{n+1} = v_n + Δv,   x_{n+1} = x_n + h·v_{n+1}
//   then v_{n+1} ← v_{n+1}·exp(−h·vdamping) when vdamping ≠ 0 (after x: it acts from the next step)
//
// firstOrder = 1 (first-order ODE M·ẋ = f): b = P·f, A = P[M + τh·K]P, v_{n+1} = solution,
// x_{n+1} = x_n + h·v_{n+1}; Rayleigh damping and B are ignored, as in SOFA.
//
// Order 1 (linearised backward Euler). The trapezoidal variant is first order too, although SOFA's
// field description promises second order: its velocity update is the trapezoidal rule's, but the
// position still advances with v_{n+1} instead of (v_n + v_{n+1})/2. Unconditionally stable on
// linear systems, with numerical damping of order ω²h per unit time (the amplitude of an undamped
// oscillator decays like exp(−ω²h·t/2)).
//
// SOFA behaviours reproduced:
//  - No B·v term in b (SOFA PR #4848): damping forces are already in f; B enters only A.
//  - trapezoidalScheme is the corrected form of SOFA PR #5169: τ in both K factors, the RHS mass
//    term stays −rM (no τ). The seed's formula (τ = 1 only) is the default case.
//  - The seed writes x_{k+1} = x_k + h·v_k; SOFA (and this solver) uses the new velocity v_{n+1}.
//  - solveConstraint is accepted and has no effect (Fluxion has no Lagrangian constraint solvers).
// Deliberate deviation: computeResidual reports ‖P·[M(v_{n+1} − v_n) − h·f(x_{n+1}, v_{n+1})]‖²
// (squared, as SOFA's `residual`). SOFA's code reads v_n from the velocity vector it has already
// overwritten, so its M·(v_{n+1} − v_n) term is always zero; Fluxion computes the documented
// residual instead. The Rayleigh terms are not part of it, as in SOFA.
#include <fluxion/implicit_system.h>
#include <fluxion/log.h>
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

using fluxion::FieldSpec;
using fluxion::RayleighCoefficients;

class EulerImplicitSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {
        .name = "EulerImplicitSolver",
        .kind = fluxion::ComponentKind::kOdeSolver,
        .summary = "Linearised backward Euler (one linear solve per step) with Rayleigh damping",
        .fields = {RayleighCoefficients::StiffnessField(), RayleighCoefficients::MassField(),
                   FieldSpec::Real(
                       "vdamping", 0.0,
                       "velocity decay: v is multiplied by exp(−h·vdamping) after each step [1/s]")
                       .AtLeast(0),
                   FieldSpec::Bool(
                       "firstOrder", false,
                       "solve the first-order system M·dx/dt = f (Rayleigh damping ignored)"),
                   FieldSpec::Bool(
                       "trapezoidalScheme", false,
                       "use τ = ½ in the stiffness terms (SOFA's corrected trapezoidal variant)"),
                   FieldSpec::Bool(
                       "solveConstraint", false,
                       "SOFA option for Lagrangian constraint solvers: accepted, no effect"),
                   FieldSpec::Bool("computeResidual", false,
                                   "report ‖P·[M(v_{n+1} − v_n) − h·f(x_{n+1}, v_{n+1})]‖² as the "
                                   "output 'residual' (costs one more force evaluation)")},
        .aliases = {"EulerImplicit", "ImplicitEulerSolver", "ImplicitEuler"}};
  }

  explicit EulerImplicitSolver(const fluxion::Parameters& p)
      : rayleigh_stiffness_(p.real("rayleighStiffness")),
        rayleigh_mass_(p.real("rayleighMass")),
        velocity_damping_(p.real("vdamping")),
        first_order_(p.flag("firstOrder")),
        tau_(p.flag("trapezoidalScheme") ? 0.5 : 1.0),
        compute_residual_(p.flag("computeResidual")) {
    if (first_order_ && (rayleigh_stiffness_ != 0.0 || rayleigh_mass_ != 0.0))
      fluxion::LogWarn(
          "EulerImplicitSolver: rayleighStiffness and rayleighMass are ignored with firstOrder=1 "
          "(as in SOFA)");
  }

  std::vector<std::string> OutputNames() const override {
    if (compute_residual_) return {"residual"};
    return {};
  }
  void ReadOutputs(double* values) const override {
    if (compute_residual_) values[0] = residual_;
  }

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    // Matrices share the system's pattern (obtained once); vectors are sized once.
    const fluxion::Index n = system.num_dofs();
    implicit_.Initialize(system, linear_solver());
    force_.setZero(n);
    rhs_.setZero(n);
    increment_.setZero(n);
    product_.setZero(n);
    start_velocity_.setZero(n);
    residual_ = std::numeric_limits<double>::max();  // SOFA's initial value
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    implicit_.FollowSystemChange(change);
    for (fluxion::Vector* v : {&force_, &rhs_, &increment_, &product_, &start_velocity_})
      fluxion::FollowRemovedBlocks(change, *v);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    const double th = tau_ * h;
    const bool use_damping = !first_order_ && system.has_damping_matrix();
    if (compute_residual_) start_velocity_ = s.v;

    // Right-hand side: f at the start of the step, plus the Rayleigh and stiffness terms in v.
    system.ComputeForce(s, force_);
    implicit_.AssembleStiffness(s);  // K at (x_n, v_n), as SOFA's dfdx of this addForce
    rhs_ = force_;
    if (!first_order_) {
      implicit_.MultiplyMass(s.v, product_);
      rhs_ += (-rayleigh_mass_) * product_;
      implicit_.MultiplyStiffness(s.v, product_);
      rhs_ += (-(th + rayleigh_stiffness_)) * product_;
      rhs_ *= h;
    }
    system.ProjectResponse(rhs_);

    // System matrix A = m·M + b·B + k·K, projected, then one linear solve.
    if (use_damping) implicit_.AssembleDamping(s);
    const double mass_factor = first_order_ ? 1.0 : 1.0 + th * rayleigh_mass_;
    const double damping_factor = use_damping ? th : 0.0;
    const double stiffness_factor = first_order_ ? th : th * (th + rayleigh_stiffness_);
    if (auto r = implicit_.Factorize(mass_factor, damping_factor, stiffness_factor); !r.accepted())
      return r;
    fluxion::StepResult solved = implicit_.Solve(rhs_, increment_);  // Ok or NotConverged: kept
    if (!solved.accepted()) return solved;

    // Update: the velocity first, then the position with the new velocity.
    if (first_order_) {
      s.v = increment_;
    } else {
      s.v += increment_;
    }
    s.x += s.v * h;
    if (velocity_damping_ != 0.0) s.v *= std::exp(-h * velocity_damping_);

    // Optional residual of the (unlinearised) backward Euler equation at the new state, reported
    // once the step is accepted (DoCommit).
    if (compute_residual_) {
      start_velocity_ = s.v - start_velocity_;
      implicit_.MultiplyMass(start_velocity_, product_);
      system.ComputeForce(s, force_);
      product_ += (-h) * force_;
      system.ProjectResponse(product_);
      new_residual_ = product_.squaredNorm();
    }
    return solved;
  }

  // The output describes the last accepted step only.
  void DoCommit(const fluxion::MechanicalSystem& /*system*/, double /*h*/,
                const fluxion::State& /*state*/) override {
    if (compute_residual_) residual_ = new_residual_;
  }

  double rayleigh_stiffness_;
  double rayleigh_mass_;
  double velocity_damping_;
  bool first_order_;
  double tau_;  // 1, or ½ for the trapezoidal scheme
  bool compute_residual_;
  double residual_ = std::numeric_limits<double>::max();
  double new_residual_ = 0.0;  // of the step being taken
  fluxion::ImplicitSystem implicit_;
  fluxion::Vector force_, rhs_, increment_, product_, start_velocity_;
};

}  // namespace

FLUXION_PLUGIN("euler_implicit", "0.1.0") {
  registrar.AddSolver<EulerImplicitSolver>(
      EulerImplicitSolver::Spec(), {.order = 1,
                                    .flags = fluxion::kImplicitMethod | fluxion::kNeedsLinearSolver,
                                    .force_evaluations = 1,
                                    .linear_solves = 1});
}
