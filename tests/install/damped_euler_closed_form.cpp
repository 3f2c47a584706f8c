// Checks a scene-runner trajectory of Hoffmann's Damped Euler (examples/out-of-tree-solver) on the
// 1-DOF oscillator u'' = −ω²u (u = x − x_eq) against the method's closed form.
//
//   damped_euler_closed_form CSV --omega W --dt H --equilibrium XEQ --position COL --velocity COL
//                            [--damping-ratio D]         (absent: Hoffmann's D = Φ/2, Φ = ω·h)
//
// Derivation (seed 000, §6). One step of Damped Euler is x_{n+1} = x_n + h·v_n,
// v_{n+1} = v_n + h·(−ω²·u_n − 2D·ω·v_n), so the one-step transition matrix is
//
//   [u; v]_{n+1} = P·[u; v]_n,      P = [ 1        h       ]
//                                       [ −ω²h     1 − 2DΦ ]
//
// (Hoffmann's matrix in his scaled variables (y, v/ω) is [1 Φ; −Φ 1−2DΦ], similar to P.) Its
// characteristic equation is Hoffmann's z² − 2(1 − DΦ)z + (1 − 2DΦ + Φ²) = 0, with p = 1 − DΦ,
// q = 1 − 2DΦ + Φ², and for D < 1 the conjugate pair z = r·e^{±jΨ}, r = √q, cos Ψ = p/r,
// sin Ψ = √(q − p²)/r. Any component w of the state then follows the eigen-solution
//
//   w_n = r^n·(w_0·cos nΨ + B_w·sin nΨ),      B_w = (w_1/r − w_0·cos Ψ)/sin Ψ,
//
// with w_1 from one product with P. The program also runs the recursion [u; v]_{n+1} = P·[u; v]_n
// and requires the two references to agree, so that a slip in either is caught.
//
// Tolerance: 1e-12 relative, on the scale of each quantity (|x| or the displacement amplitude for
// positions, the velocity amplitude for velocities). Round-off in the simulation and in either
// reference grows about linearly with the number of steps, ~n·ε ≈ 1e-13 for the few hundred steps
// of the test; the method's own signature is far larger (using v_{n+1} instead of v_n in the
// position update changes u_1 by ω²h²·u_0, ~10% at Φ = 0.5), so the bound separates "this exact
// recursion" from anything else.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr double kRelativeTolerance = 1e-12;

struct Options {
  std::string csv;
  double omega = 0, dt = 0, equilibrium = 0;
  std::optional<double> damping_ratio;
  std::string position_column, velocity_column;
};

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "damped_euler_closed_form: %s\n", message.c_str());
  std::exit(1);
}

Options Parse(int argc, char** argv) {
  Options options;
  std::map<std::string, std::string> values;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) == 0) {
      if (i + 1 >= argc) Fail("option " + arg + " needs a value");
      values[arg] = argv[++i];
    } else {
      options.csv = arg;
    }
  }
  const auto need = [&](const std::string& key) {
    const auto it = values.find(key);
    if (it == values.end()) Fail("missing " + key);
    return it->second;
  };
  options.omega = std::stod(need("--omega"));
  options.dt = std::stod(need("--dt"));
  options.equilibrium = std::stod(need("--equilibrium"));
  options.position_column = need("--position");
  options.velocity_column = need("--velocity");
  if (values.count("--damping-ratio")) options.damping_ratio = std::stod(values["--damping-ratio"]);
  if (options.csv.empty()) Fail("no CSV file given");
  return options;
}

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  std::string cell;
  while (std::getline(stream, cell, ',')) cells.push_back(cell);
  return cells;
}

// The eigen-solution w_n = r^n·(w_0·cos nΨ + B·sin nΨ) through w_0 and w_1.
double EigenSolution(long n, double w0, double w1, double r, double psi) {
  const double b = (w1 / r - w0 * std::cos(psi)) / std::sin(psi);
  return std::pow(r, static_cast<double>(n)) *
         (w0 * std::cos(static_cast<double>(n) * psi) + b * std::sin(static_cast<double>(n) * psi));
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = Parse(argc, argv);
  const double h = o.dt, omega = o.omega;
  const double phi = omega * h;
  const double d = o.damping_ratio.value_or(phi / 2.0);  // Hoffmann's choice by default

  // Transition matrix P and its eigenvalues (Hoffmann's p, q).
  const double p11 = 1.0, p12 = h, p21 = -omega * omega * h, p22 = 1.0 - 2.0 * d * phi;
  const double p = 1.0 - d * phi, q = 1.0 - 2.0 * d * phi + phi * phi;
  if (q - p * p <= 0.0) Fail("the eigenvalues are not a conjugate pair (D >= 1): no oscillation");
  const double r = std::sqrt(q);
  const double psi = std::atan2(std::sqrt(q - p * p), p);

  // Read the trajectory: the step column and the two state columns.
  std::ifstream file(o.csv);
  if (!file) Fail("cannot read " + o.csv);
  std::string line;
  std::getline(file, line);
  const std::vector<std::string> header = SplitCsv(line);
  int step_index = -1, x_index = -1, v_index = -1;
  for (int i = 0; i < static_cast<int>(header.size()); ++i) {
    if (header[i] == "step") step_index = i;
    if (header[i] == o.position_column) x_index = i;
    if (header[i] == o.velocity_column) v_index = i;
  }
  if (step_index < 0 || x_index < 0 || v_index < 0)
    Fail("the CSV header lacks step, " + o.position_column + " or " + o.velocity_column);

  std::vector<long> steps;
  std::vector<double> xs, vs;
  while (std::getline(file, line)) {
    const std::vector<std::string> cells = SplitCsv(line);
    steps.push_back(std::stol(cells.at(step_index)));
    xs.push_back(std::stod(cells.at(x_index)));
    vs.push_back(std::stod(cells.at(v_index)));
  }
  if (steps.size() < 2 || steps.front() != 0) Fail("expected rows from step 0 on");

  const double u0 = xs[0] - o.equilibrium, v0 = vs[0];
  const double u1 = p11 * u0 + p12 * v0, v1 = p21 * u0 + p22 * v0;
  const double amplitude = std::abs(u0) + std::abs(v0) / omega;  // bounds |u| while r <= 1
  const double velocity_scale = omega * amplitude;

  double worst_x = 0, worst_v = 0, worst_references = 0;
  long worst_step = 0;
  double u = u0, v = v0;  // the recursion, advanced alongside
  long n = 0;
  for (std::size_t row = 0; row < steps.size(); ++row) {
    for (; n < steps[row]; ++n) {
      const double next_u = p11 * u + p12 * v;
      v = p21 * u + p22 * v;
      u = next_u;
    }
    const double x_closed = o.equilibrium + EigenSolution(n, u0, u1, r, psi);
    const double v_closed = EigenSolution(n, v0, v1, r, psi);
    const double x_scale = std::max(std::abs(x_closed), amplitude);
    const double error_x = std::abs(xs[row] - x_closed) / x_scale;
    const double error_v = std::abs(vs[row] - v_closed) / velocity_scale;
    worst_references = std::max({worst_references, std::abs(o.equilibrium + u - x_closed) / x_scale,
                                 std::abs(v - v_closed) / velocity_scale});
    if (std::max(error_x, error_v) > std::max(worst_x, worst_v)) worst_step = n;
    worst_x = std::max(worst_x, error_x);
    worst_v = std::max(worst_v, error_v);
  }

  std::printf(
      "Damped Euler, omega=%g h=%g Phi=%g D=%.17g: r=%.17g Psi=%.17g; %zu rows up to step %ld\n"
      "max relative error: x %.3g, v %.3g (worst at step %ld); recursion vs eigen-solution %.3g\n",
      omega, h, phi, d, r, psi, steps.size(), steps.back(), worst_x, worst_v, worst_step,
      worst_references);
  if (worst_references > kRelativeTolerance) Fail("the two closed-form references disagree");
  if (worst_x > kRelativeTolerance || worst_v > kRelativeTolerance)
    Fail("the trajectory does not follow the Damped Euler recursion");
  std::printf("OK\n");
  return 0;
}
