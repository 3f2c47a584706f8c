// SpringForceField (mechanics/spring_force_field.h): SOFA's spring force, its tangent stiffness
// D = (ks − fi/d)·ûûᵀ + (fi/d)·I, the optional exact dashpot Jacobian and the potential energy,
// checked against hand computations and central finite differences of the force.
#include "mechanics/spring_force_field.h"

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include "fluxion/threads.h"
#include "mechanics/point_partition.h"
#include "support/test_support.h"

namespace fluxion::internal {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

using Dense = Eigen::MatrixXd;

// A scene of points (each `dim` coordinates) and springs between them, by point index.
struct SpringSet {
  int dim = 3;
  std::vector<double> x, v;  // point by point
  struct Link {
    Index a, b;
    double ks, kd, rest;
  };
  std::vector<Link> links;

  Index num_dofs() const { return static_cast<Index>(x.size()); }
  SpringForceField Field(bool exact_damping_jacobian = false) const {
    std::vector<Spring> springs;
    for (const Link& l : links) springs.push_back({l.a * dim, l.b * dim, l.ks, l.kd, l.rest});
    return SpringForceField(dim, springs, exact_damping_jacobian);
  }
  State MakeState() const {
    State s;
    s.x = Eigen::Map<const Vector>(x.data(), num_dofs());
    s.v = Eigen::Map<const Vector>(v.data(), num_dofs());
    return s;
  }
};

Vector Force(const ForceField& field, const State& state) {
  Vector f = Vector::Zero(state.x.size());
  field.AddForce(state, f);
  return f;
}

// The field's stiffness (or damping) entries scattered into a dense matrix: slot k is value k.
Dense DenseJacobian(const ForceField& field, const State& state, bool damping) {
  std::vector<MatrixEntry> entries;
  if (damping)
    field.DampingEntries(entries);
  else
    field.StiffnessEntries(entries);
  std::vector<Index> slots(entries.size());
  std::iota(slots.begin(), slots.end(), Index{0});
  std::vector<double> values(entries.size(), 0.0);
  if (damping)
    field.AddDamping(state, slots.data(), values.data());
  else
    field.AddStiffness(state, slots.data(), values.data());
  Dense J = Dense::Zero(state.x.size(), state.x.size());
  for (std::size_t k = 0; k < entries.size(); ++k) J(entries[k].row, entries[k].col) += values[k];
  return J;
}

// ∂f/∂x (or ∂f/∂v) by central differences with step delta.
Dense FiniteDifferenceJacobian(const ForceField& field, const State& state, double delta,
                               bool velocity) {
  const Index n = state.x.size();
  Dense J(n, n);
  for (Index j = 0; j < n; ++j) {
    State plus = state, minus = state;
    (velocity ? plus.v : plus.x)[j] += delta;
    (velocity ? minus.v : minus.x)[j] -= delta;
    J.col(j) = (Force(field, plus) - Force(field, minus)) / (2.0 * delta);
  }
  return J;
}

// Independent geometry of one spring, from the test's own data.
struct Geometry {
  Eigen::VectorXd u_hat, relative_velocity;
  double d = 0, e = 0, e_rate = 0;
};
Geometry Measure(const SpringSet& set, const SpringSet::Link& l) {
  Geometry g;
  Eigen::VectorXd u(set.dim), rv(set.dim);
  for (int c = 0; c < set.dim; ++c) {
    u[c] = set.x[l.b * set.dim + c] - set.x[l.a * set.dim + c];
    rv[c] = set.v[l.b * set.dim + c] - set.v[l.a * set.dim + c];
  }
  g.d = u.norm();
  g.u_hat = u / g.d;
  g.e = g.d - l.rest;
  g.relative_velocity = rv;
  g.e_rate = g.u_hat.dot(rv);
  return g;
}

// Adds `block` to J in the spring pattern: (a,a) −, (a,b) +, (b,a) +, (b,b) −  (that of ∂f/∂x).
void AddSpringPattern(Dense& J, const SpringSet& set, const SpringSet::Link& l,
                      const Dense& block) {
  const int dim = set.dim;
  J.block(l.a * dim, l.a * dim, dim, dim) -= block;
  J.block(l.a * dim, l.b * dim, dim, dim) += block;
  J.block(l.b * dim, l.a * dim, dim, dim) += block;
  J.block(l.b * dim, l.b * dim, dim, dim) -= block;
}

// SOFA's tangent D (SpringForceField::addSpringForce), written out by hand: fi includes kd·ė.
Dense SofaTangent(const SpringSet& set, const SpringSet::Link& l) {
  const Geometry g = Measure(set, l);
  const double fi = l.ks * g.e + l.kd * g.e_rate;
  const Dense outer = g.u_hat * g.u_hat.transpose();
  return (l.ks - fi / g.d) * outer + (fi / g.d) * Dense::Identity(set.dim, set.dim);
}

// Scenes in 1-D, 2-D and 3-D: points spread over ~[−1, 2], lengths 0.9..2.2, springs stretched or
// compressed (fi ≠ 0, so the geometric part fi/d·(I − ûûᵀ) matters), points shared by springs.
SpringSet Scene(int dim, double kd) {
  SpringSet set;
  set.dim = dim;
  if (dim == 1) {
    set.x = {0.0, 1.3, -0.9, 2.2};
    set.v = {0.1, -0.4, 0.7, 0.2};
  } else if (dim == 2) {
    set.x = {0.0, 0.0, 1.1, 0.2, 0.3, 1.2, -0.8, 0.9};
    set.v = {0.1, -0.2, 0.5, 0.3, -0.4, 0.6, 0.2, -0.1};
  } else {
    set.x = {0.0, 0.0, 0.0, 1.1, 0.2, -0.3, 0.3, 1.2, 0.4, -0.2, 0.5, 1.0};
    set.v = {0.1, -0.2, 0.3, 0.5, 0.3, -0.1, -0.4, 0.6, 0.2, 0.2, -0.1, 0.4};
  }
  set.links = {{0, 1, 100.0, kd, 1.3},
               {1, 2, 150.0, kd, 0.8},
               {0, 2, 80.0, kd, 1.0},
               {2, 3, 120.0, kd, 1.5},
               {3, 0, 60.0, kd, 0.7}};
  return set;
}

// Bounds of the scenes above, used by the tolerances (a priori, from the data, not the code).
constexpr double kMaxStiffness = 150.0;
constexpr double kMaxRestLength = 1.5;
constexpr double kMinLength = 0.9;
constexpr double kMaxCoordinate = 2.2;
constexpr double kMaxRelativeSpeed = 1.2;
constexpr int kMaxSpringsPerPoint = 3;

// Central differences: truncation δ²/6·|f'''| plus round-off. f = ks·u − ks·L0·û + kd·(û·Δv)·û;
// the third x-derivatives of û = u/‖u‖ are bounded by 15/d³, so per spring
// |f'''| ≤ 15·(ks·L0 + kd·|Δv|)/d³. Round-off: each force is exact to a few ε·|f|, and x ± δ is
// itself rounded (ε·|x| on the step), giving (ε·|f| + ε·|x|·|K|)/δ. A factor 4 covers the few
// roundings per evaluation; the sums run over the springs sharing a point.
double FiniteDifferenceTolerance(double delta, double kd) {
  const double springs = kMaxSpringsPerPoint;
  const double third_derivative = springs * 15.0 *
                                  (kMaxStiffness * kMaxRestLength + kd * kMaxRelativeSpeed) /
                                  (kMinLength * kMinLength * kMinLength);
  const double force = springs * (kMaxStiffness * 2.0 * kMaxCoordinate + kd * kMaxRelativeSpeed);
  const double jacobian = springs * (2.0 * kMaxStiffness + kd);
  const double truncation = delta * delta / 6.0 * third_derivative;
  const double round_off = kEpsilon * (force + kMaxCoordinate * jacobian) / delta;
  return 4.0 * (truncation + round_off);
}

// Step balancing truncation (∝ δ²) against round-off (∝ 1/δ): δ ≈ ε^(1/3) times the length scale.
constexpr double kDelta = 1e-5;

class SpringDimensions : public ::testing::TestWithParam<int> {};

TEST_P(SpringDimensions, StiffnessMatchesFiniteDifferencesWithoutDashpot) {
  const SpringSet set = Scene(GetParam(), /*kd=*/0.0);
  const SpringForceField field = set.Field();
  const State state = set.MakeState();
  const Dense K = DenseJacobian(field, state, false);
  const Dense J = FiniteDifferenceJacobian(field, state, kDelta, false);
  const double tolerance = FiniteDifferenceTolerance(kDelta, 0.0);
  ASSERT_GT(K.cwiseAbs().maxCoeff(), 1e3 * tolerance);  // the comparison has teeth
  EXPECT_LE((K + J).cwiseAbs().maxCoeff(), tolerance) << "K =\n" << K << "\n-∂f/∂x =\n" << -J;
}

TEST_P(SpringDimensions, StiffnessWithDashpotIsSofaTangent) {
  const SpringSet set = Scene(GetParam(), /*kd=*/7.0);
  const SpringForceField field = set.Field();
  const State state = set.MakeState();
  const Dense K = DenseJacobian(field, state, false);
  Dense expected = Dense::Zero(set.num_dofs(), set.num_dofs());
  for (const auto& l : set.links) AddSpringPattern(expected, set, l, -SofaTangent(set, l));
  // Round-off: each entry is a few operations on values of size ≤ ks + |fi|/d, summed over ≤ 3
  // springs; 16ε of that scale is ample.
  const double tolerance = 16 * kEpsilon * kMaxSpringsPerPoint * 4 * kMaxStiffness;
  EXPECT_LE((K - expected).cwiseAbs().maxCoeff(), tolerance) << K << "\n\n" << expected;
}

// With kd ≠ 0, −K is not ∂f/∂x: SOFA's tangent leaves out the derivative of ė = û·(v_b − v_a)
// with respect to x, (kd/d)·û·((I − ûûᵀ)(v_b − v_a))ᵀ per block. That term, added back, closes
// the gap to the finite differences exactly.
TEST_P(SpringDimensions, StiffnessWithDashpotOmitsElongationRateDerivative) {
  const SpringSet set = Scene(GetParam(), /*kd=*/7.0);
  const SpringForceField field = set.Field();
  const State state = set.MakeState();
  const Dense K = DenseJacobian(field, state, false);
  const Dense J = FiniteDifferenceJacobian(field, state, kDelta, false);
  Dense omitted = Dense::Zero(set.num_dofs(), set.num_dofs());
  for (const auto& l : set.links) {
    const Geometry g = Measure(set, l);
    const Dense projector = Dense::Identity(set.dim, set.dim) - g.u_hat * g.u_hat.transpose();
    const Dense block = (l.kd / g.d) * g.u_hat * (projector * g.relative_velocity).transpose();
    AddSpringPattern(omitted, set, l, block);
  }
  const double tolerance = FiniteDifferenceTolerance(kDelta, 7.0);
  if (set.dim > 1) {  // in 1-D û is constant and ė has no x-derivative
    ASSERT_GT(omitted.cwiseAbs().maxCoeff(), 1e3 * tolerance);
  }
  EXPECT_LE((J - (-K + omitted)).cwiseAbs().maxCoeff(), tolerance);
}

TEST_P(SpringDimensions, ExactDampingJacobianMatchesFiniteDifferencesInVelocity) {
  const SpringSet set = Scene(GetParam(), /*kd=*/7.0);
  const SpringForceField field = set.Field(/*exact_damping_jacobian=*/true);
  const State state = set.MakeState();
  const Dense B = DenseJacobian(field, state, true);
  // f is linear in v: central differences have no truncation error; round-off (ε·|f|)/δ with
  // |f| ≤ 3·(2·ks·|x|max + kd·|v|max) ≈ 2e3, so δ = 1e-2 gives ~5e-11.
  const double delta = 1e-2;
  const Dense J = FiniteDifferenceJacobian(field, state, delta, true);
  const double tolerance =
      4 * kEpsilon * kMaxSpringsPerPoint * (2 * kMaxStiffness * kMaxCoordinate + 7.0) / delta;
  ASSERT_GT(B.cwiseAbs().maxCoeff(), 1.0);
  EXPECT_LE((B + J).cwiseAbs().maxCoeff(), tolerance) << B << "\n\n" << -J;
  // B = kd·ûûᵀ per block, by hand.
  Dense expected = Dense::Zero(set.num_dofs(), set.num_dofs());
  for (const auto& l : set.links) {
    const Geometry g = Measure(set, l);
    AddSpringPattern(expected, set, l, -l.kd * g.u_hat * g.u_hat.transpose());
  }
  EXPECT_LE((B - expected).cwiseAbs().maxCoeff(), 16 * kEpsilon * 7.0 * kMaxSpringsPerPoint);
}

TEST_P(SpringDimensions, StiffnessIsSymmetric) {
  const SpringSet set = Scene(GetParam(), /*kd=*/7.0);
  const Dense K = DenseJacobian(set.Field(), set.MakeState(), false);
  // D(j,k) = ((ks − fi/d)·ûⱼ)·ûₖ in SOFA's operation order: D(j,k) and D(k,j) are the same product
  // rounded in another order, at most 2ε apart relative to |D| ≤ ks + |fi|/d (< 4·ks here); ≤ 3
  // springs add up at an entry.
  const double tolerance = 2 * kEpsilon * kMaxSpringsPerPoint * 4 * kMaxStiffness;
  EXPECT_LE((K - K.transpose()).cwiseAbs().maxCoeff(), tolerance);
}

TEST_P(SpringDimensions, ForceMatchesHandComputation) {
  const SpringSet set = Scene(GetParam(), /*kd=*/7.0);
  const Vector f = Force(set.Field(), set.MakeState());
  Vector expected = Vector::Zero(set.num_dofs());
  for (const auto& l : set.links) {
    const Geometry g = Measure(set, l);
    const Eigen::VectorXd force = (l.ks * g.e + l.kd * g.e_rate) * g.u_hat;
    expected.segment(l.a * set.dim, set.dim) += force;  // a is pulled towards b when stretched
    expected.segment(l.b * set.dim, set.dim) -= force;
  }
  const double tolerance = 16 * kEpsilon * kMaxSpringsPerPoint * kMaxStiffness * 2 * kMaxCoordinate;
  EXPECT_LE((f - expected).cwiseAbs().maxCoeff(), tolerance) << f.transpose() << "\n"
                                                             << expected.transpose();
}

TEST_P(SpringDimensions, NoDampingMatrixUnlessRequested) {
  const SpringSet set = Scene(GetParam(), /*kd=*/7.0);
  std::vector<MatrixEntry> entries;
  set.Field(false).DampingEntries(entries);
  EXPECT_TRUE(entries.empty());
  set.Field(true).DampingEntries(entries);
  EXPECT_EQ(entries.size(), set.links.size() * 4 * set.dim * set.dim);
}

INSTANTIATE_TEST_SUITE_P(OneTwoThreeD, SpringDimensions, ::testing::Values(1, 2, 3),
                         [](const ::testing::TestParamInfo<int>& param_info) {
                           return std::to_string(param_info.param) + "D";
                         });

// Two points on a 3-4-5 triangle, so every quantity is a short decimal.
SpringSet ThreeFourFive(double ks, double kd, double rest, std::array<double, 3> velocity_b) {
  SpringSet set;
  set.dim = 3;
  set.x = {1.0, 1.0, 1.0, 4.0, 5.0, 1.0};  // u = (3, 4, 0), d = 5, û = (0.6, 0.8, 0)
  set.v = {0.0, 0.0, 0.0, velocity_b[0], velocity_b[1], velocity_b[2]};
  set.links = {{0, 1, ks, kd, rest}};
  return set;
}

// A few ulps of the largest force component.
constexpr double kForceRoundOff = 1e-13;

TEST(SpringForceField, HookesLawAlongTheAxis) {
  // Stretched by 1: fi = ks·(d − L0) = 10, pulling a towards b and b towards a.
  const SpringSet stretched = ThreeFourFive(10.0, 0.0, 4.0, {0, 0, 0});
  Vector f = Force(stretched.Field(), stretched.MakeState());
  const Vector expected_stretched = (Vector(6) << 6, 8, 0, -6, -8, 0).finished();
  EXPECT_LE((f - expected_stretched).cwiseAbs().maxCoeff(), kForceRoundOff) << f.transpose();
  // Compressed by 2: fi = −20, pushing them apart.
  const SpringSet compressed = ThreeFourFive(10.0, 0.0, 7.0, {0, 0, 0});
  f = Force(compressed.Field(), compressed.MakeState());
  const Vector expected_compressed = (Vector(6) << -12, -16, 0, 12, 16, 0).finished();
  EXPECT_LE((f - expected_compressed).cwiseAbs().maxCoeff(), kForceRoundOff) << f.transpose();
  // At rest length: no force.
  const SpringSet rest = ThreeFourFive(10.0, 0.0, 5.0, {0, 0, 0});
  EXPECT_LE(Force(rest.Field(), rest.MakeState()).cwiseAbs().maxCoeff(), kForceRoundOff);
}

TEST(SpringForceField, DashpotActsAlongTheAxisOnly) {
  // v_b − v_a = (1, 2, 5): ė = û·(1, 2, 5) = 0.6 + 1.6 = 2.2; at rest length fi = kd·ė = 6.6.
  const SpringSet moving = ThreeFourFive(10.0, 3.0, 5.0, {1, 2, 5});
  Vector f = Force(moving.Field(), moving.MakeState());
  const Vector expected = (Vector(6) << 3.96, 5.28, 0, -3.96, -5.28, 0).finished();
  EXPECT_LE((f - expected).cwiseAbs().maxCoeff(), kForceRoundOff) << f.transpose();
  // A velocity perpendicular to the axis, (−4, 3, 7), does not change the length: no force.
  const SpringSet sliding = ThreeFourFive(10.0, 3.0, 5.0, {-4, 3, 7});
  f = Force(sliding.Field(), sliding.MakeState());
  EXPECT_LE(f.cwiseAbs().maxCoeff(), kForceRoundOff) << f.transpose();
}

TEST(SpringForceField, PotentialEnergyIsHalfKsElongationSquared) {
  const SpringSet set = Scene(3, /*kd=*/7.0);  // the dashpot stores no energy
  double expected = 0.0;
  for (const auto& l : set.links) {
    const Geometry g = Measure(set, l);
    expected += 0.5 * l.ks * g.e * g.e;
  }
  EXPECT_NEAR(set.Field().PotentialEnergy(set.MakeState()), expected, 1e-13 * expected);
  const SpringSet rest = ThreeFourFive(10.0, 0.0, 4.0, {0, 0, 0});
  EXPECT_NEAR(rest.Field().PotentialEnergy(rest.MakeState()), 5.0, 1e-14);  // ½·10·1²
}

// SOFA's activity threshold: a spring no longer than 1e-9 exerts no force and has a zero tangent.
TEST(SpringForceField, SpringShorterThanThresholdIsInactive) {
  for (const double length : {0.0, 5e-10, 1e-9}) {
    SpringSet set;
    set.dim = 3;
    set.x = {0.0, 0.0, 0.0, length, 0.0, 0.0};  // d = length exactly
    set.v = {0.0, 0.0, 0.0, 1.0, 0.0, 0.0};
    set.links = {{0, 1, 100.0, 5.0, 1.0}};
    const State state = set.MakeState();
    const SpringForceField field = set.Field(true);
    EXPECT_EQ(Force(field, state), Vector::Zero(6)) << "length " << length;
    EXPECT_EQ(DenseJacobian(field, state, false), Dense::Zero(6, 6)) << "length " << length;
    EXPECT_EQ(DenseJacobian(field, state, true), Dense::Zero(6, 6)) << "length " << length;
  }
  // Just above the threshold the spring acts (its compression pushes the points apart).
  SpringSet active;
  active.dim = 3;
  active.x = {0.0, 0.0, 0.0, 4e-9, 0.0, 0.0};
  active.v = {0, 0, 0, 0, 0, 0};
  active.links = {{0, 1, 100.0, 0.0, 1.0}};
  const Vector f = Force(active.Field(), active.MakeState());
  EXPECT_LT(f[0], -99.0);
  EXPECT_GT(f[3], 99.0);
}

// SOFA's SpringForceField::getPotentialEnergy sums ½ks(d − L0)² over every spring, collapsed or not
// (only the force has the 1e-9 threshold), so the energy has no jump at d = 0.
TEST(SpringForceField, CollapsedSpringKeepsItsEnergy) {
  SpringSet set;
  set.dim = 2;
  set.x = {0.5, 0.5, 0.5, 0.5};
  set.v = {0, 0, 0, 0};
  set.links = {{0, 1, 100.0, 0.0, 0.3}};
  EXPECT_NEAR(set.Field().PotentialEnergy(set.MakeState()), 0.5 * 100.0 * 0.3 * 0.3, 1e-14);
}

// --- Through a scene: springs between two objects ----------------------------------------------

class SpringScene : public fluxion::testing::QuietTest {};

TEST_F(SpringScene, SpringJoinsPointsOfTwoObjects) {
  // Spring "1 1": point 1 of a (1,0,0) to point 1 of b (1,3,0): d = 3, L0 = 1, fi = 10·2 = 20 along
  // +y. A second spring, declared in node A with object1 left to its default (@./), joins a[0] to
  // b[2].
  Simulation simulation = fluxion::testing::LoadScene(R"(
<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="A">
    <MechanicalObject name="a" position="0 0 0  1 0 0"/>
    <UniformMass vertexMass="1"/>
    <SpringForceField spring="0 2 4 0 1" object2="@../B/b"/>
  </Node>
  <Node name="B">
    <MechanicalObject name="b" position="5 5 5  1 3 0  0 0 3"/>
    <UniformMass vertexMass="1"/>
  </Node>
  <SpringForceField spring="1 1 10 0 1" object1="@A/a" object2="@/B"/>
</Node>)");
  const SolverNode& node = simulation.solver_nodes()[0];
  ASSERT_EQ(node.system->num_dofs(), 15);  // a's 2 points, then b's 3
  Vector f;
  node.system->ComputeForce(node.state, f);
  Vector expected = Vector::Zero(15);
  expected.segment<3>(3) << 0, 20, 0;   // a[1]
  expected.segment<3>(9) << 0, -20, 0;  // b[1]
  // a[0] = (0,0,0) to b[2] = (0,0,3): d = 3, L0 = 1, fi = 4·2 = 8 along +z.
  expected.segment<3>(0) << 0, 0, 8;
  expected.segment<3>(12) << 0, 0, -8;
  EXPECT_LE((f - expected).cwiseAbs().maxCoeff(), 1e-13) << f.transpose();
  // Energy: ½·10·2² + ½·4·2² = 28.
  EXPECT_NEAR(node.system->PotentialEnergy(node.state), 28.0, 1e-13);
}

// The partition owns each point in exactly one range, lists for each range exactly the elements
// touching it, in ascending order, and balances the element ends between ranges.
TEST(PointPartition, OwnsEachPointOnceAndListsTouchingElements) {
  // A ring of 6 points: each point is the end of two elements, so cutting the ends' line at its
  // quantiles gives each of 3 ranges two points (4 ends), and 2 elements cross each cut.
  const std::vector<Index> ends = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0};
  const PointPartition partition(3, ends, 2);
  ASSERT_EQ(partition.ranges(), 3);
  for (Index p = -5; p < 20; ++p) {
    int owners = 0;
    for (int r = 0; r < 3; ++r) owners += partition.Owns(r, p) ? 1 : 0;
    EXPECT_EQ(owners, 1) << "point " << p;
  }
  std::vector<int> ends_per_range(3, 0);
  for (const Index e : ends)
    for (int r = 0; r < 3; ++r) ends_per_range[static_cast<std::size_t>(r)] += partition.Owns(r, e);
  for (const int count : ends_per_range) EXPECT_EQ(count, 4);  // 12 ends, 3 ranges
  // Element 5 (5–0) touches the first and the last range.
  EXPECT_EQ(partition.elements(0).front(), 0u);
  EXPECT_EQ(partition.elements(2).back(), 5u);
  EXPECT_EQ(
      partition.elements(0).size() + partition.elements(1).size() + partition.elements(2).size(),
      6u + 3u);  // three elements cross a cut: listed twice
  for (int r = 0; r < 3; ++r) {
    std::vector<std::uint32_t> expected;
    for (std::uint32_t e = 0; e < 6; ++e)
      if (partition.Owns(r, ends[2 * e]) || partition.Owns(r, ends[2 * e + 1]))
        expected.push_back(e);
    const auto listed = partition.elements(r);
    EXPECT_EQ(std::vector<std::uint32_t>(listed.begin(), listed.end()), expected) << "range " << r;
  }
}

// The boundaries are the ends of rank total·r/ranges in ascending order, whether they are read
// from a count per index (dense indices, as DOFs) or from a sorted copy (indices spread wide):
// the ring scaled by 10⁶ is cut between the same elements.
TEST(PointPartition, SparseIndicesAreCutAtTheSameRanks) {
  const std::vector<Index> dense = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0};
  std::vector<Index> sparse;
  for (const Index e : dense) sparse.push_back(1'000'000 * e + 7);
  const PointPartition a(3, dense, 2), b(3, sparse, 2);
  for (int r = 0; r < 3; ++r) {
    const auto la = a.elements(r), lb = b.elements(r);
    EXPECT_EQ(std::vector<std::uint32_t>(la.begin(), la.end()),
              std::vector<std::uint32_t>(lb.begin(), lb.end()))
        << "range " << r;
  }
  for (std::size_t k = 0; k < dense.size(); ++k)
    for (int r = 0; r < 3; ++r) EXPECT_EQ(a.Owns(r, dense[k]), b.Owns(r, sparse[k]));
}

// Force, stiffness and tangent product with one and two threads are the same to the bit, on springs
// in random order between random points (not a mesh numbered by rows: many springs cross the
// ranges), many of them sharing points (each point's terms must still come in spring order).
TEST(SpringForceField, OneAndTwoThreadsGiveTheSameBits) {
  SpringSet set;
  const Index points = 3000;
  std::uint64_t seed = 12345;
  const auto uniform = [&seed] {  // a fixed LCG: the same springs on every platform
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(seed >> 11) / 9007199254740992.0;
  };
  for (Index i = 0; i < 3 * points; ++i) {
    set.x.push_back(uniform());
    set.v.push_back(uniform() - 0.5);
  }
  for (int k = 0; k < 3 * static_cast<int>(kSpringGrain); ++k) {
    const auto a = static_cast<Index>(uniform() * static_cast<double>(points));
    const auto b =
        (a + 1 + static_cast<Index>(uniform() * static_cast<double>(points - 1))) % points;
    set.links.push_back({a, b, 10 + uniform(), uniform(), 0.3 * uniform()});
  }
  // Runs of springs sharing their first end (the product keeps that end's sum in registers),
  // one of them interrupted by a spring that ends at the run's point from a point of the other
  // thread's range (it must add to the running sum, not to the stale stored value).
  for (const auto& [a, b] : {std::pair<Index, Index>{2000, 5},
                             {2000, 9},
                             {100, 2000},
                             {2000, 7},
                             {2000, 2001},
                             {2001, 2000},
                             {7, 8},
                             {7, 2500}})
    set.links.push_back({a, b, 10 + uniform(), uniform(), 0.3 * uniform()});
  const SpringForceField field = set.Field();
  const State state = set.MakeState();
  std::vector<MatrixEntry> entries;
  field.StiffnessEntries(entries);
  // Entries of one (row, col) share a slot, as in the system's pattern: terms add up in one place.
  std::map<std::pair<Index, Index>, Index> slot_of;
  std::vector<Index> slots;
  for (const MatrixEntry& e : entries)
    slots.push_back(
        slot_of.emplace(std::pair{e.row, e.col}, static_cast<Index>(slot_of.size())).first->second);
  Vector direction(set.num_dofs());
  for (Index i = 0; i < direction.size(); ++i) direction[i] = uniform() - 0.5;
  const double k = 0.37;
  std::vector<double> tangent(static_cast<std::size_t>(field.TangentSize()));
  const auto evaluate = [&](int threads, Vector& f, std::vector<double>& values, Vector& product) {
    SetThreadCount(threads);
    f.setZero(set.num_dofs());
    field.AddForce(state, f);
    values.assign(slot_of.size(), 0.0);
    field.AddStiffness(state, slots.data(), values.data());
    field.LinearizeStiffness(state, tangent.data());
    product.setZero(set.num_dofs());
    field.AddTangentProduct(tangent.data(), 0.0, k, direction, product);
  };
  Vector f1, f2, y1, y2;
  std::vector<double> k1, k2;
  evaluate(1, f1, k1, y1);
  evaluate(2, f2, k2, y2);
  SetThreadCount(0);
  const auto same_bits = [](const double* a, const double* b, std::size_t n) {
    return std::memcmp(a, b, sizeof(double) * n) == 0;
  };
  EXPECT_TRUE(same_bits(f1.data(), f2.data(), static_cast<std::size_t>(f1.size())));
  EXPECT_TRUE(same_bits(k1.data(), k2.data(), k1.size()));
  EXPECT_TRUE(same_bits(y1.data(), y2.data(), static_cast<std::size_t>(y1.size())));
  EXPECT_GT(f1.cwiseAbs().maxCoeff(), 0.0);
  // The product is k·K·direction with K = −∂f/∂x: against the assembled entries.
  Vector expected = Vector::Zero(set.num_dofs());
  for (const auto& [where, slot] : slot_of)
    expected[where.first] += k * k1[static_cast<std::size_t>(slot)] * direction[where.second];
  EXPECT_LT((y1 - expected).norm(), 1e-12 * expected.norm());
}

}  // namespace
}  // namespace fluxion::internal
