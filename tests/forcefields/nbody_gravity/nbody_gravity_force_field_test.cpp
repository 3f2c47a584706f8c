// NBodyGravityForceField (plugins/nbody_gravity/): the force against central finite differences of
// the potential, the tangent stiffness against central finite differences of the force, Newton's
// third law and zero total torque to rounding, hand-computed values, massless points, a two-body
// circular orbit with its known period, conservation under a symplectic solver, and the error
// paths (bad fields, too many points, a collision without softening, the plugin missing).
//
// The field is created through the registry exactly as the scene builder creates it (the
// plugin's factory, wrapped by the framework), from a ForceFieldContext built here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "registry/component_registry.h"
#include "support/scene_text.h"
#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using Dense = Eigen::MatrixXd;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Points of one object (point by point), their masses, and the field's attributes.
struct Bodies {
  int dim = 3;
  std::vector<double> x;
  std::vector<double> mass;
  double g = 1.0, softening = 0.0, exponent = 2.0;

  Index num_points() const { return static_cast<Index>(mass.size()); }
  Index num_dofs() const { return static_cast<Index>(x.size()); }
  State MakeState() const {
    State s;
    s.x = Eigen::Map<const Vector>(x.data(), num_dofs());
    s.v = Vector::Zero(num_dofs());
    return s;
  }
};

// The field as the builder makes it: registry entry, parsed parameters, context of the object.
std::unique_ptr<ForceField> MakeField(const Bodies& b) {
  const ComponentInfo* entry = TestHost().FindComponent("NBodyGravityForceField");
  if (entry == nullptr) {
    ADD_FAILURE() << "NBodyGravityForceField not registered (plugin not built?)";
    return nullptr;
  }
  const Parameters parameters =
      ParseParameters(entry->spec, {{"G", std::to_string(b.g)},
                                    {"softening", std::to_string(b.softening)},
                                    {"exponent", std::to_string(b.exponent)}});
  const std::vector<double> v(b.x.size(), 0.0);
  ForceFieldContext context;
  context.object = "test/bodies";
  context.dimension = b.dim;
  context.num_points = b.num_points();
  context.first_dof = 0;
  context.point_mass = b.mass;
  context.positions = b.x;
  context.velocities = v;
  return internal::ComponentRegistry::CreateForceField(*entry, parameters, context);
}

Vector Force(const ForceField& field, const State& state) {
  Vector f = Vector::Zero(state.x.size());
  field.AddForce(state, f);
  return f;
}

// K scattered into a dense matrix through the field's own entry list (slot k = value k).
Dense Stiffness(const ForceField& field, const State& state) {
  std::vector<MatrixEntry> entries;
  field.StiffnessEntries(entries);
  std::vector<Index> slots(entries.size());
  std::iota(slots.begin(), slots.end(), Index{0});
  std::vector<double> values(entries.size(), 0.0);
  field.AddStiffness(state, slots.data(), values.data());
  Dense K = Dense::Zero(state.x.size(), state.x.size());
  for (std::size_t k = 0; k < entries.size(); ++k) K(entries[k].row, entries[k].col) += values[k];
  return K;
}

// n points in [−1, 1]^dim, pairwise at least `min_distance` apart (rejection sampling), masses in
// [0.5, 2]: a seeded, deterministic configuration.
Bodies RandomBodies(unsigned seed, int dim, int n, double exponent, double softening) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coordinate(-1.0, 1.0), mass(0.5, 2.0);
  Bodies b;
  b.dim = dim;
  b.g = 1.3;  // not 1: a missing factor G shows
  b.exponent = exponent;
  b.softening = softening;
  while (b.num_points() < n) {
    std::vector<double> p(static_cast<std::size_t>(dim));
    for (double& c : p) c = coordinate(rng);
    bool far = true;
    for (Index j = 0; j < b.num_points(); ++j) {
      double d2 = 0;
      for (int a = 0; a < dim; ++a) d2 += std::pow(p[a] - b.x[j * dim + a], 2);
      far = far && d2 >= 0.3 * 0.3;
    }
    if (!far) continue;
    b.x.insert(b.x.end(), p.begin(), p.end());
    b.mass.push_back(mass(rng));
  }
  return b;
}

// --- Finite differences ------------------------------------------------------------------------
// Central differences with step δ have truncation error δ²/6·|g'''| for a function g of one
// coordinate. For one pair the k-th derivative of the radial law c·r^(−p) is bounded, in any
// direction, by c·(p+1)(p+2)…(p+k)/r^(p+k+1)-type terms; summed over the (n − 1) partners of a
// point with r ≥ r_min = 0.3 (softening only increases s) and c ≤ G·2·2:
//   |∂³U| ≤ B3 = (n−1)·c_max·(p+1)(p+2)(p+3)/r_min^(p+2)      (U' ~ f ~ c/r^p)
//   |∂³f| ≤ B4 = (n−1)·c_max·(p+1)(p+2)(p+3)(p+4)/r_min^(p+3)
// (the factorials dominate the angular terms' coefficients, which are products of at most k of
// the same factors). Rounding of the difference quotient adds ≤ 4·eps·(Σ|terms|)/(2δ).
struct FdCase {
  int dim;
  double exponent;
  double softening;
  unsigned seed;
};
void PrintTo(const FdCase& c, std::ostream* out) {
  *out << "Vec" << c.dim << "d, exponent " << c.exponent << ", softening " << c.softening
       << ", seed " << c.seed;
}

class NBodyFiniteDifferences : public ::testing::TestWithParam<FdCase> {};

TEST_P(NBodyFiniteDifferences, ForceIsMinusTheGradientOfThePotential) {
  const FdCase param = GetParam();
  const Bodies bodies = RandomBodies(param.seed, param.dim, 5, param.exponent, param.softening);
  const std::unique_ptr<ForceField> field = MakeField(bodies);
  ASSERT_TRUE(field);
  const State state = bodies.MakeState();
  const Vector f = Force(*field, state);
  const double p = param.exponent, n = 5, c_max = bodies.g * 4, r_min = 0.3, delta = 1e-5;
  const double b3 = (n - 1) * c_max * (p + 1) * (p + 2) * (p + 3) / std::pow(r_min, p + 2);
  // |U| summed over pairs: at most 10 pairs of c_max·max(|ln|, r^(1−p)/(p−1)) over r ∈ [0.3, 3.5].
  const double u_scale =
      10 * c_max * std::max(2.0, std::pow(r_min, 1 - p) / std::abs(p - 1 + 1e-300));
  const double tolerance = delta * delta / 6 * b3 + 4 * kEps * u_scale / (2 * delta);
  for (Index k = 0; k < bodies.num_dofs(); ++k) {
    State plus = state, minus = state;
    plus.x[k] += delta;
    minus.x[k] -= delta;
    const double gradient =
        (field->PotentialEnergy(plus) - field->PotentialEnergy(minus)) / (2 * delta);
    EXPECT_NEAR(f[k], -gradient, tolerance) << "dof " << k;
  }
}

TEST_P(NBodyFiniteDifferences, StiffnessIsMinusTheDerivativeOfTheForce) {
  const FdCase param = GetParam();
  const Bodies bodies = RandomBodies(param.seed, param.dim, 5, param.exponent, param.softening);
  const std::unique_ptr<ForceField> field = MakeField(bodies);
  ASSERT_TRUE(field);
  const State state = bodies.MakeState();
  const Dense K = Stiffness(*field, state);
  const double p = param.exponent, n = 5, c_max = bodies.g * 4, r_min = 0.3, delta = 1e-5;
  const double b4 =
      (n - 1) * c_max * (p + 1) * (p + 2) * (p + 3) * (p + 4) / std::pow(r_min, p + 3);
  const double f_scale = (n - 1) * c_max / std::pow(r_min, p);  // Σ|f_pair| on one DOF
  const double tolerance = delta * delta / 6 * b4 + 4 * kEps * f_scale / (2 * delta);
  for (Index k = 0; k < bodies.num_dofs(); ++k) {
    State plus = state, minus = state;
    plus.x[k] += delta;
    minus.x[k] -= delta;
    const Vector column = -(Force(*field, plus) - Force(*field, minus)) / (2 * delta);
    for (Index r = 0; r < bodies.num_dofs(); ++r)
      EXPECT_NEAR(K(r, k), column[r], tolerance) << "K(" << r << ", " << k << ")";
  }
  // K is symmetric (a conservative field) up to the rounding of its own assembly.
  EXPECT_LE((K - K.transpose()).cwiseAbs().maxCoeff(), 8 * kEps * K.cwiseAbs().maxCoeff());
}

// Newton's third law, pair by pair: Σ f_i = 0 and the total torque Σ x_i × f_i = 0 (central
// forces), to the rounding of summing n·(n−1) pair terms (≤ n² ulps of the largest sum).
TEST_P(NBodyFiniteDifferences, TotalForceAndTorqueVanishToRounding) {
  const FdCase param = GetParam();
  const Bodies bodies = RandomBodies(param.seed, param.dim, 5, param.exponent, param.softening);
  const std::unique_ptr<ForceField> field = MakeField(bodies);
  ASSERT_TRUE(field);
  const State state = bodies.MakeState();
  const Vector f = Force(*field, state);
  const int d = bodies.dim;
  const double magnitude = f.cwiseAbs().sum() + 1e3;  // pair forces ≤ c_max/r_min^p·n ≈ 1e3
  for (int a = 0; a < d; ++a) {
    double total = 0;
    for (Index i = 0; i < bodies.num_points(); ++i) total += f[i * d + a];
    EXPECT_NEAR(total, 0.0, 25 * kEps * magnitude) << "axis " << a;
  }
  if (d >= 2) {  // the z-component of the torque (the only one in 2-D)
    double torque = 0;
    for (Index i = 0; i < bodies.num_points(); ++i)
      torque += state.x[i * d] * f[i * d + 1] - state.x[i * d + 1] * f[i * d];
    EXPECT_NEAR(torque, 0.0, 25 * kEps * 2 * magnitude);
  }
}

INSTANTIATE_TEST_SUITE_P(Laws, NBodyFiniteDifferences,
                         ::testing::Values(FdCase{2, 1.0, 0.0, 1}, FdCase{2, 2.0, 0.0, 2},
                                           FdCase{2, 3.0, 0.0, 3}, FdCase{2, 2.0, 0.2, 4},
                                           FdCase{3, 1.0, 0.1, 5}, FdCase{3, 2.0, 0.0, 6},
                                           FdCase{3, 2.0, 0.3, 7}, FdCase{3, 3.0, 0.0, 8},
                                           FdCase{3, 3.0, 0.25, 9}, FdCase{3, 1.0, 0.0, 10},
                                           FdCase{3, 2.5, 0.05, 11}, FdCase{2, 1.5, 0.0, 12}),
                         [](const ::testing::TestParamInfo<FdCase>& test) {
                           return "Vec" + std::to_string(test.param.dim) + "d_p" +
                                  std::to_string(static_cast<int>(test.param.exponent * 10)) +
                                  "_eps" +
                                  std::to_string(static_cast<int>(test.param.softening * 100)) +
                                  "_seed" + std::to_string(test.param.seed);
                         });

// --- Hand-computed values ----------------------------------------------------------------------
// Two unit masses 2 m apart on x, G = 1, p = 2: f_0 = +1/4 x̂, f_1 = −1/4 x̂; U = −1/2;
// J = (1/8)(I − 3x̂x̂ᵀ) = diag(−1/4, 1/8, 1/8), K_00 = K_11 = J, K_01 = K_10 = −J.
TEST(NBodyGravityForceField, MatchesHandComputedNewtonianPair) {
  Bodies b;
  b.x = {0, 0, 0, 2, 0, 0};
  b.mass = {1, 1};
  const std::unique_ptr<ForceField> field = MakeField(b);
  ASSERT_TRUE(field);
  const State s = b.MakeState();
  const Vector f = Force(*field, s);
  EXPECT_DOUBLE_EQ(f[0], 0.25);
  EXPECT_DOUBLE_EQ(f[3], -0.25);
  EXPECT_EQ(f[1], 0.0);
  EXPECT_EQ(f[4], 0.0);
  EXPECT_DOUBLE_EQ(field->PotentialEnergy(s), -0.5);
  const Dense K = Stiffness(*field, s);
  Dense J = Dense::Zero(3, 3);
  J.diagonal() << -0.25, 0.125, 0.125;
  EXPECT_LE((K.block(0, 0, 3, 3) - J).cwiseAbs().maxCoeff(), 4 * kEps);
  EXPECT_LE((K.block(3, 3, 3, 3) - J).cwiseAbs().maxCoeff(), 4 * kEps);
  EXPECT_LE((K.block(0, 3, 3, 3) + J).cwiseAbs().maxCoeff(), 4 * kEps);
  EXPECT_LE((K.block(3, 0, 3, 3) + J).cwiseAbs().maxCoeff(), 4 * kEps);
}

// Hoffmann's law p = 1 in 2-D with softening: masses 2 and 3, G = 0.5, d = (3, 4), ε = 1:
// s = 26, c = 3, f_0 = c·d/s = (9/26, 12/26), U = c·½·ln 26.
TEST(NBodyGravityForceField, MatchesHandComputedSoftenedLogarithmicPair) {
  Bodies b;
  b.dim = 2;
  b.x = {1, 1, 4, 5};
  b.mass = {2, 3};
  b.g = 0.5;
  b.softening = 1;
  b.exponent = 1;
  const std::unique_ptr<ForceField> field = MakeField(b);
  ASSERT_TRUE(field);
  const State s = b.MakeState();
  const Vector f = Force(*field, s);
  EXPECT_DOUBLE_EQ(f[0], 9.0 / 26);
  EXPECT_DOUBLE_EQ(f[1], 12.0 / 26);
  EXPECT_DOUBLE_EQ(f[2], -9.0 / 26);
  EXPECT_DOUBLE_EQ(f[3], -12.0 / 26);
  EXPECT_DOUBLE_EQ(field->PotentialEnergy(s), 1.5 * std::log(26.0));
}

// Vec1d, p = 2: masses 1 and 4 at 0 and −2, G = 1: f_0 = 4·(−2)/8 = −1, f_1 = +1, U = −2,
// J = c/|d|³·(1 − 3) = −1, so K = [[−1, 1], [1, −1]].
TEST(NBodyGravityForceField, WorksOnALine) {
  Bodies b;
  b.dim = 1;
  b.x = {0, -2};
  b.mass = {1, 4};
  const std::unique_ptr<ForceField> field = MakeField(b);
  ASSERT_TRUE(field);
  const State s = b.MakeState();
  const Vector f = Force(*field, s);
  EXPECT_DOUBLE_EQ(f[0], -1.0);
  EXPECT_DOUBLE_EQ(f[1], 1.0);
  EXPECT_DOUBLE_EQ(field->PotentialEnergy(s), -2.0);
  Dense expected(2, 2);
  expected << -1, 1, 1, -1;
  EXPECT_LE((Stiffness(*field, s) - expected).cwiseAbs().maxCoeff(), 4 * kEps);
}

// A massless point neither attracts nor is attracted, and lists no stiffness entries: the other
// points' forces are those of the object without it, bit for bit.
TEST(NBodyGravityForceField, MasslessPointsTakeNoPart) {
  Bodies with = RandomBodies(21, 3, 4, 2.0, 0.0);
  with.mass[2] = 0.0;
  Bodies without = with;
  without.x.erase(without.x.begin() + 6, without.x.begin() + 9);
  without.mass.erase(without.mass.begin() + 2);
  const std::unique_ptr<ForceField> a = MakeField(with), b = MakeField(without);
  ASSERT_TRUE(a && b);
  const Vector fa = Force(*a, with.MakeState()), fb = Force(*b, without.MakeState());
  EXPECT_EQ(fa.segment(6, 3), Vector::Zero(3));
  EXPECT_EQ(fa.head(6), fb.head(6));
  EXPECT_EQ(fa.tail(3), fb.tail(3));
  EXPECT_EQ(a->PotentialEnergy(with.MakeState()), b->PotentialEnergy(without.MakeState()));
  std::vector<MatrixEntry> entries;
  a->StiffnessEntries(entries);
  EXPECT_EQ(entries.size(), 9u * 3 * 3);  // N² blocks of 3×3 for the N = 3 massive points
  for (const MatrixEntry& e : entries) {
    EXPECT_FALSE(e.row >= 6 && e.row < 9);
    EXPECT_FALSE(e.col >= 6 && e.col < 9);
  }
}

// --- Dynamics ----------------------------------------------------------------------------------
// Two bodies m1 = 1, m2 = 3, G = 1, 1 m apart, on the circular orbit about their centre of mass:
// ω² = G(m1 + m2)/R³ = 4, period T = π; body 1 at −m2/M·R = −0.75 with speed ω·0.75 = 1.5,
// body 2 at +0.25 with speed 0.5, counter-clockwise. Forest–Ruth (order 4) with h = T/n: after
// one period the bodies are back at the start up to the method's global error C·h⁴. The
// assertion derived from the order: halving h divides the error by 2⁴ = 16 (within a factor 1.5,
// which rejects an order-3 or order-5 error). A scale check besides: the error is below
// 10·R·n·(ωh)⁵ = 10·2π·R·(ωh)⁴, i.e. a local error under 10·(ωh)⁵ per step (Forest–Ruth's
// coefficient is 0.066 on the linear oscillator; Kepler's nonlinearity raises it, not tenfold
// beyond 1).
constexpr const char* kTwoBodyScene = R"(<?xml version="1.0"?>
<Node name="root" gravity="0 0 0" dt="DT">
  <RequiredPlugin pluginName="nbody_gravity"/>
  <SOLVER/>
  <MechanicalObject name="bodies" template="Vec2d" position="-0.75 0  0.25 0" velocity="0 -1.5  0 0.5"/>
  <DiagonalMass vertexMass="1 3"/>
  <NBodyGravityForceField G="1"/>
</Node>
)";

std::string TwoBodyScene(const std::string& solver, double dt) {
  std::string xml = kTwoBodyScene;
  xml.replace(xml.find("SOLVER"), 6, solver);
  xml.replace(xml.find("DT"), 2, Exact(dt));
  return xml;
}

TEST(NBodyGravityDynamics, TwoBodyCircularOrbitHasItsKeplerPeriod) {
  const double period = M_PI, omega = 2.0;
  // The distance from the start after one period, with n steps per period.
  const auto error_after_one_period = [&](int n) {
    Simulation sim = LoadScene(TwoBodyScene("ForestRuthSolver", period / n), "two_body.scn");
    const Vector start = sim.position(0);
    for (int k = 0; k < n; ++k) sim.Step();
    return (sim.position(0) - start).norm();
  };
  const double e1 = error_after_one_period(100), e2 = error_after_one_period(200);
  EXPECT_LE(e1, 10 * 2 * M_PI * 0.75 * std::pow(omega * period / 100, 4));
  EXPECT_GT(e1 / e2, 16 / 1.5);
  EXPECT_LT(e1 / e2, 16 * 1.5);
  // Half a period: the bodies are on the opposite side.
  Simulation sim = LoadScene(TwoBodyScene("ForestRuthSolver", period / 200), "2b.scn");
  for (int k = 0; k < 100; ++k) sim.Step();
  const double half_period_scale = 10 * M_PI * std::pow(omega * period / 200, 4);
  EXPECT_NEAR(sim.position(0)[0], 0.75, 0.75 * half_period_scale);
  EXPECT_NEAR(sim.position(0)[2], -0.25, 0.25 * half_period_scale);
}

// Velocity Verlet on the same orbit perturbed into an ellipse (speeds × 0.9): symplectic with a
// central force, it conserves the total angular momentum exactly in exact arithmetic (each kick
// adds Σ x_i × Δv_i ∝ Σ x_i × f_i = 0; a drift x += h·v leaves Σ m_i x_i × v_i unchanged), so
// to rounding: ≤ 16·eps·|L| per step. The total momentum (zero) likewise.
// The energy of this second-order method does not drift: the run follows, to O(h⁴), the level
// set of Störmer–Verlet's modified Hamiltonian H̃ = H + h²·H₂ (Hairer–Lubich–Wanner, Geometric
// Numerical Integration, IX.5), H₂ = V_qq(M⁻¹p, M⁻¹p)/12 − ∇Vᵀ·M⁻¹·∇V/24, so
// |E_n − E_0| ≤ h²·(max H₂ − min H₂) + O(h⁴). In relative coordinates (c = G·m1·m2 = 3,
// 1/m1 + 1/m2 = 4/3, relative speed u, distance r): V_qq(u, u) ∈ [−2c·u²/r³, c·u²/r³] and
// ∇Vᵀ·M⁻¹·∇V = (4/3)·c²/r⁴. On this ellipse (GM = 4, r_apo = 1, u_apo = 1.8: a = 4/4.76,
// r_peri = 2a − 1, u_peri = 1.8/r_peri) |H₂| ≤ 2c·u_peri²/(12·r_peri³) + (4/3)c²/(24·r_peri⁴),
// and the bound is twice that (max − min), with 10 % for the O(h⁴) rest ((ω_peri·h)² < 0.02).
TEST(NBodyGravityDynamics, VelocityVerletConservesAngularMomentumToRounding) {
  const double h = M_PI / 200;
  std::string xml = TwoBodyScene("VelocityVerletSolver", h);
  xml.replace(xml.find("0 -1.5  0 0.5"), 13, "0 -1.35  0 0.45");
  Simulation sim = LoadScene(xml, "two_body.scn");
  const double m[2] = {1, 3};
  const auto angular = [&] {
    const Vector x = sim.position(0), v = sim.velocity(0);
    double l = 0;
    for (int i = 0; i < 2; ++i) l += m[i] * (x[2 * i] * v[2 * i + 1] - x[2 * i + 1] * v[2 * i]);
    return l;
  };
  const double l0 = angular();
  const double e0 = sim.KineticEnergy() + sim.PotentialEnergy();
  const int n = 2000;
  double max_energy_error = 0;
  for (int k = 1; k <= n; ++k) {
    sim.Step();
    ASSERT_NEAR(angular(), l0, k * 16 * kEps * 2 * std::abs(l0)) << "step " << k;
    const Vector v = sim.velocity(0);
    ASSERT_NEAR(m[0] * v[0] + m[1] * v[2], 0.0, k * 16 * kEps * 2);
    ASSERT_NEAR(m[0] * v[1] + m[1] * v[3], 0.0, k * 16 * kEps * 2);
    max_energy_error =
        std::max(max_energy_error, std::abs(sim.KineticEnergy() + sim.PotentialEnergy() - e0));
  }
  const double c = 3, a = 4 / 4.76, r_peri = 2 * a - 1, u_peri = 1.8 / r_peri;
  const double h2_bound = 2 * c * u_peri * u_peri / (12 * std::pow(r_peri, 3)) +
                          (4.0 / 3) * c * c / (24 * std::pow(r_peri, 4));
  EXPECT_LE(max_energy_error, 1.1 * 2 * h2_bound * h * h);
  EXPECT_GT(max_energy_error, 0.0);
}

// --- Error paths -------------------------------------------------------------------------------
constexpr const char* kBadScene = R"(<?xml version="1.0"?>
<Node name="root" gravity="0 0 0" dt="0.01">
  <VelocityVerletSolver/>
  <MechanicalObject name="bodies" template="Vec3d" position="POSITIONS"/>
  <UniformMass totalMass="TOTAL"/>
  <NBodyGravityForceField ATTRIBUTES/>
</Node>
)";

std::string BadScene(const std::string& attributes, int points = 2, double total_mass = 2) {
  std::string positions;
  for (int i = 0; i < points; ++i) positions += std::to_string(i) + " 0 0 ";
  std::string xml = kBadScene;
  xml.replace(xml.find("POSITIONS"), 9, positions);
  xml.replace(xml.find("TOTAL"), 5, std::to_string(total_mass));
  xml.replace(xml.find("ATTRIBUTES"), 10, attributes);
  return xml;
}

struct BadCase {
  const char* name;
  const char* attributes;
  const char* mentions;
};
void PrintTo(const BadCase& c, std::ostream* out) { *out << c.attributes; }

class NBodyBadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(NBodyBadInput, ExitsTwoWithOneLocatedLine) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("bad.scn", BadScene(GetParam().attributes));
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -q");
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_EQ(result.out, "");
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, HasSubstr("error: " + scene + ":6:"));
  EXPECT_THAT(result.err, HasSubstr(GetParam().mentions));
  EXPECT_FALSE(LooksLikeCrash(result.err)) << result.err;
}

INSTANTIATE_TEST_SUITE_P(
    Fields, NBodyBadInput,
    ::testing::Values(BadCase{"ZeroG", "G=\"0\"", "G"}, BadCase{"NegativeG", "G=\"-1\"", "G"},
                      BadCase{"TextG", "G=\"big\"", "G"},
                      BadCase{"ZeroExponent", "exponent=\"0\"", "exponent"},
                      BadCase{"NegativeExponent", "exponent=\"-2\"", "exponent"},
                      BadCase{"NegativeSoftening", "softening=\"-0.1\"", "softening"},
                      BadCase{"InfiniteSoftening", "softening=\"inf\"", "softening"},
                      BadCase{"Misspelt", "softenning=\"0.1\"", "softenning"}),
    [](const ::testing::TestParamInfo<BadCase>& test) { return std::string(test.param.name); });

TEST(NBodyBadInput, TooManyPointsExitsTwoNamingTheLimit) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("big.scn", BadScene("G=\"1\"", 501, 501));
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -q");
  EXPECT_EQ(result.status, 2) << result.err;
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, HasSubstr("error: " + scene + ":6:"));
  EXPECT_THAT(result.err, HasSubstr("501 points with mass"));
  EXPECT_THAT(result.err, HasSubstr("at most 500"));
  // 500 points are accepted (and one step of 124750 pairs runs).
  const std::string ok = scratch.Write("ok.scn", BadScene("G=\"1\"", 500, 500));
  const CommandResult fine = RunSceneRunner(ShellQuote(ok) + " --steps 1 -q");
  EXPECT_EQ(fine.status, 0) << fine.err;
}

// Two points at the same place without softening: 0·∞ = NaN in the first force evaluation. The
// framework's divergence check stops the run at step 1 (t = 0.01), exit status 4, after the
// initial row; with softening the same scene runs.
TEST(NBodyBadInput, CollisionWithoutSofteningStopsWithStepAndTime) {
  ScratchFolder scratch;
  std::string xml = BadScene("G=\"1\"");
  xml.replace(xml.find("0 0 0 1 0 0"), 11, "0 0 0 0 0 0");
  const std::string scene = scratch.Write("collide.scn", xml);
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 5");
  EXPECT_EQ(result.status, 4) << result.err;
  EXPECT_EQ(Lines(result.out).size(), 2u) << result.out;  // header and step 0
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, HasSubstr("step 1"));
  EXPECT_THAT(result.err, HasSubstr("0.01"));
  EXPECT_FALSE(LooksLikeCrash(result.err)) << result.err;

  xml.replace(xml.find("G=\"1\""), 5, "G=\"1\" softening=\"0.1\"");
  const std::string soft = scratch.Write("soft.scn", xml);
  const CommandResult fine = RunSceneRunner(ShellQuote(soft) + " --steps 5 -q");
  EXPECT_EQ(fine.status, 0) << fine.err;
}

// Without the plugin on the search path (a copy of scene-runner and the framework library with
// only the solver's plugin beside it), the scene fails with exit 3 naming the missing library.
TEST(NBodyBadInput, MissingPluginExitsThreeNamingTheLibrary) {
  ScratchFolder scratch;
  const fs::path build_bin = fs::path(SceneRunner()).parent_path();
  const fs::path build_lib = build_bin.parent_path() / "lib";
  const fs::path prefix = scratch.path() / "prefix";
  fs::create_directories(prefix / "bin");
  fs::create_directories(prefix / "lib" / "fluxion" / "plugins");
  const fs::path runner = prefix / "bin" / fs::path(SceneRunner()).filename();
  fs::copy_file(SceneRunner(), runner);
  for (const fs::directory_entry& entry : fs::directory_iterator(build_lib))
    if (entry.path().filename().string().rfind("libfluxion.so", 0) == 0)
      fs::copy(entry.path(), prefix / "lib" / entry.path().filename(),
               fs::copy_options::copy_symlinks);
  const fs::path plugins = build_lib / "fluxion" / "plugins";
  fs::copy_file(plugins / "fluxion_velocity_verlet.so",
                prefix / "lib" / "fluxion" / "plugins" / "fluxion_velocity_verlet.so");
  ASSERT_TRUE(fs::exists(plugins / "fluxion_nbody_gravity.so"));

  const std::string scene = scratch.Write("scene.scn", BadScene("G=\"1\""));
  const CommandResult missing =
      RunSceneRunner(ShellQuote(scene) + " --steps 5 -q", "", runner.string());
  EXPECT_EQ(missing.status, 3) << missing.err;
  EXPECT_EQ(missing.out, "");
  ASSERT_EQ(Lines(missing.err).size(), 1u) << missing.err;
  EXPECT_THAT(missing.err, HasSubstr(scene + ":6:"));
  EXPECT_THAT(missing.err, HasSubstr("NBodyGravityForceField"));
  EXPECT_THAT(missing.err, HasSubstr("fluxion_nbody_gravity.so"));

  // Copying the plugin into another folder and pointing --plugin-dir there makes it run.
  fs::create_directories(scratch.path() / "elsewhere");
  fs::copy_file(plugins / "fluxion_nbody_gravity.so",
                scratch.path() / "elsewhere" / "fluxion_nbody_gravity.so");
  const CommandResult found = RunSceneRunner(
      ShellQuote(scene) + " --steps 5 -q --plugin-dir " + ShellQuote(scratch / "elsewhere"), "",
      runner.string());
  EXPECT_EQ(found.status, 0) << found.err;
}

}  // namespace
}  // namespace fluxion::testing
