// TrapezoidalSolver — the implicit trapezoidal rule on (x, v): Fazarinc's a = b = ½ form.
//
// Source: seed 003 (Fazarinc) eqs. 14–15 with a = b = ½ (eq. 18), i.e. eq. 19, and eq. 21 for
// general forces; Howe (seed 002) Table 2 "trapezoidal" (e_I = −1/12, k = 2). With the force
// g(x, v) = f(t, x, v) − rM·M·v − rK·K(x)·v (Rayleigh damping) and P the projection of fixed DOFs:
//
//   M·(v_{n+1} − v_n) = (h/2)·P·[g(x_n, v_n) + g(x_{n+1}, v_{n+1})]
//   x_{n+1} = x_n + (h/2)·(v_n + v_{n+1})
//
// Solved for Δv = v_{n+1} − v_n by Newton's method (x_{n+1} eliminated), from Δv = 0, with a fresh
// tangent at every iterate (x_k, v_k):
//   r_k = P[M·Δv_k − (h/2)(g_n + g(x_k, v_k))]
//   J_k = P[(1 + (h/2)rM)·M + (h/2)·B_k + (h²/4 + (h/2)rK)·K_k]P,   J_k·δ = −r_k,   Δv += δ
// until ‖r_k‖ ≤ newtonTolerance·(‖P·M·Δv_k‖ + (h/2)(‖P·g_n‖ + ‖P·g_k‖)), at most newtonIterations
// solves. On a linear system J is exact: one linear solve, then the residual check passes. Not
// converging is reported as kNotConverged (the last iterate is kept). B enters J only when a force
// field provides it; the Rayleigh term's ∂K/∂x·v is left out of J (quasi-Newton there).
//
// Second order, implicit, A-stable. Undamped oscillator (Φ = ω·h): z = (1 + jΦ/2)/(1 − jΦ/2), so
// r = 1 (no amplitude error, Fazarinc's B = 1) and Ψ = 2·atan(Φ/2), i.e. tan Ψ = Φ/(1 − Φ²/4);
// the energy of a linear undamped system is conserved exactly. Cost per step: one force
// evaluation at the start, one per residual (iterations + 1), and per iteration one stiffness
// (and damping) assembly, factorisation and solve; a linear system takes exactly one solve.
//
// Discrepancy in the paper: eq. 20 prints tan(ΩΔt) = ωΔt/√(1 − ω²Δt²/4) (also in the text before
// Fig. 9), but his own closed form APP7 with a = b = ½ gives tan(ΩΔt) = ωΔt·√(1 − 0)/(1 − (a + b −
// 2ab)ω²Δt²/2) = ωΔt/(1 − ω²Δt²/4). The derivation is right (it is the exact eigenvalue above);
// this solver's tests check it. Eq. 20's sine amplitude v(0)/Ω should likewise be v(0)/ω (APP7),
// and eq. 17 prints (b − a)/4 where APP7 has (b − a)/2; neither matters at a = b.
#include <fluxion/implicit_system.h>
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

#include <cmath>

#include <string>

namespace {

using fluxion::FieldSpec;
using fluxion::RayleighCoefficients;

class TrapezoidalSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {
        .name = "TrapezoidalSolver",
        .kind = fluxion::ComponentKind::kOdeSolver,
        .summary =
            "Implicit trapezoidal rule on x and v (Fazarinc's a = b = 1/2), Newton with a "
            "fresh tangent",
        .fields = {RayleighCoefficients::MassField(), RayleighCoefficients::StiffnessField(),
                   FieldSpec::Real("newtonTolerance", 1e-9,
                                   "Newton stops when the residual norm is at most this fraction "
                                   "of the size of its terms")
                       .GreaterThan(0),
                   FieldSpec::Integer(
                       "newtonIterations", 10,
                       "maximum number of Newton iterations (linear solves) per step")
                       .AtLeast(1)},
        .aliases = {}};
  }

  explicit TrapezoidalSolver(const fluxion::Parameters& p)
      : rayleigh_mass_(p.real("rayleighMass")),
        rayleigh_stiffness_(p.real("rayleighStiffness")),
        tolerance_(p.real("newtonTolerance")),
        max_iterations_(static_cast<int>(p.integer("newtonIterations"))) {}

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    for (fluxion::Vector* v : {&start_force_, &force_, &residual_, &increment_, &correction_,
                               &product_, &iterate_.x, &iterate_.v})
      v->setZero(n);
    implicit_.Initialize(system, linear_solver());
  }  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange).
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    implicit_.FollowSystemChange(change);
    for (fluxion::Vector* v : {&start_force_, &force_, &residual_, &increment_, &correction_,
                               &product_, &iterate_.x, &iterate_.v})
      fluxion::FollowRemovedBlocks(change, *v);
  }

  // g = P·[f(t, x, v) − rM·M·v − rK·K(x)·v]; with rK > 0 it leaves K(x) in implicit_.
  void Force(const fluxion::MechanicalSystem& system, const fluxion::State& at,
             fluxion::Vector& g) {
    system.ComputeForce(at, g);
    if (rayleigh_mass_ > 0) {
      implicit_.MultiplyMass(at.v, product_);
      g -= rayleigh_mass_ * product_;
    }
    if (rayleigh_stiffness_ > 0) {
      implicit_.AssembleStiffness(at);
      implicit_.MultiplyStiffness(at.v, product_);
      g -= rayleigh_stiffness_ * product_;
    }
    system.ProjectResponse(g);
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    const double half = 0.5 * h;
    Force(system, s, start_force_);  // g_n
    const double start_norm = start_force_.norm();
    increment_.setZero();  // Δv_0 = 0
    iterate_.time = s.time + h;

    int iteration = 0;
    for (;; ++iteration) {
      // The iterate (x_k, v_k) and its residual.
      iterate_.v = s.v + increment_;
      iterate_.x = s.x + (s.v + iterate_.v) * half;
      Force(system, iterate_, force_);
      implicit_.MultiplyMass(increment_, product_);
      system.ProjectResponse(product_);
      residual_ = product_ - (start_force_ + force_) * half;
      const double scale = product_.norm() + half * (start_norm + force_.norm());
      // A residual or scale that overflowed (forces beyond ~1e154 N) would pass the test as
      // inf <= inf and drop the load silently: that is a failed step.
      if (!std::isfinite(scale) || !std::isfinite(residual_.norm()))
        return fluxion::StepResult::Failure(
            "TrapezoidalSolver: the Newton residual is not finite (the forces overflow)");
      if (residual_.norm() <= tolerance_ * scale) break;
      if (iteration == max_iterations_) {
        s.x = iterate_.x;
        s.v = iterate_.v;
        return fluxion::StepResult::NotConverged(
            "TrapezoidalSolver: Newton did not converge in " + std::to_string(max_iterations_) +
                " iterations (relative residual " + std::to_string(residual_.norm() / scale) + ")",
            iteration, residual_.norm() / scale);
      }

      // Fresh tangent at the iterate: J = (1 + (h/2)rM)M + (h/2)B + (h²/4 + (h/2)rK)K (K is
      // already there when Force assembled it, rK > 0; B only when a field provides it).
      if (rayleigh_stiffness_ == 0) implicit_.AssembleStiffness(iterate_);
      implicit_.AssembleDamping(iterate_);
      if (auto r = implicit_.Factorize(1.0 + half * rayleigh_mass_, half,
                                       half * half + half * rayleigh_stiffness_);
          !r.accepted())
        return r;
      // J·δ = −r with a unit right-hand side (δ rescaled after), so that an iterative solver's
      // absolute thresholds (CG's smallDenominatorThreshold) do not stop it on the small
      // corrections of late iterations; an inexact solve only costs Newton more iterations.
      const double residual_norm = residual_.norm();  // > 0: the convergence test failed
      residual_ *= -1.0 / residual_norm;
      // NotConverged is not passed on either: Newton's own residual test decides.
      if (auto r = implicit_.Solve(residual_, correction_); !r.accepted()) return r;
      increment_ += correction_ * residual_norm;
    }

    // The converged iterate is the step's end state.
    s.x = iterate_.x;
    s.v = iterate_.v;
    return fluxion::StepResult::Ok(iteration);
  }

  double rayleigh_mass_;
  double rayleigh_stiffness_;
  double tolerance_;
  int max_iterations_;
  fluxion::ImplicitSystem implicit_;
  fluxion::Vector start_force_, force_, residual_, increment_, correction_, product_;
  fluxion::State iterate_;  // (x_k, v_k) at t + h
};

}  // namespace

FLUXION_PLUGIN("trapezoidal", "0.1.0") {
  registrar.AddSolver<TrapezoidalSolver>(
      TrapezoidalSolver::Spec(), {.order = 2,
                                  .flags = fluxion::kImplicitMethod | fluxion::kNeedsLinearSolver,
                                  .force_evaluations = 1,
                                  .linear_solves = 1});
}
