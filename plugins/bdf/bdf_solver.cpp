// BDFOdeSolver — SOFA's backward differentiation formulas of order 1 to 6 on M·v' = f, x' = v,
// each step a nonlinear equation solved by Newton–Raphson (fluxion/newton_raphson.h).
//
// Source: SOFA Sofa/Component/ODESolver/Backward/src/sofa/component/odesolver/backward/
// BDFOdeSolver.{h,cpp} (coefficients), BaseLinearMultiStepMethod.{h,cpp} (residual, Newton
// system, start-up), v26.06. Textbook: Hairer & Wanner, Solving ODEs II, §III.1 and §V.1.
//
// With the step's nodes t_{n+1−s} … t_n, t_{n+1} (s the order used) and ℓ_j the Lagrange basis
// polynomials on them, the coefficients are those of the derivative of the interpolant at t_{n+1}
// (SOFA's computeLinearMultiStepCoefficients, valid for variable steps too), normalised so that
// a_s = 1:  a_j = ℓ_j'(t_{n+1}) / ℓ_s'(t_{n+1}),  β = 1 / (h·ℓ_s'(t_{n+1})),  h = t_{n+1} − t_n
// (uniform steps: BDF2 a = (1/3, −4/3, 1), β = 2/3; BDF-s: β = 1/(1 + 1/2 + … + 1/s)).
// The unknowns X = x_{n+1}, V = v_{n+1} solve r(X, V) = 0 with
//
//   r1 = Σ_j a_j·x_j − h·β·V                          (x_s = X)
//   r2 = M·Σ_j a_j·v_j − h·β·F(X, V),   F = f(X, V) − rM·M·V − rK·K(X)·V     (v_s = V)
//
// both projected (fixed DOFs). Newton eliminates the position (X's correction is h·β·ΔV − r1):
//
//   A = P[(1 + h·β·rM)·M + h·β·B + h·β·(rK + h·β)·K]P,   A·ΔV = P(−r2 + h·β·K·r1)
//   V ← V + α·ΔV,   X ← X + α·(h·β·ΔV − r1)
//
// (K = −∂f/∂x, B = −∂f/∂v at (X, V); SOFA's K, B carry the other sign). The Newton residual is
// ‖r2‖ only, as SOFA's. Initial guess X = x_n + h·v_n, V = v_n. A is factorised even when
// indefinite (large steps on compressed springs), as SOFA's LDLᵀ solvers do.
//
// Start-up (as SOFA): the k-th step after a (re)start uses order min(order, k), so the first step
// is backward Euler, the second BDF2 on the two states known, …; the history then holds the last
// order − 1 states and their times. One consequence (checked by the tests): the start-up's
// lower-order steps leave a global error O(h²) whatever the order, so BDF3–6 started this way
// converge at second order; given exact starting values they converge at their order s.
// Stability: BDF1, BDF2 A-stable; BDF3–6 A(α)-stable, α = 86°, 73°, 51°, 18° (not A-stable:
// on an undamped mode ζ ≈ e^{iΦ}(1 + (iΦ)^{s+1}/(s+1)), so BDF3 amplifies it by Φ⁴/4 per step);
// BDF order > 6 is not zero-stable (SOFA warns; Fluxion rejects order > 6).
//
// Where Fluxion deliberately differs from SOFA's source:
//  - History. SOFA's solve() points its history slot order−1 at the position/velocity vectors
//    every step and keeps slot 0 pointing at them after the first step, so (as read from the
//    v26.06 source) from the second step on every past state it reads is x_n, v_n: its BDF-s then
//    advances like backward Euler with step β·h. Fluxion keeps the true past states, which is the
//    method SOFA documents (Lagrange interpolation through the previous steps).
//  - Line search. SOFA moves X by the full h·β·ΔV − r1 at every trial, whatever α; Fluxion scales
//    it by α. The first trial (α = 1, the only one unless maxNbIterationsLineSearch > 1) agrees.
//  - Forces are evaluated with the time of the step's start t_n (SOFA's context time during the
//    solve), as SOFA; only time-dependent loads see it.
//  - Without a NewtonRaphsonSolver, SOFA's BDFOdeSolver is invalid; Fluxion's takes SOFA's
//    NewtonRaphsonSolver defaults (one Newton iteration per step).
#include <fluxion/implicit_system.h>
#include <fluxion/newton_raphson.h>
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace {

using fluxion::FieldSpec;
using fluxion::RayleighCoefficients;
using fluxion::Vector;

constexpr int kMaxOrder = 6;

// The BDF coefficients on the nodes t[0] < … < t[s] (t[s] = t_{n+1}): a[0..s] with a[s] = 1 and
// β, from the derivatives of the Lagrange basis polynomials at t[s]:
//   ℓ_j'(t_s) = Π_{m≠j,s}(t_s − t_m) / Π_{m≠j}(t_j − t_m)   (j < s),
//   ℓ_s'(t_s) = Σ_{m<s} 1/(t_s − t_m).
void Coefficients(const std::array<double, kMaxOrder + 1>& t, int s,
                  std::array<double, kMaxOrder + 1>& a, double& beta) {
  double last = 0.0;
  for (int m = 0; m < s; ++m) last += 1.0 / (t[s] - t[m]);
  for (int j = 0; j < s; ++j) {
    double numerator = 1.0, denominator = 1.0;
    for (int m = 0; m <= s; ++m) {
      if (m == j) continue;
      denominator *= t[j] - t[m];
      if (m != s) numerator *= t[s] - t[m];
    }
    a[j] = numerator / denominator / last;
  }
  a[s] = 1.0;
  beta = 1.0 / ((t[s] - t[s - 1]) * last);
}

class BdfOdeSolver final : public fluxion::Solver, private fluxion::NonlinearFunction {
 public:
  static fluxion::ComponentSpec Spec() {
    return {.name = "BDFOdeSolver",
            .kind = fluxion::ComponentKind::kOdeSolver,
            .summary =
                "Backward differentiation formula of order 1 to 6 (variable step), each "
                "step solved by Newton–Raphson",
            .fields = {FieldSpec::Integer("order", 1,
                                          "order s of the method, 1 to 6 (the first steps after "
                                          "a start use orders 1, 2, … up to s)")
                           .AtLeast(1)
                           .AtMost(kMaxOrder),
                       RayleighCoefficients::StiffnessField(), RayleighCoefficients::MassField(),
                       FieldSpec::Link("newtonSolver",
                                       "the NewtonRaphsonSolver whose fields drive the iterations "
                                       "(default: the first in the solver's node or below; none: "
                                       "SOFA's defaults)")},
            .aliases = {}};
  }

  explicit BdfOdeSolver(const fluxion::Parameters& p)
      : order_(static_cast<int>(p.integer("order"))),
        rayleigh_stiffness_(p.real("rayleighStiffness")),
        rayleigh_mass_(p.real("rayleighMass")),
        newton_(fluxion::NewtonRaphsonOptions::From(p)) {}

  fluxion::SolverTraits RefineTraits(const fluxion::SolverTraits& registered) const override {
    fluxion::SolverTraits traits = registered;
    traits.order = std::min(order_, 2);  // the global order with SOFA's start-up (see above)
    if (order_ == 1) traits.flags &= ~static_cast<unsigned>(fluxion::kHasHistory);
    return traits;
  }

  // The last accepted step's Newton iterations and final residual norm (SOFA's timer values
  // "nb_iterations" and "residual"): scene-runner --solver-outputs.
  std::vector<std::string> OutputNames() const override { return fluxion::NewtonOutputs::Names(); }
  void ReadOutputs(double* values) const override { outputs_.Read(values); }

 private:
  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    system_ = &system;
    implicit_.Initialize(system, linear_solver());
    for (Vector* v : {&force_, &r1_, &r2_, &rhs_, &correction_, &position_correction_, &sum_,
                      &product_, &start_x_, &start_v_})
      v->setZero(n);
    for (int j = 0; j < kMaxOrder; ++j) {
      past_x_[j].setZero(n);
      past_v_[j].setZero(n);
    }
    past_count_ = 0;
  }
  // Its vectors shrink in place (fluxion/solver.h, Solver::FollowSystemChange); the past steps
  // are history, started up again.
  void DoFollowSystemChange(const fluxion::MechanicalSystem& /*system*/,
                            const fluxion::SystemChange& change) override {
    implicit_.FollowSystemChange(change);
    for (Vector* v : {&force_, &r1_, &r2_, &rhs_, &correction_, &position_correction_, &sum_,
                      &product_, &start_x_, &start_v_})
      fluxion::FollowRemovedBlocks(change, *v);
    for (int j = 0; j < kMaxOrder; ++j) {
      fluxion::FollowRemovedBlocks(change, past_x_[j]);
      fluxion::FollowRemovedBlocks(change, past_v_[j]);
    }
    past_count_ = 0;
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& /*system*/, double h,
                             fluxion::State& s) override {
    if (!history_valid()) past_count_ = 0;  // start up again from this state
    // The order of this step and its nodes t_{n+1−s} … t_n, t_{n+1}; past_*_[j] hold the state
    // j + 1 steps before t_n.
    step_order_ = std::min(order_, past_count_ + 1);
    const int order = step_order_;
    for (int j = 0; j < order - 1; ++j) times_[order - 2 - j] = past_t_[j];
    times_[order - 1] = s.time;
    times_[order] = s.time + h;
    Coefficients(times_, order, a_, beta_);
    h_beta_ = h * beta_;

    // x_n, v_n: kept for the residual and for the history DoCommit extends.
    start_x_ = s.x;
    start_v_ = s.v;
    start_time_ = s.time;

    // Initial guess: X = x_n + h·v_n, V = v_n; the iterations update s in place.
    s.x += h * s.v;
    iterate_ = &s;
    return outputs_.Record(fluxion::SolveNewtonRaphson(*this, newton_), *this);
  }

  void DoCommit(const fluxion::MechanicalSystem& /*system*/, double /*h*/,
                const fluxion::State& /*state*/) override {
    // Shift the history by one: x_n, v_n become the most recent past state (swaps only).
    for (int j = kMaxOrder - 1; j > 0; --j) {
      past_x_[j].swap(past_x_[j - 1]);
      past_v_[j].swap(past_v_[j - 1]);
      past_t_[j] = past_t_[j - 1];
    }
    past_x_[0].swap(start_x_);
    past_v_[0].swap(start_v_);
    past_t_[0] = start_time_;
    past_count_ = std::min(past_count_ + 1, kMaxOrder - 1);
    outputs_.Commit();  // only an accepted step's iterations are reported
  }

  // x_j or v_j of this step's formula, j = 0 … s − 1 (j = s is the iterate).
  const Vector& Past(const std::array<Vector, kMaxOrder>& past, const Vector& start, int j) const {
    return j == step_order_ - 1 ? start : past[step_order_ - 2 - j];
  }

  // --- the nonlinear function r(X, V) of BaseLinearMultiStepMethod ---

  fluxion::StepResult Evaluate() override {
    fluxion::State& it = *iterate_;
    const int s = step_order_;
    // F(X, V) = f − rM·M·V − rK·K·V, projected; forces at t_n as SOFA's context time.
    system_->ComputeForce(it, force_);
    if (rayleigh_mass_ != 0.0) {
      implicit_.MultiplyMass(it.v, product_);
      force_ -= rayleigh_mass_ * product_;
    }
    if (rayleigh_stiffness_ != 0.0) {
      implicit_.AssembleStiffness(it);
      implicit_.MultiplyStiffness(it.v, product_);
      force_ -= rayleigh_stiffness_ * product_;
    }
    system_->ProjectResponse(force_);
    // r1 = Σ a_j x_j − hβ·V
    r1_ = it.x;
    for (int j = 0; j < s; ++j) r1_ += a_[j] * Past(past_x_, start_x_, j);
    r1_ -= h_beta_ * it.v;
    system_->ProjectResponse(r1_);
    // r2 = M·Σ a_j v_j − hβ·F
    sum_ = it.v;
    for (int j = 0; j < s; ++j) sum_ += a_[j] * Past(past_v_, start_v_, j);
    implicit_.MultiplyMass(sum_, r2_);
    r2_ -= h_beta_ * force_;
    system_->ProjectResponse(r2_);
    return fluxion::StepResult::Ok();
  }

  double SquaredResidualNorm() const override { return r2_.squaredNorm(); }

  fluxion::StepResult ComputeCorrection() override {
    const fluxion::State& it = *iterate_;
    const bool damping = system_->has_damping_matrix();
    implicit_.AssembleStiffness(it);
    if (damping) implicit_.AssembleDamping(it);
    // rhs = −r2 + hβ·K·r1 (the position equation eliminated)
    implicit_.MultiplyStiffness(r1_, rhs_);
    rhs_ *= h_beta_;
    rhs_ -= r2_;
    system_->ProjectResponse(rhs_);
    if (auto r =
            implicit_.FactorizeIndefinite(1.0 + h_beta_ * rayleigh_mass_, damping ? h_beta_ : 0.0,
                                          h_beta_ * (rayleigh_stiffness_ + h_beta_));
        !r.accepted())
      return r;
    fluxion::StepResult solved = implicit_.Solve(rhs_, correction_);
    if (!solved.accepted()) return solved;
    position_correction_ = h_beta_ * correction_ - r1_;
    return fluxion::StepResult::Ok();
  }

  void Update(double step) override {
    iterate_->v += step * correction_;
    iterate_->x += step * position_correction_;
  }

  double SquaredCorrectionNorm() const override { return correction_.squaredNorm(); }
  double SquaredUnknownNorm() const override { return iterate_->v.squaredNorm(); }

  int order_;
  double rayleigh_stiffness_;
  double rayleigh_mass_;
  fluxion::NewtonRaphsonOptions newton_;
  fluxion::NewtonOutputs outputs_;
  fluxion::ImplicitSystem implicit_;
  const fluxion::MechanicalSystem* system_ = nullptr;
  fluxion::State* iterate_ = nullptr;  // the state DoStep is updating
  // History: the past_count_ most recent states before t_n, newest first.
  std::array<Vector, kMaxOrder> past_x_, past_v_;
  std::array<double, kMaxOrder> past_t_{};
  int past_count_ = 0;
  // This step.
  int step_order_ = 1;
  std::array<double, kMaxOrder + 1> times_{}, a_{};
  double beta_ = 1.0, h_beta_ = 0.0, start_time_ = 0.0;
  Vector start_x_, start_v_;
  Vector force_, r1_, r2_, rhs_, correction_, position_correction_, sum_, product_;
};

}  // namespace

FLUXION_PLUGIN("bdf", "0.1.0") {
  registrar.AddSolver<BdfOdeSolver>(
      BdfOdeSolver::Spec(),
      {.order = 1,
       .flags = fluxion::kImplicitMethod | fluxion::kNeedsLinearSolver | fluxion::kHasHistory,
       .force_evaluations = 1,
       .linear_solves = 1});
}
