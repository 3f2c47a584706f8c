// Newton–Raphson iterations with SOFA's NewtonRaphsonSolver stopping rules, for the solvers whose
// step is a nonlinear equation (BDFOdeSolver, StaticSolver).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fluxion/log.h"
#include "fluxion/parameters.h"
#include "fluxion/solver.h"
#include "fluxion/text.h"

namespace fluxion {

/// The fields of SOFA's NewtonRaphsonSolver component, with its defaults
/// (SOFA: Sofa/Component/ODESolver/Backward/src/sofa/component/odesolver/backward/
/// NewtonRaphsonSolver.cpp, v26.06). In a scene they are written on a `<NewtonRaphsonSolver/>`
/// element, which the builder hands to the ODE solver of its node or above that declares a
/// `newtonSolver` link (the one the link names, else the first in the solver's node or below, as
/// SOFA's SearchDown); a solver with none gets these defaults.
struct NewtonRaphsonOptions {
  long max_iterations = 1;            ///< maxNbIterationsNewton
  double relative_successive = 1e-5;  ///< relativeSuccessiveStoppingThreshold: ‖r_k‖/‖r_{k−1}‖
  double relative_initial = 1e-5;   ///< relativeInitialStoppingThreshold: ‖r_k‖/‖r_0‖
  double absolute_residual = 1e-5;  ///< absoluteResidualStoppingThreshold: ‖r_k‖
  double relative_estimate_difference = 0.0;  ///< ‖Δ_k‖/‖u_{k−1}‖ (0: not tested)
  double absolute_estimate_difference = 0.0;  ///< ‖Δ_k‖ (0: not tested)
  long max_line_search_iterations = 1;        ///< maxNbIterationsLineSearch (0 counts as 1)
  double line_search_coefficient = 0.5;       ///< α ← c·α after each failed trial
  bool warn_when_line_search_fails = true;
  bool warn_when_diverge = true;  ///< false: a step that did not converge is not reported

  /// The NewtonRaphsonSolver component's fields (names, defaults and help as SOFA's).
  static std::vector<FieldSpec> Fields() {
    return {
        FieldSpec::Integer("maxNbIterationsNewton", 1,
                           "maximum number of Newton iterations per step")
            .AtLeast(0),
        FieldSpec::Real("relativeSuccessiveStoppingThreshold", 1e-5,
                        "stop when ‖r_k‖ < threshold·‖r_{k−1}‖ (0: not tested)")
            .AtLeast(0),
        FieldSpec::Real("relativeInitialStoppingThreshold", 1e-5,
                        "stop when ‖r_k‖ < threshold·‖r_0‖ (0: not tested)")
            .AtLeast(0),
        FieldSpec::Real("absoluteResidualStoppingThreshold", 1e-5,
                        "stop when ‖r_k‖ < threshold; also skips the iterations when the initial "
                        "guess satisfies it (0: not tested)")
            .AtLeast(0),
        FieldSpec::Real("relativeEstimateDifferenceThreshold", 0.0,
                        "stop when ‖Δ_k‖ < threshold·‖u_{k−1}‖, Δ_k the Newton correction and u "
                        "the unknown (0: not tested)")
            .AtLeast(0),
        FieldSpec::Real("absoluteEstimateDifferenceThreshold", 0.0,
                        "stop when ‖Δ_k‖ < threshold (0: not tested)")
            .AtLeast(0),
        FieldSpec::Integer("maxNbIterationsLineSearch", 1,
                           "maximum number of line-search trials per Newton iteration")
            .AtLeast(0),
        FieldSpec::Real("lineSearchCoefficient", 0.5,
                        "factor applied to the step length after a failed line-search trial"),
        FieldSpec::Bool("updateStateWhenDiverged", true,
                        "SOFA option, accepted; as in SOFA it has no effect (the last iterate is "
                        "always kept)"),
        FieldSpec::Bool("warnWhenLineSearchFails", true,
                        "log a warning when no line-search trial reduces the residual"),
        FieldSpec::Bool("warnWhenDiverge", true,
                        "report a step whose iterations did not converge (a warning)")};
  }

  /// The options from a solver's parameters: each NewtonRaphsonSolver field the builder handed
  /// over, SOFA's default for the others (a solver created without a scene gets all defaults).
  static NewtonRaphsonOptions From(const Parameters& p) {
    NewtonRaphsonOptions o;
    auto integer = [&](const char* name, long& out) {
      if (p.has_value(name)) out = p.integer(name);
    };
    auto real = [&](const char* name, double& out) {
      if (p.has_value(name)) out = p.real(name);
    };
    auto flag = [&](const char* name, bool& out) {
      if (p.has_value(name)) out = p.flag(name);
    };
    integer("maxNbIterationsNewton", o.max_iterations);
    real("relativeSuccessiveStoppingThreshold", o.relative_successive);
    real("relativeInitialStoppingThreshold", o.relative_initial);
    real("absoluteResidualStoppingThreshold", o.absolute_residual);
    real("relativeEstimateDifferenceThreshold", o.relative_estimate_difference);
    real("absoluteEstimateDifferenceThreshold", o.absolute_estimate_difference);
    integer("maxNbIterationsLineSearch", o.max_line_search_iterations);
    real("lineSearchCoefficient", o.line_search_coefficient);
    flag("warnWhenLineSearchFails", o.warn_when_line_search_fails);
    flag("warnWhenDiverge", o.warn_when_diverge);
    return o;
  }
};

/// The nonlinear equation r(u) = 0 a solver hands to `SolveNewtonRaphson`, with its unknown u
/// held by the implementation (SOFA's BaseNonLinearFunction). None of the calls may allocate.
class NonlinearFunction {
 public:
  virtual ~NonlinearFunction() = default;
  /// r at the current guess; Failure stops the iterations (e.g. a non-finite force).
  virtual StepResult Evaluate() = 0;
  /// ‖r‖² of the last Evaluate: the measure every residual rule reads.
  virtual double SquaredResidualNorm() const = 0;
  /// The Newton correction Δ from J(u)·Δ = −r(u) at the current guess (last evaluated).
  virtual StepResult ComputeCorrection() = 0;
  /// u ← u + step·Δ (the line search calls it with increments of its step length).
  virtual void Update(double step) = 0;
  /// ‖Δ‖², for the estimate-difference rules.
  virtual double SquaredCorrectionNorm() const = 0;
  /// ‖u‖² at the current guess, for the relative estimate-difference rule.
  virtual double SquaredUnknownNorm() const = 0;
};

/// How the iterations ended (SOFA's NewtonStatus values, less "Undefined" and "Running").
enum class NewtonRaphsonStatus {
  kConvergedEquilibrium,  ///< the initial guess satisfied the absolute rule: no iteration
  kConvergedResidualSuccessiveRatio,
  kConvergedResidualInitialRatio,
  kConvergedAbsoluteResidual,
  kConvergedRelativeEstimateDifference,
  kConvergedAbsoluteEstimateDifference,
  kDivergedMaxIterations,
};

/// Newton–Raphson iterations on `function` from its current guess, stopped by SOFA's rules in
/// SOFA's order (NewtonRaphsonSolver::solve):
///
///   evaluate r(u₀); if t_abs > 0 and ‖r₀‖² ≤ t_abs²: done (kConvergedEquilibrium, 0 iterations).
///   for k = 1 … maxNbIterationsNewton:
///     Δ from J·Δ = −r;  line search: α = 1, c·1, c²·1, … (at most maxNbIterationsLineSearch
///     trials) until ‖r(u + αΔ)‖² < ‖r_{k−1}‖²; if every trial failed and there were more than
///     one, go back to α = 1 (the last guess stays when there was one);
///     then, each tested only when its threshold is > 0, strict inequalities on squares:
///       ‖r_k‖ < t_succ·‖r_{k−1}‖,  ‖r_k‖ < t_init·‖r_0‖,  ‖r_k‖ < t_abs,
///       ‖Δ‖ < t_rel·‖u_{k−1}‖ (when ‖u_{k−1}‖ > 0),  ‖Δ‖ < t_absΔ.
///
/// Returns Ok(k) when a rule was met after k iterations (`status` says which); after
/// maxNbIterationsNewton iterations without, NotConverged (the last iterate kept; Ok when
/// `warn_when_diverge` is false, as SOFA then stays silent); the function's Failure as is, and
/// Failure for a residual that is not finite. Never allocates on success.
inline StepResult SolveNewtonRaphson(NonlinearFunction& function,
                                     const NewtonRaphsonOptions& options,
                                     NewtonRaphsonStatus* status = nullptr) {
  auto report = [&](NewtonRaphsonStatus s) {
    if (status != nullptr) *status = s;
  };
  auto not_finite = [] {
    return StepResult::Failure("Newton–Raphson: the residual is not finite");
  };
  if (StepResult r = function.Evaluate(); !r.accepted()) return r;
  double squared = function.SquaredResidualNorm();
  if (!std::isfinite(squared)) return not_finite();
  const double squared_initial = squared;
  const double absolute2 = options.absolute_residual * options.absolute_residual;
  if (options.absolute_residual > 0 && squared <= absolute2) {
    report(NewtonRaphsonStatus::kConvergedEquilibrium);
    return StepResult::Ok(0);
  }
  auto square = [](double t) { return t * t; };
  const long trials = std::max(options.max_line_search_iterations, 1L);
  for (long k = 0; k < options.max_iterations; ++k) {
    const double previous = squared;
    const double previous_unknown = function.SquaredUnknownNorm();
    if (StepResult r = function.ComputeCorrection(); !r.accepted()) return r;

    // Line search on the step length α; Update takes the increment from the last trial's α.
    double alpha = 1.0, applied = 0.0;
    bool decreased = false;
    for (long trial = 0; trial < trials; ++trial) {
      function.Update(alpha - applied);
      applied = alpha;
      if (StepResult r = function.Evaluate(); !r.accepted()) return r;
      squared = function.SquaredResidualNorm();
      if (squared < previous) {
        decreased = true;
        break;
      }
      alpha *= options.line_search_coefficient;
    }
    if (!decreased) {
      if (options.warn_when_line_search_fails)
        LogWarn("NewtonRaphsonSolver: line search failed at Newton iteration " + std::to_string(k));
      if (trials > 1) {  // back to the full Newton step
        function.Update(1.0 - applied);
        if (StepResult r = function.Evaluate(); !r.accepted()) return r;
        squared = function.SquaredResidualNorm();
      }
    }
    if (!std::isfinite(squared)) return not_finite();

    const int done = static_cast<int>(k + 1);
    if (options.relative_successive > 0 &&
        squared < square(options.relative_successive) * previous) {
      report(NewtonRaphsonStatus::kConvergedResidualSuccessiveRatio);
      return StepResult::Ok(done);
    }
    if (options.relative_initial > 0 &&
        squared < square(options.relative_initial) * squared_initial) {
      report(NewtonRaphsonStatus::kConvergedResidualInitialRatio);
      return StepResult::Ok(done);
    }
    if (options.absolute_residual > 0 && squared < absolute2) {
      report(NewtonRaphsonStatus::kConvergedAbsoluteResidual);
      return StepResult::Ok(done);
    }
    if (options.relative_estimate_difference > 0 || options.absolute_estimate_difference > 0) {
      const double correction = function.SquaredCorrectionNorm();
      if (options.relative_estimate_difference > 0 && previous_unknown > 0 &&
          correction < previous_unknown * square(options.relative_estimate_difference)) {
        report(NewtonRaphsonStatus::kConvergedRelativeEstimateDifference);
        return StepResult::Ok(done);
      }
      if (options.absolute_estimate_difference > 0 &&
          correction < square(options.absolute_estimate_difference)) {
        report(NewtonRaphsonStatus::kConvergedAbsoluteEstimateDifference);
        return StepResult::Ok(done);
      }
    }
  }
  report(NewtonRaphsonStatus::kDivergedMaxIterations);
  const int done = static_cast<int>(std::max(options.max_iterations, 0L));
  if (!options.warn_when_diverge) return StepResult::Ok(done);
  return StepResult::NotConverged("NewtonRaphsonSolver: no convergence after " +
                                      std::to_string(done) + " iteration(s), residual norm " +
                                      FormatReal(std::sqrt(squared)),
                                  done, std::sqrt(squared));
}

/// The outputs of a Newton-based solver (scene-runner --solver-outputs): the last *accepted*
/// step's Newton iterations and final residual norm (SOFA's timer values "nb_iterations" and
/// "residual"). A rejected step reports nothing, so the values are recorded in DoStep and become
/// visible in DoCommit:
///
///     DoStep:      return outputs_.Record(SolveNewtonRaphson(*this, newton_), *this);
///     DoCommit:    outputs_.Commit();
///     OutputNames: return NewtonOutputs::Names();      ReadOutputs: outputs_.Read(values);
class NewtonOutputs {
 public:
  static std::vector<std::string> Names() { return {"newtonIterations", "newtonResidual"}; }

  /// Keeps `result`'s iterations and ‖r‖ of `function`'s last evaluation; returns `result`.
  StepResult Record(StepResult result, const NonlinearFunction& function) {
    new_iterations_ = result.iterations;
    new_residual_ = std::sqrt(function.SquaredResidualNorm());
    return result;
  }
  /// The step is accepted: its values become the reported ones.
  void Commit() {
    iterations_ = new_iterations_;
    residual_ = new_residual_;
  }
  /// values[0] = iterations, values[1] = residual norm, of the last accepted step.
  void Read(double* values) const {
    values[0] = iterations_;
    values[1] = residual_;
  }

 private:
  double iterations_ = 0.0, residual_ = 0.0;          // of the last accepted step
  double new_iterations_ = 0.0, new_residual_ = 0.0;  // of the step being taken
};

}  // namespace fluxion
