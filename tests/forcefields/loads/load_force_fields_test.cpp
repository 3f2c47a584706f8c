// The numerical cores of the loads added for SOFA's MechanicalLoad and Spring examples
// (mechanics/contact_force_fields.cpp's EllipsoidPenalty, conical_penalty.cpp,
// pressure_force_fields.cpp, polynomial_springs.cpp, polynomial_pair_springs.cpp,
// bending_stencils.cpp): K = −∂f/∂x against central finite differences of the force at v = 0 (the
// damping terms, whose x-dependence SOFA leaves out of K, vanish there), SOFA's approximate
// tangents against the exact one plus the term SOFA gets wrong, energies against finite differences
// (−∂E/∂x = f), and closed forms.
#include <gtest/gtest.h>

#include <cmath>

#include "forcefields/field_probes.h"
#include "mechanics/bending_stencils.h"
#include "mechanics/conical_penalty.h"
#include "mechanics/contact_force_fields.h"
#include "mechanics/polynomial_pair_springs.h"
#include "mechanics/polynomial_springs.h"
#include "mechanics/pressure_force_fields.h"

namespace fluxion::internal {
namespace {

using field_probes::FiniteDifferenceStiffness;
using field_probes::Force;
using field_probes::Stiffness;

// Central differences with step 1e-6 on O(1) coordinates: truncation O(h²·f‴) ≈ 1e-12 and
// round-off O(ε·|f|/h) ≈ 1e-10·|f|; the tolerances below are a few times that for |f| ≲ 1e3
// (field_probes::FiniteDifferenceStiffness uses the same step).
constexpr double kStep = 1e-6;

// −∂E/∂x by central differences.
Vector FiniteDifferenceForce(const ForceField& field, const State& state) {
  Vector f(state.x.size());
  for (Index j = 0; j < state.x.size(); ++j) {
    State plus = state, minus = state;
    plus.x[j] += kStep;
    minus.x[j] -= kStep;
    f[j] = -(field.PotentialEnergy(plus) - field.PotentialEnergy(minus)) / (2 * kStep);
  }
  return f;
}

State At(std::initializer_list<double> x) {
  State state;
  state.x = Eigen::Map<const Vector>(x.begin(), static_cast<Index>(x.size()));
  state.v = Vector::Zero(state.x.size());
  return state;
}

// --- EllipsoidForceField -----------------------------------------------------------------------

TEST(EllipsoidPenalty, ForceOnAnAxisIsStiffnessTimesNormalisedDepth) {
  // Semi-axes (2, 4, 3) about (1, 0, 0); a point at y = 3 on the y axis: ν = 3/4, v = −1/4,
  // g ∥ ŷ, so f = −k·v·ŷ = (0, 250, 0) for k = 1000 (pushed out along the axis).
  const EllipsoidPenalty field({0}, 3, {1, 0, 0}, {2, 4, 3}, 1000, 0, false);
  const Vector f = Force(field, At({1, 3, 0}));
  EXPECT_NEAR(f[0], 0.0, 1e-12);
  EXPECT_NEAR(f[1], 250.0, 1e-12);
  EXPECT_NEAR(f[2], 0.0, 1e-12);
  EXPECT_EQ(Force(field, At({1, 5, 0})).norm(), 0.0);  // outside: free
}

TEST(EllipsoidPenalty, NegativeStiffnessKeepsPointsInside) {
  // k = −1000: a point outside at y = 5 (ν = 5/4) is pulled back by |k|·v = 250; inside, free.
  const EllipsoidPenalty field({0}, 3, {1, 0, 0}, {2, 4, 3}, -1000, 0, false);
  EXPECT_NEAR(Force(field, At({1, 5, 0}))[1], -250.0, 1e-12);
  EXPECT_EQ(Force(field, At({1, 3, 0})).norm(), 0.0);
}

TEST(EllipsoidPenalty, DampingIsProportionalToTheDepth) {
  // v = −1/4: f_damping = −c·|v|·ẋ = −5·0.25·(2, 0, 0).
  const EllipsoidPenalty field({0}, 3, {1, 0, 0}, {2, 4, 3}, 1000, 5, false);
  State state = At({1, 3, 0});
  state.v[0] = 2;
  EXPECT_NEAR(Force(field, state)[0], -2.5, 1e-12);
}

TEST(EllipsoidPenalty, ExactStiffnessMatchesFiniteDifferences) {
  // Two points inside a general ellipsoid (away from its axes: every term of K is exercised),
  // one outside.
  const EllipsoidPenalty field({0, 3, 6}, 3, {0.5, -0.2, 0.1}, {2, 1.5, 3}, 700, 0, true);
  const State state = At({1.2, 0.3, 0.9, -0.4, -1.1, -1.3, 3, 3, 3});
  const Eigen::MatrixXd K = Stiffness(field, state);
  EXPECT_LT((K - FiniteDifferenceStiffness(field, state)).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_GT((K - K.transpose()).norm(), 1.0);  // unequal radii: not symmetric
}

TEST(EllipsoidPenalty, SofaStiffnessDiffersByItsMisderivedTerm) {
  // SOFA's tangent minus the exact one is |k|·v·g_i·g_j/r_j²·(1/‖g‖² + 1/‖g‖³) (its derivative
  // of 1/‖g‖ has the wrong sign and power), computed here by hand from p = x − center.
  const double k = 700, r[3] = {2, 1.5, 3};
  const EllipsoidPenalty sofa({0}, 3, {0.5, -0.2, 0.1}, {r[0], r[1], r[2]}, k, 0, false);
  const State state = At({1.2, 0.3, 0.9});
  const double p[3] = {0.7, 0.5, 0.8};
  double g[3], nu2 = 0, g2 = 0;
  for (int a = 0; a < 3; ++a) {
    g[a] = p[a] / (r[a] * r[a]);
    nu2 += p[a] * p[a] / (r[a] * r[a]);
    g2 += g[a] * g[a];
  }
  const double v = std::sqrt(nu2) - 1, gn = std::sqrt(g2);
  ASSERT_LT(v, 0);
  Eigen::Matrix3d difference;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      difference(i, j) = k * v * g[i] * g[j] / (r[j] * r[j]) * (1 / g2 + 1 / (g2 * gn));
  const Eigen::MatrixXd expected = FiniteDifferenceStiffness(sofa, state) + difference;
  EXPECT_LT((Stiffness(sofa, state) - expected).cwiseAbs().maxCoeff(), 1e-6);
}

// --- SurfacePressureForceField -----------------------------------------------------------------

// The unit square in z = 0, counter-clockwise seen from +z: normal +z.
State UnitSquare() { return At({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}); }

TEST(SurfacePressure, PressureOnTheUnitSquareIsPressureTimesAreaAlongTheNormal) {
  SurfacePressure::Options options;
  options.pressure = 3;
  const SurfacePressure triangles({{0, 3, 6}, {0, 6, 9}}, {}, options);
  const SurfacePressure quad({}, {{0, 3, 6, 9}}, options);
  for (const SurfacePressure* field : {&triangles, &quad}) {
    const Vector f = Force(*field, UnitSquare());
    double total[3] = {0, 0, 0};
    for (int i = 0; i < 4; ++i)
      for (int a = 0; a < 3; ++a) total[a] += f[3 * i + a];
    EXPECT_NEAR(total[0], 0.0, 1e-15);
    EXPECT_NEAR(total[1], 0.0, 1e-15);
    EXPECT_NEAR(total[2], 3.0, 1e-15);  // p·area·n
  }
  // The quad's split, as SOFA: a and c carry P/3 each, b and d P/6.
  const Vector f = Force(quad, UnitSquare());
  EXPECT_NEAR(f[2], 1.0, 1e-15);
  EXPECT_NEAR(f[5], 0.5, 1e-15);
  EXPECT_NEAR(f[8], 1.0, 1e-15);
  EXPECT_NEAR(f[11], 0.5, 1e-15);
}

TEST(SurfacePressure, SofaTangentIsExactForTriangles) {
  SurfacePressure::Options options;
  options.pressure = 40;
  const SurfacePressure field({{0, 3, 6}, {0, 6, 9}}, {}, options);
  const State state = At({0.1, -0.2, 0.3, 1.2, 0.1, -0.1, 0.9, 1.3, 0.4, -0.1, 0.8, 0.2});
  EXPECT_LT(
      (Stiffness(field, state) - FiniteDifferenceStiffness(field, state)).cwiseAbs().maxCoeff(),
      1e-6);
}

TEST(SurfacePressure, SofaTangentLeavesQuadsOutExactOneDoesNot) {
  SurfacePressure::Options options;
  options.pressure = 40;
  const State state = At({0.1, -0.2, 0.3, 1.2, 0.1, -0.1, 0.9, 1.3, 0.4, -0.1, 0.8, 0.2});
  const SurfacePressure sofa({}, {{0, 3, 6, 9}}, options);
  EXPECT_EQ(Stiffness(sofa, state).norm(), 0.0);
  options.exact_stiffness = true;
  const SurfacePressure exact({}, {{0, 3, 6, 9}}, options);
  const Eigen::MatrixXd fd = FiniteDifferenceStiffness(exact, state);
  EXPECT_GT(fd.norm(), 10.0);
  EXPECT_LT((Stiffness(exact, state) - fd).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(SurfacePressure, MainDirectionScalesByTheCosine) {
  // A triangle tilted 60° from the direction ẑ: its force is scaled by cos 60° = 1/2.
  SurfacePressure::Options options;
  options.pressure = 6;
  options.main_direction = {0, 0, 1};
  const SurfacePressure field({{0, 3, 6}}, {}, options);
  const double c = 0.5, s = std::sqrt(3.0) / 2;  // the triangle's plane contains x̂ and (0, c, s)
  const State state = At({0, 0, 0, 1, 0, 0, 0, c, s});
  const Vector f = Force(field, state);
  // n = x̂ × (0, c, s) = (0, −s, c), |n| = 1 (area ½); each vertex: (P/6)·n·|n̂·ẑ| = n·c.
  EXPECT_NEAR(f[1], -s * c, 1e-15);
  EXPECT_NEAR(f[2], c * c, 1e-15);
  // SOFA's tangent ignores the factor; the exact one matches finite differences.
  options.exact_stiffness = true;
  const SurfacePressure exact({{0, 3, 6}}, {}, options);
  const State moved = At({0.1, 0, 0.05, 1, 0.1, 0, 0, c, s});
  EXPECT_LT(
      (Stiffness(exact, moved) - FiniteDifferenceStiffness(exact, moved)).cwiseAbs().maxCoeff(),
      1e-6);
  EXPECT_GT((Stiffness(field, moved) - FiniteDifferenceStiffness(field, moved)).norm(), 0.1);
}

TEST(SurfacePressure, BoxSelectsElementsAtTheCurrentPositions) {
  SurfacePressure::Options options;
  options.pressure = 6;
  options.box = options.box_triangles = true;
  options.box_min = {-0.5, -0.5, -0.5};
  options.box_max = {1.5, 0.5, 0.5};  // holds (0 0 0), (1 0 0), not (1 1 0)
  const SurfacePressure field({{0, 3, 6}}, {}, options);
  EXPECT_EQ(Force(field, UnitSquare()).norm(), 0.0);
  EXPECT_EQ(Stiffness(field, UnitSquare()).norm(), 0.0);
  const State inside = At({0, 0, 0, 1, 0, 0, 1, 0.4, 0});
  EXPECT_NEAR(Force(field, inside)[2], 0.4, 1e-15);  // (P/6)·|n|, |n| = 0.4
}

TEST(SurfacePressure, VolumeConservationScalesByRestOverCurrentVolume) {
  // The unit tetrahedron, faces oriented outwards: V = 1/6.
  const std::vector<std::array<Index, 3>> faces = {{0, 6, 3}, {0, 3, 9}, {0, 9, 6}, {3, 6, 9}};
  SurfacePressure::Options options;
  options.pressure = 6;
  const State rest = At({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1});
  EXPECT_NEAR(SurfacePressure(faces, {}, options).Volume(rest.x), 1.0 / 6, 1e-15);
  options.rest_volume = 1.0 / 6;
  const SurfacePressure field(faces, {}, options);
  // Doubling every coordinate: V = 8/6, P = 6/8; the face x = 0 has n = −2²·x̂ (area 2):
  // each of its vertices gets (P/6)·n, the origin's x-force −(6/8)/6·4 = −0.5.
  State big = rest;
  big.x *= 2;
  EXPECT_NEAR(Force(field, big)[0], -0.5, 1e-14);
  EXPECT_NEAR(Force(field, rest)[0], -1.0, 1e-14);  // at rest: P = 6, n = −x̂
}

// --- PolynomialRestShapeSpringsForceField ------------------------------------------------------

TEST(PolynomialRestShapeSprings, ForceIsThePolynomialOfTheStrain) {
  // SOFA's example: P(s) = 10·s + 10·s², L₀ = 1, point at 1.1 from its rest; shift 1e-4 and scale
  // 1e7 make the smoothing exp(1e-4 − 1.21e7) vanish: f = −P(1.1) = −(11 + 12.1).
  const PolynomialRestShapeSprings field(3, {{0, {0, 0, 0}, {10, 10}, 1.0}}, 1e-4, 1e7, false);
  const Vector f = Force(field, At({1.1, 0, 0}));
  EXPECT_NEAR(f[0], -23.1, 1e-12);
  EXPECT_EQ(f[1], 0.0);
  // Strain by L₀ = 2: s = 0.55, P = 5.5 + 3.025.
  const PolynomialRestShapeSprings halved(3, {{0, {0, 0, 0}, {10, 10}, 2.0}}, 1e-4, 1e7, false);
  EXPECT_NEAR(Force(halved, At({1.1, 0, 0}))[0], -8.525, 1e-12);
}

TEST(PolynomialRestShapeSprings, SmoothingDividesByTheSmoothedLength) {
  // SOFA's defaults shift 0, scale 1: D = √(L² + e^(−L²)); at L = 1, D = √(1 + 1/e).
  const PolynomialRestShapeSprings field(3, {{0, {0, 0, 0}, {100}, 1.0}}, 0, 1, false);
  EXPECT_NEAR(Force(field, At({0, 1, 0}))[1], -100 / std::sqrt(1 + std::exp(-1.0)), 1e-12);
}

TEST(PolynomialRestShapeSprings, ExactStiffnessMatchesFiniteDifferences) {
  // Cubic law, smoothing active (shift 0.1, scale 2), two points off their rests.
  const std::vector<PolynomialSpring> springs = {{0, {0.1, 0, 0}, {30, -4, 2}, 0.8},
                                                 {3, {1, 1, 1}, {30, -4, 2}, 0.8}};
  const PolynomialRestShapeSprings exact(3, springs, 0.1, 2, true);
  const State state = At({0.5, 0.3, -0.4, 1.2, 0.7, 1.6});
  EXPECT_LT(
      (Stiffness(exact, state) - FiniteDifferenceStiffness(exact, state)).cwiseAbs().maxCoeff(),
      1e-6);
}

TEST(PolynomialRestShapeSprings, SofaDiagonalIsExactAlongAnAxisWithoutSmoothing) {
  // Δ along x̂ and a vanishing smoothing: the exact K is diagonal, diag(P′/L₀, P/L, P/L), which
  // is SOFA's diagonal tangent. Off an axis SOFA drops the off-diagonal terms.
  const std::vector<PolynomialSpring> springs = {{0, {0, 0, 0}, {10, 10}, 1.0}};
  const PolynomialRestShapeSprings sofa(3, springs, 1e-4, 1e7, false);
  const State on_axis = At({1.1, 0, 0});
  const Eigen::MatrixXd K = Stiffness(sofa, on_axis);
  EXPECT_NEAR(K(0, 0), 10 + 2 * 10 * 1.1, 1e-9);
  EXPECT_NEAR(K(1, 1), 23.1 / 1.1, 1e-9);
  EXPECT_LT((K - FiniteDifferenceStiffness(sofa, on_axis)).cwiseAbs().maxCoeff(), 1e-6);
  const State off_axis = At({0.6, 0.8, 0});
  EXPECT_GT(std::abs(FiniteDifferenceStiffness(sofa, off_axis)(0, 1)), 1.0);
  EXPECT_EQ(Stiffness(sofa, off_axis)(0, 1), 0.0);
}

// --- FastTriangularBendingSprings --------------------------------------------------------------

TEST(BendingStencils, ForceStiffnessAndEnergy) {
  // The unit square's hinge along C = (1 0 0), D = (0 1 0), with A = (0 0 0), B = (1 1 0): the
  // triangles have equal areas and heights, so α = (½, ½, −½, −½) and R = ½·(A + B − C − D),
  // zero when flat. Lifting B by h: R = (0, 0, h/2), f_B = −λ·(½)·(h/2)·ẑ.
  BendingStencil stencil{{0, 3, 6, 9}, {0.5, 0.5, -0.5, -0.5}, 12.0};
  const BendingStencils field(3, {stencil});
  const State flat = At({0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0});
  EXPECT_EQ(Force(field, flat).norm(), 0.0);
  State folded = flat;
  folded.x[5] = 0.2;
  const Vector f = Force(field, folded);
  EXPECT_NEAR(f[5], -12 * 0.5 * 0.1, 1e-15);
  EXPECT_NEAR(f[8], 12 * 0.5 * 0.1, 1e-15);
  EXPECT_NEAR(field.PotentialEnergy(folded), 0.5 * 12 * 0.01, 1e-15);
  EXPECT_LT((FiniteDifferenceForce(field, folded) - f).cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LT(
      (Stiffness(field, folded) - FiniteDifferenceStiffness(field, folded)).cwiseAbs().maxCoeff(),
      1e-6);
}

// --- ConicalForceField --------------------------------------------------------------------------

// Apex at the origin, axis z, cap at distance 2, half-angle 45°, k = 10.
ConicalPenalty Cone(double damping = 0) {
  return ConicalPenalty({0}, {0, 0, 0}, {0, 0, 2}, 45, 10, damping);
}

TEST(ConicalPenalty, ForceInEachRegionByClosedForm) {
  const ConicalPenalty cone = Cone();
  EXPECT_EQ(Force(cone, At({0.2, 0, 1})).norm(), 0.0);  // inside
  // Beyond the cap: d = 3 − 2 along z, f = −k·d·ẑ.
  const Vector beyond = Force(cone, At({0, 0, 3}));
  EXPECT_NEAR(beyond[2], -10.0, 1e-12);
  // Beside: p = (1, 0, 0.5) is 63.4° off the axis; the generator at 45° in the xz plane is
  // g = (1, 0, 1)/√2, p′ = (p·g)·g = (0.75, 0, 0.75), f = k·(p′ − p) = 10·(−0.25, 0, 0.25).
  const Vector beside = Force(cone, At({1, 0, 0.5}));
  EXPECT_NEAR(beside[0], -2.5, 1e-12);
  EXPECT_NEAR(beside[1], 0.0, 1e-12);
  EXPECT_NEAR(beside[2], 2.5, 1e-12);
  // Behind the apex: pulled back to it, f = −k·cp.
  const Vector behind = Force(cone, At({0, 0.5, -1}));
  EXPECT_NEAR(behind[1], -5.0, 1e-12);
  EXPECT_NEAR(behind[2], 10.0, 1e-12);
}

TEST(ConicalPenalty, DampingAsSofaWritesIt) {
  // Beyond the cap (d = 1): +c·d·v, as SphereForceField; behind the apex: −c·(u·v)·u.
  const ConicalPenalty cone = Cone(5);
  State beyond = At({0, 0, 3});
  beyond.v << 1, 0, 2;
  const Vector f = Force(cone, beyond);
  EXPECT_NEAR(f[0], 5.0, 1e-12);
  EXPECT_NEAR(f[2], -10.0 + 10.0, 1e-12);
  State behind = At({0, 0, -1});  // u = ẑ
  behind.v << 1, 0, 2;
  const Vector g = Force(cone, behind);
  EXPECT_NEAR(g[0], 0.0, 1e-12);
  EXPECT_NEAR(g[2], 10.0 - 10.0, 1e-12);
}

TEST(ConicalPenalty, StiffnessIsSofasNormalTermWhichTheExactOneSharesAlongTheNormal) {
  // SOFA's tangent is k·u·uᵀ; the exact Jacobian (finite differences) also turns u, but along u
  // itself uᵀ·K·u = k in every region.
  const ConicalPenalty cone = Cone();
  for (const State& state : {At({0.3, -0.4, 2.5}), At({1, 0.2, 0.5}), At({0.3, 0.2, -1})}) {
    const Eigen::MatrixXd K = Stiffness(cone, state);
    const Vector f = Force(cone, state);
    // u ∥ f in each region at v = 0 (f = ±k·d·u), d > 0.
    const Eigen::Vector3d u = f.normalized();
    EXPECT_LT((K - 10.0 * u * u.transpose()).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_NEAR(u.dot(FiniteDifferenceStiffness(cone, state) * u), 10.0, 1e-6);
  }
}

// --- PolynomialSpringsForceField ---------------------------------------------------------------

// A spring from point 0 to point 1, rest length 2, P(s) = 20·s + 10·s² + 50·s³.
PolynomialPairSprings PairSpring(bool compressible) {
  return PolynomialPairSprings(3, {{0, 3, {20, 10, 50}, 2.0}}, compressible);
}

TEST(PolynomialPairSprings, TensionPullsByThePolynomialOfTheStrain) {
  // L = 3: s = (3 − 2)/2 = 0.5, P = 10 + 2.5 + 6.25 = 18.75 along u = x̂ on point 0, −u on 1.
  const Vector f = Force(PairSpring(false), At({0, 0, 0, 3, 0, 0}));
  EXPECT_NEAR(f[0], 18.75, 1e-12);
  EXPECT_NEAR(f[3], -18.75, 1e-12);
  EXPECT_EQ(f[1] * f[1] + f[2] * f[2] + f[4] * f[4] + f[5] * f[5], 0.0);
}

TEST(PolynomialPairSprings, CompressionPushesOnlyWhenCompressible) {
  // L = 1: s = 0.5 again; SOFA's sign is 0 unless compressible (then −1).
  EXPECT_EQ(Force(PairSpring(false), At({0, 0, 0, 1, 0, 0})).norm(), 0.0);
  const Vector f = Force(PairSpring(true), At({0, 0, 0, 1, 0, 0}));
  EXPECT_NEAR(f[0], -18.75, 1e-12);
  EXPECT_NEAR(f[3], 18.75, 1e-12);
}

TEST(PolynomialPairSprings, StiffnessInTensionMatchesFiniteDifferences) {
  // SOFA's tangent is the exact Jacobian in tension (a direction off the axes).
  const PolynomialPairSprings spring = PairSpring(false);
  const State state = At({0.1, -0.2, 0.3, 1.9, 1.1, -0.8});
  EXPECT_LT(
      (Stiffness(spring, state) - FiniteDifferenceStiffness(spring, state)).cwiseAbs().maxCoeff(),
      1e-6);
}
}  // namespace
}  // namespace fluxion::internal
