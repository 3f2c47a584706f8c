// The measurements behind fluxion-analyze: how any ODE solver plugin behaves on the harmonic
// oscillator (spectral radius r, numerical angle Ψ, stability limit, characteristic-root error),
// and how it converges and conserves energy on any scene. The solver is only ever *stepped*
// through the framework's host API: nothing here knows a method's equations.
//
// The oscillator. m = 1, k = ω₀² = 1, so Φ = ω₀h = h, with an optional damping ratio ζ
// (a UniformVelocityDampingForceField with c = 2ζ·m·ω₀, which gives implicit solvers its exact
// Jacobian B = c·I). The spring has zero rest length, so its force −k·d is exactly linear in every
// direction; the scene is 2-D, and its two axes are two independent copies of the same 1-DOF
// oscillator: the x axis starts at (x, v) = (1, 0) and the y axis at (0, 1). One simulation thus
// steps both basis states at once, and the point never comes near the anchor (where a spring has
// no direction), since (x_n, y_n) is a row of the invertible n-step transition matrix.
//
// One-step methods: one step from the basis states gives the transition matrix
// T = [x₁ y₁; v_x₁ v_y₁]; its eigenvalues are the roots z.
// Methods with history (SolverTraits kHasHistory: stored accelerations, momenta, previous steps):
// the extended state is hidden in the solver, but every observed sequence x_n, y_n, v_x,n, v_y,n
// obeys the same linear recurrence s_{n+p} = Σ_j a_j s_{n+j}, whose characteristic polynomial is
// that of the method's full transition operator (restricted to the excited modes). The run skips
// the start-up steps, then the recurrence is fitted by least squares on all four channels at once
// (each time row scaled to unit size), for p = 1, 2, … up to 8, keeping the smallest p whose
// relative residual is below 1e-9; its roots are the method's roots (see docs/integrators.md).
//
// The principal root is the one whose logarithm is closest to the exact λh, λ = ω₀(−ζ + i√(1−ζ²));
// r is the largest |z| of all roots (spurious ones included), Ψ = |arg z| of the principal root.
#pragma once

#include <complex>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fluxion/host.h"
#include "fluxion/simulation.h"

namespace fluxion::analysis {

/// "EulerExplicitSolver symplectic=0": the solver's name followed by the given parameters.
std::string Label(const SolverChoice& solver);

/// How the roots were obtained.
enum class Measurement {
  kTransitionMatrix,  ///< one step from the two basis states (one-step methods)
  kRecurrence,        ///< a linear recurrence fitted on a long run (methods with history)
};
std::string_view MeasurementName(Measurement measurement);

/// The behaviour of a solver on the oscillator at one Φ = ω₀h.
struct TransitionPoint {
  double phi = 0.0;
  double zeta = 0.0;
  bool ok = false;      ///< false: a step was rejected (then `message` says why) or no fit
  std::string message;  ///< why, when !ok
  std::vector<std::complex<double>> roots;
  std::complex<double> principal_root;
  double spectral_radius = 0.0;  ///< r = max |z| over all roots
  double psi = 0.0;              ///< Ψ = arg(principal root), in [0, π]
  /// kTransitionMatrix: det T (1 for area-preserving maps). kRecurrence: NaN.
  double determinant = 0.0;
  /// kRecurrence: relative residual of the fitted recurrence and its order; 0 otherwise.
  double fit_residual = 0.0;
  int recurrence_order = 0;

  double frequency_ratio() const { return psi / phi; }              ///< Ψ/Φ
  double amplitude_error() const { return spectral_radius - 1.0; }  ///< r − 1
  /// Howe's characteristic-root error e_λ = (λ* − λ)/λ with λ* = ln(z)/h.
  std::complex<double> root_error() const;
};

/// The exact characteristic root λh of the oscillator at Φ and ζ (upper half plane).
std::complex<double> ExactRoot(double phi, double zeta);

/// Where the stability limit is looked for, and how finely (see Analyzer::StabilityLimit).
struct StabilityScan {
  double phi_step = 0.01;  ///< grid Φ = step, 2·step, …, up to phi_max
  double phi_max = 10.0;
  double bisection_tolerance = 1e-5;  ///< width of the final bracket
};

struct AnalyzerOptions {
  double zeta = 0.0;              ///< damping ratio of Measure(Φ) (--phi, --plot); Summarize()
                                  ///< always measures the undamped oscillator (λ = iω₀)
  bool force_recurrence = false;  ///< measure one-step methods by the recurrence too
  /// The part of ζ given as explicit damping (UniformVelocityDampingForceField implicit="0": no
  /// B for implicit solvers, as SOFA's spring dashpots), in [0, 1]; the rest is implicit. For
  /// scene-runner's failure advice, which measures a scene's stiffest mode as it is damped.
  double explicit_damping_fraction = 0.0;
  /// ω₀ of the oscillator [rad/s] (k = ω₀², c = 2ζω₀, h = Φ/ω₀, velocities recorded over ω₀):
  /// the roots depend on Φ and ζ only, but a solver's dimensional parameters do not scale
  /// (rayleighStiffness [s], rayleighMass and vdamping [1/s]); to measure a scene's solver on its
  /// stiffest mode with the scene's parameters, ω₀ is that mode's ω_max.
  double omega = 1.0;
  StabilityScan scan;
};

/// What --summary reports, all measured on the undamped oscillator (ζ = 0, λ = iω₀).
struct Summary {
  /// Φ_max: the end of the stable interval that starts at Φ → 0 on the undamped oscillator;
  /// 0 if unstable at the first grid point; nullopt if stable at every Φ tried.
  std::optional<double> stability_limit;
  /// k and e_I of Howe's characteristic-root error e_λ ≈ −e_I (λh)^k, fitted at small Φ;
  /// nullopt if e_λ is at round-off level. k is the order of the root's error, which is neither
  /// the global order nor the local error's: 1 for forward Euler, 2 for symplectic Euler (both
  /// first order), whose root is the leapfrog's.
  std::optional<int> root_error_order;
  std::optional<double> error_coefficient;
  std::vector<std::pair<double, std::complex<double>>> root_errors;  ///< (Φ, e_λ) used
  /// The observed order of the positions' global error at t = 2 on the oscillator (h = 2/8 …
  /// 2/256, start-up included), fitted over the asymptotic range (FitOrder); nullopt at round-off
  /// level.
  std::optional<double> global_order;
  /// The observed order of the one-step error ‖T(Φ) − exp(AΦ)‖ (kTransitionMatrix only: the
  /// local error of a method with history is its start-up's), fitted like global_order over
  /// Φ = 0.2·2^−j; p + 1 for a method of global order p.
  std::optional<double> local_error_order;
  /// Every stable Φ of the scan had |r − 1| ≤ the measurement's resolution (no numerical
  /// damping or growth of undamped modes).
  bool preserves_amplitude = false;
  /// kTransitionMatrix only: det T = 1 at every stable Φ of the scan (the linear one-step map is
  /// symplectic); nullopt for recurrences, where T is not observed.
  std::optional<bool> area_preserving;
};

/// Measures one solver (with its parameters) on the oscillator.
class Analyzer {
 public:
  /// Checks that `solver` names an ODE solver of `host` and that its parameters are valid by
  /// building the oscillator once. Throws ConfigError for an unknown or non-solver name (with a
  /// "did you mean"), PluginError when the solver's plugin is not on the search path, SceneError
  /// for invalid parameters (the scene loader's own validation), UsageError for ζ < 0. `host`
  /// must outlive the analyzer.
  Analyzer(const Host& host, SolverChoice solver, AnalyzerOptions options = {});

  const SolverChoice& solver() const { return solver_; }
  const ComponentInfo& entry() const { return *entry_; }
  /// The solver's traits with its parameters (Solver::RefineTraits of the registered ones).
  const SolverTraits& traits() const { return traits_; }
  const AnalyzerOptions& options() const { return options_; }
  Measurement measurement() const { return measurement_; }

  /// The roots at Φ (> 0) on the oscillator with damping ratio `zeta` (options().zeta by default).
  /// Never throws for numerical trouble: a rejected step gives ok = false.
  TransitionPoint Measure(double phi) const;
  TransitionPoint Measure(double phi, double zeta) const;

  /// Φ_max on the undamped oscillator: the grid of options().scan until the first unstable Φ
  /// (r > 1 + resolution, or a rejected step), then bisection of the last bracket.
  std::optional<double> StabilityLimit() const;

  Summary Summarize() const;

  /// The oscillator scene as XML text (dt is set by LoadOptions, the solver element is ours).
  std::string OscillatorXml(double zeta) const;

  /// The largest |r − 1| that still counts as 1: round-off for the transition matrix (1e-12),
  /// the fit's accuracy for recurrences (1e-9).
  double resolution() const;

 private:
  struct Run;
  struct ScanOutcome;
  ScanOutcome Scan() const;
  Run Simulate(double phi, double zeta, long steps) const;
  TransitionPoint FromMatrix(double phi, double zeta) const;
  TransitionPoint FromRecurrence(double phi, double zeta) const;
  void FitRootError(Summary& summary) const;
  std::optional<double> GlobalOrder() const;
  std::optional<double> LocalErrorOrder() const;

  const Host& host_;
  SolverChoice solver_;
  AnalyzerOptions options_;
  const ComponentInfo* entry_ = nullptr;
  SolverTraits traits_;
  Measurement measurement_ = Measurement::kTransitionMatrix;
};

/// Roots of a linear recurrence fitted to `samples` (each a vector of channels observed at
/// successive steps): s_{n+p} = Σ_j a_j s_{n+j}, with the smallest p ≤ max_order whose relative
/// residual is ≤ tolerance (else the best one). Returns the roots; sets `residual` and `order`.
std::vector<std::complex<double>> FitRecurrence(const std::vector<std::vector<double>>& samples,
                                                int max_order, double tolerance, double& residual,
                                                int& order);

/// Where MeasureConvergence is: run `run` of `runs` (0 is the reference, the longest by far),
/// `done` of its `steps` steps at step size `dt`.
struct ConvergenceProgress {
  int run = 0, runs = 0;
  double dt = 0.0;
  long done = 0, steps = 0;
};

/// --order: observed convergence order of the positions on a scene.
struct ConvergenceOptions {
  long steps = 100;                ///< steps at the coarsest h (the run lasts steps·h)
  std::optional<double> dt;        ///< coarsest h; default: the scene's dt
  int levels = 4;                  ///< h, h/2, h/4, h/8
  int reference_refinement = 128;  ///< the reference run uses (finest h)/128
  /// Called before each run and every kProgressSteps steps within it (none: silent). The
  /// reference alone takes levels' worth of runs 128 times over: minutes on a large scene.
  std::function<void(const ConvergenceProgress&)> progress;
};
inline constexpr long kProgressSteps = 256;
struct ConvergenceResult {
  double dt = 0.0, end_time = 0.0, reference_dt = 0.0;
  std::vector<double> step_sizes, errors;  ///< max |x_h − x_ref| over every position at end_time
  /// The error round-off alone could make in each run (see MeasureConvergence).
  std::vector<double> round_off;
  std::vector<double> pair_orders;  ///< log2(e_i / e_{i+1}) for successive h
  /// The global order of the positions: the fit over the asymptotic range (FitOrder), runs
  /// [fit_first, fit_last]; nullopt when no two successive runs stand above round-off.
  std::optional<double> global_order;
  std::size_t fit_first = 0, fit_last = 0;
  /// Runs whose error stands 10 times above its round-off (OrderFit::usable): with no order,
  /// 0 says every error is at round-off (the method is exact or nearly so on this scene).
  std::size_t usable_runs = 0;
  /// No order because the errors over the runs [fit_first, fit_last] do not fall with dt (their
  /// slope `flat_slope` < 0.5, OrderFit::flat): a floor, not the method's error.
  bool flat = false;
  double flat_slope = 0.0;
};
/// `solver`, when given, replaces every ODE solver of the scene (LoadOptions::solver, which also
/// gives it a SparseLDLSolver when it needs one and the scene has none). The scene file is loaded
/// once per run. Throws SceneError/PluginError/ConfigError for a bad scene or solver,
/// NumericalError when a run fails.
ConvergenceResult MeasureConvergence(const Host& host, const std::string& scene_file,
                                     const std::optional<SolverChoice>& solver,
                                     const ConvergenceOptions& options);

/// --energy: drift and oscillation of the total energy (kinetic + potential) of a run.
struct EnergyOptions {
  long steps = 1000;
  std::optional<double> dt;
};
struct EnergyResult {
  double dt = 0.0, end_time = 0.0;
  long steps = 0;
  double initial = 0.0, final = 0.0, minimum = 0.0, maximum = 0.0;
  /// (mean of E over the last tenth of the run − mean over the first tenth) [J].
  double drift = 0.0;
  /// max |E_n − trend| [J], the trend being the line through the two tenths' means.
  double oscillation = 0.0;
  double final_change = 0.0;  ///< E_N − E₀ [J]
  /// |E₀|, what the relative numbers divide by; nullopt when E₀ is zero or round-off of zero
  /// (|E₀| ≤ 1e-12·max |E_n|: a scene starting at rest), where a relative number is undefined
  /// and only the absolute ones above mean something.
  std::optional<double> scale;
  /// drift, oscillation and final_change divided by *scale (nullopt without a scale).
  std::optional<double> relative_drift, relative_oscillation, relative_final_change;
};
EnergyResult MeasureEnergy(const Host& host, const std::string& scene_file,
                           const std::optional<SolverChoice>& solver, const EnergyOptions& options);

}  // namespace fluxion::analysis
