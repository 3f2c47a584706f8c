// The gravitational gallery scenes (scenes/sachs_kepler_orbit, hoffmann_three_body,
// hoffmann_three_body_perturbed, fazarinc_nbody), loaded from their files as scene-runner would,
// against the papers' exact solutions and invariants. Bounds come from the methods' orders and
// h (convergence ratios 2^order between h and h/2, modified-Hamiltonian predictions) or from
// rounding; none is fitted to the output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "support/scene_text.h"
#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

constexpr double kEps = 2.220446049250313e-16;

// The scene's text with one attribute text replaced (solver, dt, an initial value).
std::string Edited(std::string xml, const std::string& from, const std::string& to) {
  const std::size_t at = xml.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) xml.replace(at, from.size(), to);
  return xml;
}

// ================================================================================================
// Sachs's Kepler orbit: μ = G·M = 1, a = 1, e = 0.5, period T = 2π·a^{3/2}/√μ = 2π, h = T/400.
// The sun is fixed, so the planet (point 1) moves exactly as Kepler's reduced problem
// r'' = −μ·r/|r|³; E = v²/2 − μ/r = −μ/(2a) = −1/2 and L = x·v_y − y·v_x = √(μ·a·(1 − e²)).
constexpr double kKeplerPeriod = 2 * M_PI;
constexpr int kKeplerStepsPerPeriod = 400;

struct Planet {
  double x, y, vx, vy;
  double Energy() const { return (vx * vx + vy * vy) / 2 - 1 / std::hypot(x, y); }
  double Angular() const { return x * vy - y * vx; }
  // Störmer–Verlet's modified Hamiltonian (Hairer, Lubich, Wanner, "Geometric Numerical
  // Integration", IX.5, velocity/kick-drift-kick form): H̃ = H + h²·H₂ + O(h⁴),
  // H₂ = V_qq(v, v)/12 − |∇V|²/24. For V = −μ/r: ∇V = μ·q/r³, V_qq(v, v) = μ(v²/r³ − 3(q·v)²/r⁵).
  double H2() const {
    const double r = std::hypot(x, y), v2 = vx * vx + vy * vy, qv = x * vx + y * vy;
    return (v2 / std::pow(r, 3) - 3 * qv * qv / std::pow(r, 5)) / 12 - 1 / (24 * std::pow(r, 4));
  }
};

Planet PlanetOf(const Simulation& sim) {
  const auto x = sim.position(0), v = sim.velocity(0);
  return {x[2], x[3], v[2], v[3]};
}

// max H₂ − min H₂ over the exact orbit, sampled by true anomaly θ: r = p/(1 + e·cos θ),
// p = a(1 − e²); v = √(μ/p)·(−sin θ, e + cos θ).
double H2RangeOnTheExactOrbit() {
  const double e = 0.5, p = 1 - e * e;
  double lo = 1e300, hi = -1e300;
  for (int k = 0; k < 100000; ++k) {
    const double th = 2 * M_PI * k / 100000, r = p / (1 + e * std::cos(th));
    const Planet q{r * std::cos(th), r * std::sin(th), -std::sin(th) / std::sqrt(p),
                   (e + std::cos(th)) / std::sqrt(p)};
    lo = std::min(lo, q.H2());
    hi = std::max(hi, q.H2());
  }
  return hi - lo;
}

TEST(SachsKeplerOrbit, StartsOnTheEccentricOrbit) {
  const Simulation sim =
      LoadScene(GallerySceneText("sachs_kepler_orbit.scn"), "sachs_kepler_orbit.scn");
  const Planet p = PlanetOf(sim);
  EXPECT_NEAR(p.Energy(), -0.5, 4 * kEps);              // a = 1
  EXPECT_NEAR(p.Angular(), std::sqrt(0.75), 4 * kEps);  // e = 0.5
  EXPECT_NEAR(sim.dt(), kKeplerPeriod / kKeplerStepsPerPeriod, 1e-17);
}

// Velocity Verlet (the scene's solver), three periods. The planet's angular momentum: each kick
// adds a multiple of q (central force), each drift moves q along v, so L is conserved exactly in
// exact arithmetic; rounding adds a few ulps per step: |L_n − L_0| ≤ 8·n·eps·|L|.
// Energy: the run stays on the level set of H̃, so E_n − E_0 = −h²·(H₂(z_n) − H₂(z_0)) + O(h⁴):
// asserted pointwise with 5 % of the h² term for the O(h⁴) rest ((h·ω_peri)² = (h·v_p/r_p)²
// ≈ 3·10⁻³, a relative size of 0.3 %), and |E_n − E_0| ≤ 1.05·h²·(range of H₂ on the exact orbit).
TEST(SachsKeplerOrbit, VelocityVerletKeepsAngularMomentumAndItsModifiedEnergy) {
  Simulation sim = LoadScene(GallerySceneText("sachs_kepler_orbit.scn"), "sachs_kepler_orbit.scn");
  const double h = sim.dt();
  const Planet start = PlanetOf(sim);
  const double range = H2RangeOnTheExactOrbit();
  double max_energy_error = 0;
  for (int n = 1; n <= 3 * kKeplerStepsPerPeriod; ++n) {
    sim.Step();
    const Planet p = PlanetOf(sim);
    ASSERT_NEAR(p.Angular(), start.Angular(), 8 * n * kEps * start.Angular()) << "n = " << n;
    const double de = p.Energy() - start.Energy();
    ASSERT_NEAR(de, -h * h * (p.H2() - start.H2()), 0.05 * h * h * range) << "n = " << n;
    max_energy_error = std::max(max_energy_error, std::abs(de));
  }
  EXPECT_LE(max_energy_error, 1.05 * h * h * range);
  EXPECT_GT(max_energy_error, 0.5 * h * h * range);  // the h² oscillation is really there
}

// The distance from the start after exactly one Kepler period T = 2π (n steps of T/n): the
// method's global error, C·h^order. Halving h divides it by 2^order (asserted within a factor
// 1.5: a method one order lower or higher fails).
double KeplerReturnError(const std::string& solver, int steps_per_period) {
  std::string xml = GallerySceneText("sachs_kepler_orbit.scn");
  xml = Edited(xml, "<VelocityVerletSolver/>", "<" + solver + "/>");
  xml = Edited(xml, "dt=\"0.015707963267948967\"",
               "dt=\"" + Exact(kKeplerPeriod / steps_per_period) + "\"");
  Simulation sim = LoadScene(xml, "sachs_kepler_orbit.scn");
  for (int n = 0; n < steps_per_period; ++n) sim.Step();
  const Planet p = PlanetOf(sim);
  return std::hypot(p.x - 0.5, p.y);
}

struct KeplerOrder {
  const char* solver;
  int order;
};
void PrintTo(const KeplerOrder& c, std::ostream* out) {
  *out << c.solver << " (order " << c.order << ")";
}

class SachsKeplerPeriod : public ::testing::TestWithParam<KeplerOrder> {};

TEST_P(SachsKeplerPeriod, ReturnsToPerihelionAfterTwoPiToTheMethodsOrder) {
  const double e1 = KeplerReturnError(GetParam().solver, kKeplerStepsPerPeriod);
  const double e2 = KeplerReturnError(GetParam().solver, 2 * kKeplerStepsPerPeriod);
  const double ratio = std::pow(2.0, GetParam().order);
  EXPECT_GT(e1 / e2, ratio / 1.5) << e1 << " " << e2;
  EXPECT_LT(e1 / e2, ratio * 1.5) << e1 << " " << e2;
  // Scale: below r_p·n·(h·ω_p)^(order+1) with ω_p = v_p/r_p = 2√3, the local error of one
  // step at perihelion (the fastest point) repeated over the n steps of the period.
  const double h = kKeplerPeriod / kKeplerStepsPerPeriod;
  EXPECT_LT(e1,
            0.5 * kKeplerStepsPerPeriod * std::pow(h * 2 * std::sqrt(3.0), GetParam().order + 1));
}

INSTANTIATE_TEST_SUITE_P(Solvers, SachsKeplerPeriod,
                         ::testing::Values(KeplerOrder{"VelocityVerletSolver", 2},
                                           KeplerOrder{"ForestRuthSolver", 4},
                                           KeplerOrder{"RungeKutta4Solver", 4}),
                         [](const ::testing::TestParamInfo<KeplerOrder>& test) {
                           return std::string(test.param.solver);
                         });

// Sachs: "the symplectic integrators … have the property that the angular momentum doesn't
// drift at all … Runge-Kutta … experiences orbital decay". Forest–Ruth: L to rounding (three
// drift-kick stages per step, each exact for L). RK4: L drifts far beyond rounding, and the
// energy decays (E_end < E_0), more after three periods than after one.
TEST(SachsKeplerOrbit, SymplecticForestRuthKeepsLWhileRungeKuttaDecays) {
  const std::string xml = GallerySceneText("sachs_kepler_orbit.scn");
  Simulation fr =
      LoadScene(Edited(xml, "<VelocityVerletSolver/>", "<ForestRuthSolver/>"), "fr.scn");
  Simulation rk =
      LoadScene(Edited(xml, "<VelocityVerletSolver/>", "<RungeKutta4Solver/>"), "rk.scn");
  const Planet start = PlanetOf(fr);
  double rk_energy_one_period = 0;
  for (int n = 1; n <= 3 * kKeplerStepsPerPeriod; ++n) {
    fr.Step();
    rk.Step();
    ASSERT_NEAR(PlanetOf(fr).Angular(), start.Angular(), 16 * n * kEps * start.Angular());
    if (n == kKeplerStepsPerPeriod) rk_energy_one_period = PlanetOf(rk).Energy() - start.Energy();
  }
  const double rk_l_drift = std::abs(PlanetOf(rk).Angular() - start.Angular());
  EXPECT_GT(rk_l_drift, 1000 * 16 * 3 * kKeplerStepsPerPeriod * kEps * start.Angular());
  const double rk_energy_end = PlanetOf(rk).Energy() - start.Energy();
  EXPECT_LT(rk_energy_one_period, 0.0);
  EXPECT_LT(rk_energy_end, 2 * rk_energy_one_period);  // secular: about three times one period's
}

// ================================================================================================
// Hoffmann appendix C: three unit masses, 1/r law, G = 1, False Euler with dT = 0.3.

// Hoffmann's update, transcribed from his Pascal in plain C++ (independent of the framework): all
// velocities first from the old positions, then the positions with the new velocities. (His code
// reads x1, x2, … on the right of the velocity lines, which hold the previous step's values from
// the second step on, and are uninitialised in the first step: the intent is x1o, used here.)
struct ThreeBodies {
  double x[3], y[3], v[3], w[3];
};

ThreeBodies HoffmannStep(const ThreeBodies& o, double dt) {
  ThreeBodies n = o;
  const double r12 = std::pow(o.x[1] - o.x[0], 2) + std::pow(o.y[1] - o.y[0], 2);
  const double r13 = std::pow(o.x[2] - o.x[0], 2) + std::pow(o.y[2] - o.y[0], 2);
  const double r23 = std::pow(o.x[2] - o.x[1], 2) + std::pow(o.y[2] - o.y[1], 2);
  n.v[0] = o.v[0] + dt * ((o.x[1] - o.x[0]) / r12 + (o.x[2] - o.x[0]) / r13);
  n.v[1] = o.v[1] + dt * ((o.x[2] - o.x[1]) / r23 + (o.x[0] - o.x[1]) / r12);
  n.v[2] = o.v[2] + dt * ((o.x[0] - o.x[2]) / r13 + (o.x[1] - o.x[2]) / r23);
  n.w[0] = o.w[0] + dt * ((o.y[1] - o.y[0]) / r12 + (o.y[2] - o.y[0]) / r13);
  n.w[1] = o.w[1] + dt * ((o.y[0] - o.y[1]) / r12 + (o.y[2] - o.y[1]) / r23);
  n.w[2] = o.w[2] + dt * ((o.y[0] - o.y[2]) / r13 + (o.y[1] - o.y[2]) / r23);
  for (int i = 0; i < 3; ++i) {
    n.x[i] = o.x[i] + dt * n.v[i];
    n.y[i] = o.y[i] + dt * n.w[i];
  }
  return n;
}

// The scene's run equals the hand recursion to rounding. Each step differs by a few ulps
// (d/s against d·(1/s), summation order); on this bounded orbit a perturbation grows at most
// linearly with the number of steps (phase shear), so after n steps the difference is at most
// Σ_k 8·eps·(n − k + 1)·|x| ≤ 8·eps·n² (|x|, |v| ≤ 2 on the clover leaf).
TEST(HoffmannThreeBody, SceneRunIsHoffmannsFalseEulerRecursion) {
  Simulation sim =
      LoadScene(GallerySceneText("hoffmann_three_body.scn"), "hoffmann_three_body.scn");
  ASSERT_EQ(sim.dt(), 0.3);
  const double co = std::cos(M_PI / 6), si = 0.5;
  ThreeBodies b{{-co, co, 0}, {-si, -si, 1}, {-si, -si, 1}, {co, -co, 0}};
  for (int i = 0; i < 3; ++i) {  // the scene holds Hoffmann's initial conditions
    ASSERT_NEAR(sim.position(0)[2 * i], b.x[i], kEps);
    ASSERT_NEAR(sim.position(0)[2 * i + 1], b.y[i], kEps);
    ASSERT_NEAR(sim.velocity(0)[2 * i], b.v[i], kEps);
    ASSERT_NEAR(sim.velocity(0)[2 * i + 1], b.w[i], kEps);
  }
  for (int n = 1; n <= 100; ++n) {
    sim.Step();
    b = HoffmannStep(b, 0.3);
    const double tolerance = 8 * kEps * (n + 1.0) * (n + 1.0);
    for (int i = 0; i < 3; ++i) {
      ASSERT_NEAR(sim.position(0)[2 * i], b.x[i], tolerance) << "n = " << n << ", body " << i;
      ASSERT_NEAR(sim.position(0)[2 * i + 1], b.y[i], tolerance) << "n = " << n;
      ASSERT_NEAR(sim.velocity(0)[2 * i], b.v[i], tolerance) << "n = " << n;
      ASSERT_NEAR(sim.velocity(0)[2 * i + 1], b.w[i], tolerance) << "n = " << n;
    }
  }
  // False Euler at dT = 0.3 is far from the circle (his clover leaf), yet bounded.
  double radius = std::hypot(b.x[0], b.y[0]);
  EXPECT_GT(std::abs(radius - 1), 0.05);
  EXPECT_LT(radius, 2.0);
}

// The exact motion: each body feels, from the two others at distance √3, 2·(1/√3)·cos 30° = 1
// toward the centre = v²/R, so all three move clockwise on the unit circle at ω = 1:
// z_k(t) = z_k(0)·e^{−jt}. RK4 with fine steps h over Hoffmann's span t = 30 (100 of his steps):
// halving h divides the error by 2⁴ (within a factor 1.5), and it stays below n·(ωh)⁵ (the
// local error's scale, ω = 1, R = 1; RK4's oscillator phase error per step is (ωh)⁵/120).
double ThreeBodyCircleError(int steps) {
  const double t_end = 30, h = t_end / steps;
  std::string xml = GallerySceneText("hoffmann_three_body.scn");
  xml = Edited(xml, "<SymplecticEulerSolver/>", "<RungeKutta4Solver/>");
  xml = Edited(xml, "dt=\"0.3\"", "dt=\"" + Exact(h) + "\"");
  Simulation sim = LoadScene(xml, "hoffmann_three_body.scn");
  const Vector x0 = sim.position(0);
  double worst = 0;
  for (int n = 1; n <= steps; ++n) {
    sim.Step();
    const std::complex<double> rotation = std::exp(std::complex<double>(0, -n * h));
    for (int i = 0; i < 3; ++i) {
      const std::complex<double> exact = std::complex<double>(x0[2 * i], x0[2 * i + 1]) * rotation;
      worst = std::max(
          worst, std::abs(std::complex<double>(sim.position(0)[2 * i], sim.position(0)[2 * i + 1]) -
                          exact));
    }
  }
  return worst;
}

TEST(HoffmannThreeBody, FineStepRungeKuttaFollowsTheExactCircularMotion) {
  const double e1 = ThreeBodyCircleError(1000), e2 = ThreeBodyCircleError(2000);
  EXPECT_GT(e1 / e2, 16 / 1.5) << e1 << " " << e2;
  EXPECT_LT(e1 / e2, 16 * 1.5) << e1 << " " << e2;
  EXPECT_LT(e1, 1000 * std::pow(0.03, 5));
}

// ================================================================================================
// Hoffmann appendix D's initial conditions: radial velocities, body 3 perturbed by eps = 0.01,
// RK4, dt = 0.01, 300 steps (t = 3 s, before the close encounter at ≈ 3.47 s).
constexpr int kPerturbedSteps = 300;

// Linear momentum: RK4 adds h·Σ b_i·Σ f(stage) and every stage's total force is zero (third law),
// so P = (eps, 0) = (0.01, 0) to rounding, and the centre of mass moves at P/3 exactly.
TEST(HoffmannThreeBodyPerturbed, MomentumIsConservedAndTheCentreOfMassDrifts) {
  Simulation sim = LoadScene(GallerySceneText("hoffmann_three_body_perturbed.scn"), "d.scn");
  for (int n = 1; n <= kPerturbedSteps; ++n) {
    sim.Step();
    const auto x = sim.position(0), v = sim.velocity(0);
    const double tolerance = 16 * n * kEps * 3;  // |v| ≤ 1.5 over the run
    ASSERT_NEAR(v[0] + v[2] + v[4], 0.01, tolerance) << "n = " << n;
    ASSERT_NEAR(v[1] + v[3] + v[5], 0.0, tolerance) << "n = " << n;
    ASSERT_NEAR((x[0] + x[2] + x[4]) / 3, 0.01 / 3 * sim.time(), tolerance) << "n = " << n;
    ASSERT_NEAR((x[1] + x[3] + x[5]) / 3, 0.0, n * tolerance) << "n = " << n;
  }
}

// The energy of the integrated law, Σv²/2 + Σ ln r_ij (scene-runner's total), is conserved to
// RK4's error: its drift at t = 3 shrinks 2⁴-fold when h is halved. Hoffmann's own monitor,
// Σv²/2 − Σ1/r_ij (the 1/r² potential), changes by more than 0.1: it is not an invariant of the
// 1/r law he integrates.
double PerturbedEnergyDrift(double dt, int steps, double* hoffmann_change) {
  std::string xml = GallerySceneText("hoffmann_three_body_perturbed.scn");
  xml = Edited(xml, "dt=\"0.01\"", "dt=\"" + Exact(dt) + "\"");
  Simulation sim = LoadScene(xml, "d.scn");
  const auto hoffmann_energy = [&] {
    const auto x = sim.position(0), v = sim.velocity(0);
    double e = v.squaredNorm() / 2;
    for (int i = 0; i < 3; ++i)
      for (int j = i + 1; j < 3; ++j)
        e -= 1 / std::hypot(x[2 * j] - x[2 * i], x[2 * j + 1] - x[2 * i + 1]);
    return e;
  };
  const double e0 = sim.KineticEnergy() + sim.PotentialEnergy(), h0 = hoffmann_energy();
  double worst = 0, hoffmann_worst = 0;
  for (int n = 1; n <= steps; ++n) {
    sim.Step();
    worst = std::max(worst, std::abs(sim.KineticEnergy() + sim.PotentialEnergy() - e0));
    hoffmann_worst = std::max(hoffmann_worst, std::abs(hoffmann_energy() - h0));
  }
  if (hoffmann_change != nullptr) *hoffmann_change = hoffmann_worst;
  return worst;
}

TEST(HoffmannThreeBodyPerturbed, EnergyOfTheLogarithmicPotentialIsConservedToFourthOrder) {
  double hoffmann_change = 0;
  const double e1 = PerturbedEnergyDrift(0.01, kPerturbedSteps, &hoffmann_change);
  const double e2 = PerturbedEnergyDrift(0.005, 2 * kPerturbedSteps, nullptr);
  EXPECT_GT(e1 / e2, 16 / 1.5) << e1 << " " << e2;
  EXPECT_LT(e1 / e2, 16 * 1.5) << e1 << " " << e2;
  EXPECT_LT(e1, 1e-3 * hoffmann_change);
  EXPECT_GT(hoffmann_change, 0.1);
}

// Without the perturbation (eps = 0) the triangle stays equilateral and its circumradius obeys
// r'' = −1/r, r(0) = r'(0) = 1: r'²/2 + ln r = 1/2, so r_max = e^{1/2}, reached at
// t_max = ∫₁^{r_max} dr/√(1 − 2 ln r) = e^{1/2}·√(π/2)·erf(1/√2) = 1.4107 s. The sampled
// maximum is within ½·r''·(h/2)² = h²/(8·r_max) of r_max, plus RK4's error (< 10⁻⁸ here), and
// occurs at the step nearest t_max.
TEST(HoffmannThreeBodyPerturbed, SymmetricVariantReachesTheExactMaximumRadius) {
  std::string xml = GallerySceneText("hoffmann_three_body_perturbed.scn");
  xml = Edited(xml, "0.01 1\"", "0 1\"");
  Simulation sim = LoadScene(xml, "d.scn");
  const double r_max = std::exp(0.5);
  const double t_max = r_max * std::sqrt(M_PI / 2) * std::erf(1 / std::sqrt(2.0));
  double best = 0;
  int best_step = 0;
  for (int n = 1; n <= kPerturbedSteps; ++n) {
    sim.Step();
    const double r = std::hypot(sim.position(0)[4], sim.position(0)[5]);
    if (r > best) {
      best = r;
      best_step = n;
    }
  }
  const double h = 0.01;
  EXPECT_NEAR(best, r_max, h * h / (8 * r_max) + 1e-8);
  EXPECT_LE(best, r_max + 1e-8);
  EXPECT_NEAR(best_step * h, t_max, h / 2 + 1e-9);
}

// ================================================================================================
// Fazarinc's particles: 12 bodies, softened Newtonian gravity, TrapezoidalSolver (eq. 21),
// through scene-runner's --energy columns.
TEST(FazarincNBody, EnergyStaysBoundedAndMomentumIsConserved) {
  ScratchFolder scratch;
  const std::string scene = std::string(FLUXION_TEST_SOURCE_DIR) + "/scenes/fazarinc_nbody.scn";
  const std::string csv = scratch / "out.csv";
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1000 --energy -q" +
                                              " --output " + ShellQuote(csv));
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> rows = Lines(ReadFile(csv));
  ASSERT_EQ(rows.size(), 1002u);
  const std::vector<std::string> header = Fields(rows[0]);
  ASSERT_EQ(header.back(), "total");
  ASSERT_EQ(header.size(), 2 + 12 * 6 + 3u);
  // Masses, in the scene's order (DiagonalMass vertexMass).
  const std::string xml = GallerySceneText("fazarinc_nbody.scn");
  const std::size_t at = xml.find("vertexMass=\"") + 12;
  std::istringstream mass_text(xml.substr(at, xml.find('"', at) - at));
  std::vector<double> mass((std::istream_iterator<double>(mass_text)),
                           std::istream_iterator<double>());
  ASSERT_EQ(mass.size(), 12u);

  const auto momentum = [&](const std::vector<std::string>& f, int axis) {
    double p = 0;
    for (int i = 0; i < 12; ++i) p += mass[i] * ParseDouble(f[2 + 36 + 3 * i + axis]);
    return p;
  };
  const std::vector<std::string> first = Fields(rows[1]);
  const double e0 = ParseDouble(first.back());
  double p0[3], kinetic_max = 0, worst = 0;
  for (int a = 0; a < 3; ++a) p0[a] = momentum(first, a);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string> f = Fields(rows[r]);
    // The trapezoidal step conserves Σ m·v exactly in exact arithmetic: every force evaluation
    // sums to zero and K's block rows sum to zero, so each Newton correction has zero total
    // momentum. Rounding: a few ulps of Σ m|v| (≤ 40) per step.
    for (int a = 0; a < 3; ++a)
      ASSERT_NEAR(momentum(f, a), p0[a], 16 * static_cast<double>(r) * kEps * 40) << "row " << r;
    worst = std::max(worst, std::abs(ParseDouble(f.back()) - e0));
    kinetic_max = std::max(kinetic_max, ParseDouble(f[f.size() - 3]));
  }
  // Energy: no drift, an error of the trapezoidal rule's second order. Its size per unit energy
  // is about (ω_max·h)²/12, ω_max the stiffest pair frequency: with softening ε = 0.2, a pair's
  // tangent is at most 2·G·m_i·m_j/ε³, so ω_max² ≤ 2·G·m_max·2/ε³ = 750 (m ≤ 1.5), ω_max·h ≤
  // 0.14. Energy scale: K_max + |U|_max ≤ 2·K_max + |E| .
  const double h = 0.005, omega_max = std::sqrt(2 * 1.5 * 2 / std::pow(0.2, 3));
  EXPECT_LT(worst, std::pow(omega_max * h, 2) / 12 * (2 * kinetic_max + std::abs(e0)));
  EXPECT_GT(worst, 0.0);
}

}  // namespace
}  // namespace fluxion::testing
