#include "analysis.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "analysis_support.h"
#include "fluxion/errors.h"
#include "fluxion/text.h"
#include "order_fit.h"

namespace fluxion::analysis {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Recurrence measurement (see analysis.h): steps left out at the start, the run's length, the
// amplitude window in which the oscillator stays linear and finite, and the fit's acceptance.
// Start-up: Euler first steps (AB-2), Howe's half step, BDF-s's lower orders (s − 1 ≤ 5 steps).
constexpr long kStartupSteps = 5;
constexpr long kMinimumRecurrenceSteps = 80;
constexpr long kMaximumRecurrenceSteps = 4000;
// Below this distance from the anchor the run stops: a spring shorter than 1e-9 m has no
// direction (SpringForceField's kMinimumSpringLength), so the force would stop being −k·d.
constexpr double kSmallestAmplitude = 1e-7;
constexpr double kLargestAmplitude = 1e100;  // far from overflow, even for energies (∝ x²)
// BDF6 on the 2-D oscillator: 6 roots for each of λ = ±iω₀ in every channel.
constexpr int kMaximumRecurrenceOrder = 12;
constexpr double kRecurrenceTolerance = 1e-9;

// |r − 1| that still counts as r = 1. The transition matrix holds values computed in a handful
// of floating-point operations: its eigenvalues are exact to a few ulps except next to a double
// root, so 1e-12 is far above round-off and far below any method's genuine |r − 1| at Φ ≥ 0.01
// (forward Euler: Φ²/2 = 5e-5). A fitted recurrence is accurate to about 1e-12 on a full period
// of data (more at small Φ, where the roots cluster at 1): 1e-9.
constexpr double kMatrixResolution = 1e-12;
constexpr double kRecurrenceResolution = 1e-9;

// The root-error fit: Φ = 0.2, 0.1, … 0.2/2⁶ ≈ 0.003, and the size of the error in e_λ that
// round-off alone produces (relative error of z, divided by |λh| = Φ).
constexpr double kFitLargestPhi = 0.2;
constexpr int kFitPoints = 7;
constexpr double kMatrixRootNoise = 1e-15;
constexpr double kRecurrenceRootNoise = 1e-11;
// A point is used when |e_λ| is 1e5 times its noise: the extrapolation (which amplifies noise about
// fivefold) then leaves e_I accurate to better than 1e-4.
constexpr double kUsableSignal = 1e5;

// The global error is measured at t = 2 (a third of a period) with 8, 16, … 256 steps (the finer
// ones take the fit into the asymptotic range of first-order methods, whose coarse pairs are
// biased).
constexpr double kGlobalErrorTime = 2.0;
constexpr long kGlobalErrorSteps[] = {8, 16, 32, 64, 128, 256};

bool NeedsLinearSolver(const ComponentInfo& entry) {
  return (entry.traits.flags & kNeedsLinearSolver) != 0;
}

// Index of the root whose logarithm is closest to the exact λh; ties go to the larger |z|.
std::size_t PrincipalIndex(const std::vector<std::complex<double>>& roots,
                           std::complex<double> exact) {
  std::size_t best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (roots[i] == 0.0) continue;
    const double distance = std::abs(std::log(roots[i]) - exact);
    if (distance < best_distance - 1e-12 || (std::abs(distance - best_distance) <= 1e-12 &&
                                             std::abs(roots[i]) > std::abs(roots[best]))) {
      best = i;
      best_distance = distance;
    }
  }
  return best;
}

void SetRoots(TransitionPoint& point, std::vector<std::complex<double>> roots) {
  point.roots = std::move(roots);
  if (point.roots.empty()) return;
  point.principal_root = point.roots[PrincipalIndex(point.roots, ExactRoot(point.phi, point.zeta))];
  point.spectral_radius = 0.0;
  for (const std::complex<double>& z : point.roots)
    point.spectral_radius = std::max(point.spectral_radius, std::abs(z));
  point.psi = std::abs(std::arg(point.principal_root));
  point.ok = true;
}

}  // namespace

std::string Label(const SolverChoice& solver) {
  std::string label = solver.name;
  for (const auto& [key, value] : solver.parameters) label += " " + key + "=" + value;
  return label;
}

std::string_view MeasurementName(Measurement measurement) {
  return measurement == Measurement::kTransitionMatrix ? "transition_matrix" : "recurrence";
}

std::complex<double> ExactRoot(double phi, double zeta) {
  // λ = ω₀(−ζ + √(ζ² − 1)): the upper root of s² + 2ζω₀s + ω₀² = 0 (the slower one when ζ > 1).
  return phi * (-zeta + std::sqrt(std::complex<double>(zeta * zeta - 1.0, 0.0)));
}

std::complex<double> TransitionPoint::root_error() const {
  const std::complex<double> exact = ExactRoot(phi, zeta);
  return (std::log(principal_root) - exact) / exact;
}

// --- Fitting a linear recurrence ------------------------------------------------------------

std::vector<std::complex<double>> FitRecurrence(const std::vector<std::vector<double>>& samples,
                                                int max_order, double tolerance, double& residual,
                                                int& order) {
  residual = std::numeric_limits<double>::infinity();
  order = 0;
  const int count = static_cast<int>(samples.size());
  const int channels = samples.empty() ? 0 : static_cast<int>(samples.front().size());
  Eigen::VectorXd best_coefficients;
  for (int p = 1; p <= max_order; ++p) {
    // One equation per channel and time n: s_{n+p} = Σ_j a_j s_{n+j}; each time's equations are
    // scaled by the largest |s| they involve, so that growing or decaying runs weigh evenly.
    const int rows = channels * (count - p);
    if (rows < p + 2) break;
    Eigen::MatrixXd a(rows, p);
    Eigen::VectorXd b(rows);
    int row = 0;
    for (int n = 0; n + p < count; ++n) {
      double scale = 0.0;
      for (int j = 0; j <= p; ++j)
        for (double value : samples[n + j]) scale = std::max(scale, std::abs(value));
      if (scale == 0.0) scale = 1.0;
      for (int c = 0; c < channels; ++c, ++row) {
        for (int j = 0; j < p; ++j) a(row, j) = samples[n + j][c] / scale;
        b(row) = samples[n + p][c] / scale;
      }
    }
    const Eigen::VectorXd coefficients = a.completeOrthogonalDecomposition().solve(b);
    const double norm = b.norm();
    const double relative = norm > 0.0 ? (a * coefficients - b).norm() / norm : 0.0;
    if (relative < residual) {
      residual = relative;
      order = p;
      best_coefficients = coefficients;
    }
    if (relative <= tolerance) break;  // the smallest order that explains the data
  }
  if (order == 0) return {};
  // The roots of z^p − Σ_j a_j z^j: eigenvalues of its companion matrix.
  Eigen::MatrixXd companion = Eigen::MatrixXd::Zero(order, order);
  for (int j = 0; j < order; ++j) companion(0, j) = best_coefficients(order - 1 - j);
  for (int i = 1; i < order; ++i) companion(i, i - 1) = 1.0;
  const Eigen::EigenSolver<Eigen::MatrixXd> eigen(companion, false);
  std::vector<std::complex<double>> roots;
  for (Eigen::Index i = 0; i < eigen.eigenvalues().size(); ++i)
    roots.push_back(eigen.eigenvalues()(i));
  return roots;
}

// --- The oscillator ---------------------------------------------------------------------------

struct Analyzer::Run {
  std::vector<std::vector<double>> samples;  ///< (x, y, v_x, v_y) after 0, 1, 2, … steps
  bool failed = false;
  std::string message;
};

Analyzer::Analyzer(const Host& host, SolverChoice solver, AnalyzerOptions options)
    : host_(host), solver_(std::move(solver)), options_(options) {
  if (!(options_.zeta >= 0.0) || !std::isfinite(options_.zeta))
    throw UsageError("the damping ratio must be finite and ≥ 0");
  if (!(options_.omega > 0.0) || !std::isfinite(options_.omega))
    throw UsageError("the oscillator's frequency must be finite and > 0");
  entry_ = &FindSolver(host_, solver_);
  const bool history = (entry_->traits.flags & kHasHistory) != 0;
  measurement_ = history || options_.force_recurrence ? Measurement::kRecurrence
                                                      : Measurement::kTransitionMatrix;
  // Validate the parameters once, with the scene loader's own checks (SceneError on failure).
  const Simulation simulation =
      host_.LoadString(OscillatorXml(options_.zeta), "oscillator", Options(0.1 / options_.omega));
  // The traits as configured (e.g. EulerExplicitSolver symplectic=0 is not symplectic).
  traits_ = simulation.solver_nodes().front().solver->RefineTraits(entry_->traits);
}

double Analyzer::resolution() const {
  return measurement_ == Measurement::kTransitionMatrix ? kMatrixResolution : kRecurrenceResolution;
}

std::string Analyzer::OscillatorXml(double zeta) const {
  const double omega = options_.omega;
  std::string solver = "  <" + solver_.name;
  for (const auto& [key, value] : solver_.parameters)
    solver += " " + key + "=\"" + EscapeXml(value) + "\"";
  solver += "/>\n";
  // A solver reading a NewtonRaphsonSolver is measured with one that always iterates: SOFA's
  // default absolute threshold skips the iteration once the predictor's residual is below 1e-5,
  // which makes the step nonlinear (the predictor is kept) as the oscillator decays. One
  // iteration solves the linear step up to round-off.
  if (entry_->spec.FindField("newtonSolver") != nullptr)
    solver += "  <NewtonRaphsonSolver absoluteResidualStoppingThreshold=\"0\"/>\n";
  if (NeedsLinearSolver(*entry_)) solver += "  <SparseLDLSolver/>\n";
  std::string xml =
      "<Node name=\"root\" gravity=\"0 0 0\" dt=\"1\">\n" + solver +
      // Point 0 is the anchor; point 1 (m = 1) starts at (1, 0) with velocity (0, ω₀).
      "  <MechanicalObject name=\"oscillator\" template=\"Vec2d\" position=\"0 0  1 0\""
      " velocity=\"0 0  0 " +
      FormatReal(omega) +
      "\"/>\n"
      "  <DiagonalMass vertexMass=\"0 1\"/>\n"
      "  <FixedProjectiveConstraint indices=\"0\"/>\n"
      // spring = "i j stiffness damping restLength": k = ω₀², zero rest length.
      "  <SpringForceField spring=\"0 1  " +
      FormatReal(omega * omega) + " 0 0\"/>\n";
  // c = 2ζ·m·ω₀, split into its implicit part (B = c·I) and its explicit part.
  const double explicit_zeta = options_.explicit_damping_fraction * zeta;
  for (const auto& [part, implicit] :
       {std::pair{zeta - explicit_zeta, "1"}, std::pair{explicit_zeta, "0"}})
    if (part > 0.0)
      xml += "  <UniformVelocityDampingForceField dampingCoefficient=\"" +
             FormatReal(2.0 * part * omega) + "\" implicit=\"" + implicit + "\"/>\n";
  return xml + "</Node>\n";
}

Analyzer::Run Analyzer::Simulate(double phi, double zeta, long steps) const {
  Run run;
  const double omega = options_.omega;
  Simulation simulation = host_.LoadString(OscillatorXml(zeta), "oscillator", Options(phi / omega));
  auto record = [&] {
    const auto x = simulation.position(0);
    const auto v = simulation.velocity(0);
    run.samples.push_back({x(2), x(3), v(2) / omega, v(3) / omega});
  };
  record();
  const bool stop_outside_window = steps > 1;
  for (long n = 1; n <= steps; ++n) {
    try {
      simulation.Step();
    } catch (const NumericalError& error) {
      // A rejected step ends the run; the samples before it remain usable by a recurrence fit.
      run.failed = true;
      run.message = error.what();
      return run;
    }
    record();
    if (!stop_outside_window) continue;
    const std::vector<double>& s = run.samples.back();
    const double distance = std::hypot(s[0], s[1]);
    const double largest =
        std::max({std::abs(s[0]), std::abs(s[1]), std::abs(s[2]), std::abs(s[3])});
    if (distance < kSmallestAmplitude || largest > kLargestAmplitude) break;
  }
  return run;
}

TransitionPoint Analyzer::Measure(double phi) const { return Measure(phi, options_.zeta); }

TransitionPoint Analyzer::Measure(double phi, double zeta) const {
  if (!(phi > 0.0) || !std::isfinite(phi)) throw UsageError("Φ must be finite and > 0");
  return measurement_ == Measurement::kTransitionMatrix ? FromMatrix(phi, zeta)
                                                        : FromRecurrence(phi, zeta);
}

TransitionPoint Analyzer::FromMatrix(double phi, double zeta) const {
  TransitionPoint point;
  point.phi = phi;
  point.zeta = zeta;
  point.determinant = kNaN;
  const Run run = Simulate(phi, zeta, 1);
  if (run.failed) {
    point.message = run.message;
    return point;
  }
  // Columns: the images of (x, v) = (1, 0) (the x axis) and (0, 1) (the y axis).
  const std::vector<double>& s = run.samples[1];
  Eigen::Matrix2d transition;
  transition << s[0], s[1], s[2], s[3];
  point.determinant = transition.determinant();
  const Eigen::EigenSolver<Eigen::Matrix2d> eigen(transition, false);
  SetRoots(point, {eigen.eigenvalues()(0), eigen.eigenvalues()(1)});
  return point;
}

TransitionPoint Analyzer::FromRecurrence(double phi, double zeta) const {
  TransitionPoint point;
  point.phi = phi;
  point.zeta = zeta;
  point.determinant = kNaN;
  // At least a full period of the undamped oscillator, so that small-Φ roots are well separated
  // from 1 in the data.
  const long period = static_cast<long>(std::ceil(2.0 * std::numbers::pi / phi));
  const long steps =
      kStartupSteps + std::clamp(period, kMinimumRecurrenceSteps, kMaximumRecurrenceSteps);
  Run run = Simulate(phi, zeta, steps);
  std::vector<std::vector<double>> samples(
      run.samples.begin() + std::min<long>(kStartupSteps, static_cast<long>(run.samples.size())),
      run.samples.end());
  std::vector<std::complex<double>> roots;
  if (samples.size() >= 4) {
    roots = FitRecurrence(samples, kMaximumRecurrenceOrder, kRecurrenceTolerance,
                          point.fit_residual, point.recurrence_order);
  }
  if (!roots.empty()) {
    SetRoots(point, std::move(roots));
    return point;
  }
  // Too few samples to fit. A run that decayed below the measurable range that fast is stable:
  // its mean decay per step bounds r (Ψ is unknown).
  const std::vector<double>& first = run.samples.front();
  const std::vector<double>& last = run.samples.back();
  const double decay = std::hypot(last[0], last[1]) / std::hypot(first[0], first[1]);
  if (!run.failed && decay < 1.0 && run.samples.size() >= 2) {
    point.ok = true;
    point.spectral_radius = std::pow(decay, 1.0 / static_cast<double>(run.samples.size() - 1));
    point.principal_root = point.spectral_radius;
    point.psi = kNaN;
    point.message = "r estimated from the decay (too few samples above 1e-7 to fit)";
    return point;
  }
  point.message = run.failed ? run.message
                             : "the run grew beyond 1e100 after " +
                                   std::to_string(run.samples.size() - 1) +
                                   " steps: too few samples to fit";
  return point;
}

// --- Stability, root error, global order ------------------------------------------------------

struct Analyzer::ScanOutcome {
  std::optional<double> limit;
  double amplitude_error = 0.0;  ///< max |r − 1| over the stable grid points
  bool any_stable = false;
  double area_error = 0.0;  ///< max |det T − 1| up to the first unstable grid point
  bool any_area = false;
};

Analyzer::ScanOutcome Analyzer::Scan() const {
  // Undamped oscillator, Φ on the grid step, 2·step, … phi_max until the first unstable point
  // (r > 1 + resolution, or a rejected step), then bisection between it and the last stable one.
  ScanOutcome outcome;
  const StabilityScan& scan = options_.scan;
  auto stable = [&](const TransitionPoint& point) {
    return point.ok && point.spectral_radius <= 1.0 + resolution();
  };
  const long count = std::lround(scan.phi_max / scan.phi_step);
  double below = 0.0;
  for (long i = 1; i <= count; ++i) {
    const double phi = static_cast<double>(i) * scan.phi_step;
    const TransitionPoint point = Measure(phi, 0.0);
    if (std::isfinite(point.determinant)) {
      outcome.area_error = std::max(outcome.area_error, std::abs(point.determinant - 1.0));
      outcome.any_area = true;
    }
    if (stable(point)) {
      outcome.amplitude_error =
          std::max(outcome.amplitude_error, std::abs(point.spectral_radius - 1.0));
      outcome.any_stable = true;
      below = phi;
      continue;
    }
    if (i == 1) {
      outcome.limit = 0.0;  // unstable at the smallest Φ tried
      return outcome;
    }
    double above = phi;
    while (above - below > scan.bisection_tolerance) {
      const double middle = 0.5 * (below + above);
      (stable(Measure(middle, 0.0)) ? below : above) = middle;
    }
    // Rounded to the decimal digits the bracket resolves (1e-5 → 5 digits).
    const double digits = std::pow(10.0, std::ceil(-std::log10(scan.bisection_tolerance)));
    outcome.limit = std::round(0.5 * (below + above) * digits) / digits;
    return outcome;
  }
  return outcome;  // stable at every Φ tried
}

std::optional<double> Analyzer::StabilityLimit() const { return Scan().limit; }

Summary Analyzer::Summarize() const {
  Summary summary;
  const ScanOutcome scan = Scan();
  summary.stability_limit = scan.limit;
  summary.preserves_amplitude = scan.any_stable && scan.amplitude_error <= resolution();
  if (measurement_ == Measurement::kTransitionMatrix && scan.any_area)
    summary.area_preserving = scan.area_error <= kMatrixResolution;
  FitRootError(summary);
  summary.global_order = GlobalOrder();
  summary.local_error_order = LocalErrorOrder();
  return summary;
}

void Analyzer::FitRootError(Summary& summary) const {
  // e_λ at Φ = 0.2·2^−j; the points whose e_λ stands well above round-off are usable.
  const double noise =
      measurement_ == Measurement::kTransitionMatrix ? kMatrixRootNoise : kRecurrenceRootNoise;
  struct Sample {
    double phi;
    std::complex<double> error;
  };
  std::vector<Sample> usable;
  for (int j = 0; j < kFitPoints; ++j) {
    const double phi = std::ldexp(kFitLargestPhi, -j);
    const TransitionPoint point = Measure(phi, 0.0);
    if (!point.ok) continue;
    const std::complex<double> error = point.root_error();
    summary.root_errors.emplace_back(phi, error);
    if (std::abs(error) > kUsableSignal * noise / phi) usable.push_back({phi, error});
  }
  // The smallest usable Φ are the most asymptotic; they must be consecutive halvings.
  while (usable.size() > 3) usable.erase(usable.begin());
  if (usable.size() < 2) return;
  const std::size_t n = usable.size();
  if (std::abs(usable[n - 2].phi - 2.0 * usable[n - 1].phi) > 1e-12 * usable[n - 2].phi) return;
  const double slope = std::log2(std::abs(usable[n - 2].error) / std::abs(usable[n - 1].error));
  const int k = static_cast<int>(std::lround(slope));
  if (k < 1) return;
  summary.root_error_order = k;
  // c(Φ) = −e_λ/(λh)^k → e_I as Φ → 0: Richardson extrapolation on the usable halvings, assuming
  // c(Φ) = e_I + c₁Φ (+ c₂Φ²).
  std::vector<std::complex<double>> c;
  for (const Sample& sample : usable)
    c.push_back(-sample.error / std::pow(ExactRoot(sample.phi, 0.0), k));
  std::complex<double> limit;
  if (c.size() == 3 && std::abs(usable[0].phi - 2.0 * usable[1].phi) <= 1e-12 * usable[0].phi) {
    // Points 4h, 2h, h: the quadratic through them, evaluated at 0.
    limit = c[0] / 3.0 - 2.0 * c[1] + 8.0 / 3.0 * c[2];
  } else {
    limit = 2.0 * c[n - 1] - c[n - 2];
  }
  summary.error_coefficient = limit.real();
}

std::optional<double> Analyzer::GlobalOrder() const {
  // The exact positions at T on the undamped oscillator: x = cos T from (1, 0), y = sin T from (0,
  // 1).
  const double exact_x = std::cos(kGlobalErrorTime), exact_y = std::sin(kGlobalErrorTime);
  std::vector<double> errors;
  for (const long steps : kGlobalErrorSteps) {
    const double h = kGlobalErrorTime / static_cast<double>(steps);
    // A plain run (no early stop): it must reach T.
    Simulation simulation =
        host_.LoadString(OscillatorXml(0.0), "oscillator", Options(h / options_.omega));
    try {
      for (long n = 0; n < steps; ++n) simulation.Step();
    } catch (const NumericalError&) {
      return std::nullopt;
    }
    const auto x = simulation.position(0);
    errors.push_back(std::max(std::abs(x(2) - exact_x), std::abs(x(3) - exact_y)));
  }
  // The exact solution is the reference: only the run's own round-off limits the error.
  std::vector<OrderSample> samples;
  for (std::size_t i = 0; i < errors.size(); ++i)
    samples.push_back({kGlobalErrorTime / static_cast<double>(kGlobalErrorSteps[i]), errors[i],
                       RoundOff(1.0, kGlobalErrorSteps[i])});
  return FitOrder(samples).order;
}

std::optional<double> Analyzer::LocalErrorOrder() const {
  if (measurement_ != Measurement::kTransitionMatrix) return std::nullopt;
  // One step from the basis states gives T(Φ); the exact map is the rotation by Φ.
  std::vector<OrderSample> samples;
  for (int j = 0; j < kFitPoints; ++j) {
    const double phi = std::ldexp(kFitLargestPhi, -j);
    const Run run = Simulate(phi, 0.0, 1);
    if (run.failed) return std::nullopt;
    const std::vector<double>& s = run.samples[1];
    const double c = std::cos(phi), sn = std::sin(phi);
    const double error = std::max(
        {std::abs(s[0] - c), std::abs(s[1] - sn), std::abs(s[2] + sn), std::abs(s[3] - c)});
    samples.push_back({phi, error, RoundOff(1.0, 1)});
  }
  return FitOrder(samples).order;
}

}  // namespace fluxion::analysis
