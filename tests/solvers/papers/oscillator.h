// Helpers for the papers' tests: the 1-DOF oscillator x'' = −x − c·x' as a Fluxion scene, its
// one-step transition matrix measured from the basis states, and the principal characteristic
// root of a method with history measured from the recurrence of a long run.
//
// The oscillator is a Vec1d object of two points, 0 fixed at the origin and 1 of unit mass, joined
// by a spring of stiffness 1 and rest length 0. In 1D the spring force on point 1 is
// −ks·(|x| − 0)·sign(x) = −x exactly (sqrt(x²) = |x| in IEEE arithmetic), so ω = 1, Φ = ω·h = h
// and the only rounding is the solver's own. Damping c comes from a
// UniformVelocityDampingForceField with implicit="1" (f = −c·v exactly, and B = c·I is declared).
// The spring exerts no force while |x| ≤ 1e-9 m (the framework's degenerate-spring guard), so runs
// must not decay to that amplitude.
#pragma once

#include <Eigen/Dense>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace fluxion::papers {

/// Shortest text that reads back as exactly `value`.
inline std::string Real(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

/// A solver element and whether its scene needs a linear solver.
struct SolverUnderTest {
  std::string element;         ///< e.g. R"(<EulerExplicitSolver symplectic="0"/>)"
  bool linear_solver = false;  ///< add a SparseLDLSolver next to it
};

/// gtest prints a parameter as its element; TestName turns it into a test-name suffix.
inline void PrintTo(const SolverUnderTest& solver, std::ostream* out) { *out << solver.element; }
inline std::string TestName(const SolverUnderTest& solver) {
  std::string name;  // the element's letters and digits, e.g. EulerExplicitSolversymplectic0
  for (char ch : solver.element)
    if (std::isalnum(static_cast<unsigned char>(ch))) name += ch;
  return name;
}

/// The oscillator scene started at (x0, v0), stepped with h.
inline std::string OscillatorScene(const SolverUnderTest& solver, double h, double x0, double v0,
                                   double damping = 0.0) {
  const std::string linear_solver = solver.linear_solver ? "<SparseLDLSolver/>" : "";
  const std::string drag = damping > 0
                               ? R"(<UniformVelocityDampingForceField dampingCoefficient=")" +
                                     Real(damping) + R"(" implicit="1"/>)"
                               : "";
  return R"(<Node name="root" gravity="0 0 0" dt=")" + Real(h) + R"(">
  )" + solver.element +
         linear_solver + R"(
  <Node name="oscillator">
    <MechanicalObject name="dofs" template="Vec1d" position="0 )" +
         Real(x0) + R"(" velocity="0 )" + Real(v0) + R"("/>
    <DiagonalMass vertexMass="1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 1 0 0"/>
    )" + drag +
         R"(
  </Node>
</Node>)";
}

/// The one-step transition matrix on (x, v): column j is the state after one step from basis
/// state j, (1, 0) or (0, 1).
inline Eigen::Matrix2d OneStepMatrix(const SolverUnderTest& solver, double h, double damping = 0) {
  Eigen::Matrix2d transition;
  for (int j = 0; j < 2; ++j) {
    Simulation simulation = testing::LoadScene(
        OscillatorScene(solver, h, j == 0 ? 1.0 : 0.0, j == 0 ? 0.0 : 1.0, damping));
    simulation.Step();
    transition(0, j) = simulation.position(0)[1];
    transition(1, j) = simulation.velocity(0)[1];
  }
  return transition;
}

/// Spectral radius r and angle Ψ (Hoffmann §4) of a real 2×2 transition matrix.
struct Spectrum {
  double r = 0;    ///< largest |z|
  double psi = 0;  ///< arg of the upper root of a complex pair; 0 or π for real roots
  bool complex_pair = false;
  std::complex<double> z;  ///< the upper (or dominant) eigenvalue
};

inline Spectrum SpectrumOf(const Eigen::Matrix2d& transition) {
  const double half_trace = 0.5 * transition.trace();
  const double det = transition.determinant();
  const double discriminant = half_trace * half_trace - det;
  Spectrum s;
  if (discriminant < 0) {
    s.complex_pair = true;
    s.r = std::sqrt(det);
    s.psi = std::atan2(std::sqrt(-discriminant), half_trace);
    s.z = {half_trace, std::sqrt(-discriminant)};
  } else {
    const double root = std::sqrt(discriminant);
    const double dominant = std::abs(half_trace + root) >= std::abs(half_trace - root)
                                ? half_trace + root
                                : half_trace - root;
    s.r = std::abs(dominant);
    s.psi = dominant < 0 ? M_PI : 0.0;
    s.z = dominant;
  }
  return s;
}

/// Positions x_0 … x_steps of the oscillator under `solver`.
inline std::vector<double> PositionRun(const SolverUnderTest& solver, double h, int steps,
                                       double damping = 0.0, double x0 = 1.0, double v0 = 0.0) {
  Simulation simulation = testing::LoadScene(OscillatorScene(solver, h, x0, v0, damping));
  std::vector<double> x{simulation.position(0)[1]};
  for (int n = 0; n < steps; ++n) {
    simulation.Step();
    x.push_back(simulation.position(0)[1]);
  }
  return x;
}

/// The principal root of a run whose other roots have died out after `skip` steps: the
/// least-squares fit of x_{n+1} = p·x_n − q·x_{n−1} over n ≥ skip (Householder QR, not the
/// normal equations, whose conditioning is squared), then z = p/2 + j·√(q − p²/4).
inline std::complex<double> PrincipalRootFromRun(const std::vector<double>& x, int skip) {
  const int rows = static_cast<int>(x.size()) - 1 - skip;
  Eigen::MatrixXd a(rows, 2);
  Eigen::VectorXd b(rows);
  for (int i = 0; i < rows; ++i) {
    const int n = skip + i;
    a(i, 0) = x[n];
    a(i, 1) = -x[n - 1];
    b(i) = x[n + 1];
  }
  const Eigen::Vector2d pq = a.colPivHouseholderQr().solve(b);
  const double p = pq(0), q = pq(1);
  return {0.5 * p, std::sqrt(std::max(0.0, q - 0.25 * p * p))};
}

/// Roots of the polynomial c[0]·z^d + c[1]·z^{d−1} + … + c[d] (companion matrix eigenvalues).
inline std::vector<std::complex<double>> PolynomialRoots(
    const std::vector<std::complex<double>>& c) {
  const int d = static_cast<int>(c.size()) - 1;
  Eigen::MatrixXcd companion = Eigen::MatrixXcd::Zero(d, d);
  for (int j = 0; j < d; ++j) companion(0, j) = -c[j + 1] / c[0];
  for (int i = 1; i < d; ++i) companion(i, i - 1) = 1.0;
  const Eigen::VectorXcd roots = companion.eigenvalues();
  return {roots.data(), roots.data() + d};
}

/// The root of `roots` closest to `target`.
inline std::complex<double> Closest(const std::vector<std::complex<double>>& roots,
                                    std::complex<double> target) {
  std::complex<double> best = roots.front();
  for (const std::complex<double>& z : roots)
    if (std::abs(z - target) < std::abs(best - target)) best = z;
  return best;
}

/// Howe's characteristic-root error e_λ = (λ* − λ)/λ (eq. 12) of a root z of an oscillator with
/// continuous eigenvalue λ, for step h: λ* = ln(z)/h.
inline std::complex<double> RootError(std::complex<double> z, std::complex<double> lambda,
                                      double h) {
  return (std::log(z) / h - lambda) / lambda;
}

}  // namespace fluxion::papers
