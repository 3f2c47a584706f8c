// The built-in scene components (scene/builtin_components.h) as a scene author uses them:
// MechanicalObject, UniformMass, DiagonalMass, ConstantForceField, FixedProjectiveConstraint and
// node gravity, each loaded from an inline scene and checked against SOFA's semantics
// (sofa-semantics §5–§9, sofa-notes §3).
#include <cmath>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion::internal {
namespace {

using fluxion::testing::LoadScene;

// Wraps components in a root node with an EulerExplicitSolver.
std::string Scene(const std::string& body, const std::string& gravity = "0 0 0") {
  return R"(<Node name="root" gravity=")" + gravity + R"(" dt="0.01">
  <EulerExplicitSolver/>
  )" + body +
         R"(
</Node>)";
}

Vector Force(const Simulation& simulation) {
  const SolverNode& node = simulation.solver_nodes()[0];
  Vector f;
  node.system->ComputeForce(node.state, f);
  return f;
}

Vector MassDiagonal(const Simulation& simulation) {
  return simulation.solver_nodes()[0].system->mass().diagonal();
}

Vector Values(std::initializer_list<double> values) {
  Vector v(static_cast<Index>(values.size()));
  Index i = 0;
  for (const double value : values) v[i++] = value;
  return v;
}

class Components : public fluxion::testing::QuietTest {};

// --- MechanicalObject --------------------------------------------------------------------------

TEST_F(Components, TemplatesSetCoordinatesPerPoint) {
  for (const auto& [name, dimension] : std::vector<std::pair<std::string, int>>{
           {"Vec1", 1}, {"Vec2", 2}, {"Vec3", 3}, {"Vec1d", 1}, {"Vec2d", 2}, {"Vec3d", 3}}) {
    const Simulation simulation =
        LoadScene(Scene(R"(<MechanicalObject template=")" + name +
                        R"(" position="1 2 3 4 5 6"/><UniformMass vertexMass="1"/>)"));
    const ObjectModel& object = simulation.objects()[0];
    EXPECT_EQ(object.dimension, dimension) << name;
    EXPECT_EQ(object.num_points, 6 / dimension) << name;
    EXPECT_EQ(simulation.solver_nodes()[0].system->num_dofs(), 6) << name;
    EXPECT_EQ(simulation.position(0), Values({1, 2, 3, 4, 5, 6})) << name;
  }
  const Simulation default_template =
      LoadScene(Scene(R"(<MechanicalObject position="1 2 3"/><UniformMass vertexMass="1"/>)"));
  EXPECT_EQ(default_template.objects()[0].dimension, 3);
}

TEST_F(Components, PositionArityMustMatchTemplate) {
  // An incomplete last point is dropped as SOFA reads it, with a warning (mechanical_object_test
  // checks the values); a template that does not exist is an error.
  ExpectWarnings(1);
  EXPECT_EQ(
      LoadScene(
          Scene(
              R"(<MechanicalObject template="Vec3d" position="1 2 3 4"/><UniformMass vertexMass="1"/>)"))
          .objects()
          .at(0)
          .num_points,
      1);
  EXPECT_THROW(
      LoadScene(Scene(
          R"(<MechanicalObject template="Vec4d" position="1 2 3 4"/><UniformMass vertexMass="1"/>)")),
      SceneError);
}

// SOFA's reinit: scale, then rotation (Euler angles in degrees, x applied first: R = Rz·Ry·Rx),
// then translation, on the positions only.
TEST_F(Components, TransformsScaleThenRotateThenTranslate) {
  // (1,0,0) scaled by (2,1,1) → (2,0,0); rotated 90° about z → (0,2,0); translated → (0,2,5).
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject position="1 0 0" scale3d="2 1 1" rotation="0 0 90" translation="0 0 5"/>
  <UniformMass vertexMass="1"/>)"));
  // cos(π/2) ≈ 6e-17 and the quaternion's own rounding: within 1e-15 of the exact result.
  EXPECT_NEAR(simulation.position(0)[0], 0.0, 1e-15);
  EXPECT_NEAR(simulation.position(0)[1], 2.0, 1e-15);
  EXPECT_NEAR(simulation.position(0)[2], 5.0, 1e-15);
}

TEST_F(Components, RotationNinetyDegreesAboutZMapsXToY) {
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject position="1 0 0" rotation="0 0 90"/><UniformMass vertexMass="1"/>)"));
  EXPECT_NEAR(simulation.position(0)[0], 0.0, 1e-15);
  EXPECT_NEAR(simulation.position(0)[1], 1.0, 1e-15);
  EXPECT_NEAR(simulation.position(0)[2], 0.0, 1e-15);
}

TEST_F(Components, EulerAnglesApplyXThenYThenZ) {
  // (0,1,0): 90° about x gives (0,0,1), which 90° about z leaves alone. Applying z first would give
  // (−1,0,0) instead.
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject position="0 1 0" rotation="90 0 90"/><UniformMass vertexMass="1"/>)"));
  EXPECT_NEAR(simulation.position(0)[0], 0.0, 1e-15);
  EXPECT_NEAR(simulation.position(0)[1], 0.0, 1e-15);
  EXPECT_NEAR(simulation.position(0)[2], 1.0, 1e-15);
}

TEST_F(Components, TransformsDoNotMoveVelocities) {
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject position="1 0 0" velocity="1 0 0" rotation="0 0 90" scale3d="3 3 3" translation="1 1 1"/>
  <UniformMass vertexMass="1"/>)"));
  EXPECT_EQ(simulation.velocity(0), Values({1, 0, 0}));
}

// SOFA reads the legacy dx/dy/dz with strtof: 0.1 becomes (double)(float)0.1.
TEST_F(Components, LegacyTranslationIsRoundedToFloat) {
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject position="0 0 0  1 1 1" dx="0.1" dy="-2.3" dz="4"/><UniformMass vertexMass="1"/>)"));
  const double dx = static_cast<double>(0.1f), dy = static_cast<double>(-2.3f);
  ASSERT_NE(dx, 0.1);
  EXPECT_EQ(simulation.position(0), Values({dx, dy, 4.0, 1.0 + dx, 1.0 + dy, 5.0}));
}

TEST_F(Components, PositionsComeFromTopologyOfSameNode) {
  const Simulation simulation = LoadScene(Scene(R"(<Node name="grid">
    <RegularGridTopology n="3 2 1" min="0 0 0" max="2 1 0"/>
    <MechanicalObject/>
    <UniformMass vertexMass="1"/>
  </Node>)"));
  // Point i + nx·j at (i, j, 0).
  EXPECT_EQ(simulation.position(0), Values({0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0}));
  EXPECT_EQ(simulation.velocity(0), Vector::Zero(18));
}

TEST_F(Components, SingleVelocityIsBroadcastOverTopologyPoints) {
  const Simulation simulation = LoadScene(Scene(R"(<Node name="grid">
    <RegularGridTopology n="2 1 2" min="0 0 0" max="1 0 1"/>
    <MechanicalObject velocity="0.5 -1 2"/>
    <UniformMass vertexMass="1"/>
  </Node>)"));
  EXPECT_EQ(simulation.velocity(0), Values({0.5, -1, 2, 0.5, -1, 2, 0.5, -1, 2, 0.5, -1, 2}));
}

TEST_F(Components, TopologyInAnotherNodeIsNotUsed) {
  // SOFA looks for the topology in the object's own node only: here the object keeps its position.
  const Simulation simulation = LoadScene(Scene(R"(<RegularGridTopology n="2 2 2"/>
  <Node name="child">
    <MechanicalObject position="5 5 5"/>
    <UniformMass vertexMass="1"/>
  </Node>)"));
  EXPECT_EQ(simulation.objects()[0].num_points, 1);
  EXPECT_EQ(simulation.position(0), Values({5, 5, 5}));
}

TEST_F(Components, ShorterVelocityIsZeroFilledWithWarning) {
  ExpectWarnings(1);
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject position="0 0 0  1 0 0  2 0 0" velocity="1 2 3  4 5 6"/><UniformMass vertexMass="1"/>)"));
  EXPECT_EQ(simulation.velocity(0), Values({1, 2, 3, 4, 5, 6, 0, 0, 0}));
}

TEST_F(Components, LongerVelocityIsAnError) {
  EXPECT_THROW(
      LoadScene(Scene(
          R"(<MechanicalObject position="0 0 0" velocity="1 2 3  4 5 6"/><UniformMass vertexMass="1"/>)")),
      SceneError);
}

TEST_F(Components, RestPositionDefaultsToTransformedPosition) {
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject position="1 2 3  4 5 6" translation="1 0 0"/><UniformMass vertexMass="1"/>)"));
  EXPECT_EQ(simulation.objects()[0].rest_position, Values({2, 2, 3, 5, 5, 6}));
  const Simulation scaled = LoadScene(
      Scene(R"(<MechanicalObject position="1 2 3" restScale="2"/><UniformMass vertexMass="1"/>)"));
  EXPECT_EQ(scaled.objects()[0].rest_position, Values({2, 4, 6}));
  const Simulation given = LoadScene(Scene(
      R"(<MechanicalObject position="1 2 3" rest_position="0 0 1"/><UniformMass vertexMass="1"/>)"));
  EXPECT_EQ(given.objects()[0].rest_position, Values({0, 0, 1}));
}

// --- Masses ------------------------------------------------------------------------------------

TEST_F(Components, UniformMassVertexMassIsPerPoint) {
  const Simulation simulation = LoadScene(
      Scene(R"(<MechanicalObject position="0 0 0  1 1 1"/><UniformMass vertexMass="2.5"/>)"));
  EXPECT_EQ(MassDiagonal(simulation), Vector::Constant(6, 2.5));
}

TEST_F(Components, UniformMassTotalMassIsSpreadEvenly) {
  const Simulation simulation = LoadScene(
      Scene(R"(<MechanicalObject position="0 0 0  1 1 1  2 2 2"/><UniformMass totalMass="1"/>)"));
  EXPECT_EQ(MassDiagonal(simulation),
            Vector::Constant(9, 1.0 / 3.0));  // m = totalMass / n, as SOFA
}

TEST_F(Components, UniformMassTotalMassWinsOverVertexMassWithWarning) {
  ExpectWarnings(1);
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject position="0 0 0  1 1 1"/><UniformMass vertexMass="7" totalMass="3"/>)"));
  EXPECT_EQ(MassDiagonal(simulation), Vector::Constant(6, 1.5));
}

TEST_F(Components, UniformMassNeedsAMass) {
  EXPECT_THROW(LoadScene(Scene(R"(<MechanicalObject position="0 0 0"/><UniformMass/>)")),
               SceneError);
  EXPECT_THROW(
      LoadScene(Scene(R"(<MechanicalObject position="0 0 0"/><UniformMass totalMass="-1"/>)")),
      SceneError);
}

TEST_F(Components, DiagonalMassGivesOneMassPerPoint) {
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject template="Vec2d" position="0 0  1 1  2 2"/><DiagonalMass vertexMass="1 2 0.5"/>)"));
  EXPECT_EQ(MassDiagonal(simulation), Values({1, 1, 2, 2, 0.5, 0.5}));
}

TEST_F(Components, PointWithoutMassMustBeFixed) {
  EXPECT_THROW(LoadScene(Scene(R"(<MechanicalObject position="0 0 0  1 0 0"/>
      <DiagonalMass vertexMass="1 0"/>)")),
               SceneError);
  // An object without any mass component stays where it is, as in SOFA (with a warning).
  ExpectWarnings(1);
  Simulation unmoved = LoadScene(Scene(R"(<MechanicalObject position="0 1 0"/>)", "0 -9.81 0"));
  unmoved.Step();
  EXPECT_EQ(unmoved.position(0), Values({0, 1, 0}));
  EXPECT_NO_THROW(
      LoadScene(Scene(R"(<MechanicalObject position="0 0 0"/><FixedProjectiveConstraint/>)")));
}

// --- ConstantForceField ------------------------------------------------------------------------

constexpr const char* kThreePoints =
    R"(<MechanicalObject position="0 0 0  1 0 0  2 0 0"/><UniformMass vertexMass="1"/>)";

TEST_F(Components, ConstantForcesOnePerIndex) {
  const Simulation simulation = LoadScene(Scene(
      std::string(kThreePoints) + R"(<ConstantForceField indices="2 0" forces="1 2 3  4 5 6"/>)"));
  EXPECT_EQ(Force(simulation), Values({4, 5, 6, 0, 0, 0, 1, 2, 3}));
}

TEST_F(Components, ConstantSingleForceIsBroadcast) {
  const Simulation simulation = LoadScene(
      Scene(std::string(kThreePoints) + R"(<ConstantForceField indices="0 1" forces="1 2 3"/>)"));
  EXPECT_EQ(Force(simulation), Values({1, 2, 3, 1, 2, 3, 0, 0, 0}));
  const Simulation legacy = LoadScene(
      Scene(std::string(kThreePoints) + R"(<ConstantForceField indices="1 2" force="0 -1 0"/>)"));
  EXPECT_EQ(Force(legacy), Values({0, 0, 0, 0, -1, 0, 0, -1, 0}));
}

TEST_F(Components, ConstantTotalForceIsSplitOverIndices) {
  const Simulation simulation =
      LoadScene(Scene(std::string(kThreePoints) + R"(<ConstantForceField totalForce="3 -6 1"/>)"));
  // No indices: every point; each gets totalForce / 3 (a division, as SOFA).
  const Vector share = Values({1, -2, 1.0 / 3.0});
  Vector expected(9);
  expected << share, share, share;
  EXPECT_EQ(Force(simulation), expected);
}

TEST_F(Components, ConstantForceIndexFromEndCountsFromLastPoint) {
  const Simulation simulation =
      LoadScene(Scene(std::string(kThreePoints) +
                      R"(<ConstantForceField indices="0" forces="7 8 9" indexFromEnd="1"/>)"));
  EXPECT_EQ(Force(simulation), Values({0, 0, 0, 0, 0, 0, 7, 8, 9}));
}

TEST_F(Components, ConstantForceRejectsMismatchedCounts) {
  // SOFA makes the component invalid (no force at all) when forces and indices disagree.
  EXPECT_THROW(LoadScene(Scene(std::string(kThreePoints) +
                               R"(<ConstantForceField indices="0 1 2" forces="1 2 3  4 5 6"/>)")),
               SceneError);
  EXPECT_THROW(LoadScene(Scene(std::string(kThreePoints) +
                               R"(<ConstantForceField indices="3" forces="1 2 3"/>)")),
               SceneError);
  EXPECT_THROW(LoadScene(Scene(std::string(kThreePoints) + R"(<ConstantForceField indices="0"/>)")),
               SceneError);
}

// --- FixedProjectiveConstraint -----------------------------------------------------------------

// Three points hanging under gravity on springs from point 0; `constraint` fixes some of them.
std::string Hanging(const std::string& constraint) {
  return Scene(R"(<MechanicalObject position="0 0 0  1 0 0  2 0 0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 1 50 0 1  1 2 50 0 1"/>
  )" + constraint,
               "0 -9.81 0");
}

void ExpectPointsStay(Simulation& simulation, const std::vector<Index>& fixed,
                      const std::vector<Index>& free) {
  const Vector start = simulation.position(0);
  for (int k = 0; k < 50; ++k) simulation.Step();
  const Vector end = simulation.position(0);
  for (const Index p : fixed)
    EXPECT_EQ(end.segment<3>(3 * p), start.segment<3>(3 * p)) << "point " << p;
  for (const Index p : free)
    EXPECT_NE(end.segment<3>(3 * p), start.segment<3>(3 * p)) << "point " << p;
}

TEST_F(Components, FixedPointsNeverMove) {
  Simulation simulation = LoadScene(Hanging(R"(<FixedProjectiveConstraint indices="0 2"/>)"));
  ExpectPointsStay(simulation, {0, 2}, {1});
}

TEST_F(Components, FixedConstraintIndicesDefaultToZero) {
  Simulation simulation = LoadScene(Hanging(R"(<FixedProjectiveConstraint/>)"));
  ExpectPointsStay(simulation, {0}, {1, 2});
}

TEST_F(Components, FixAllFixesEveryPoint) {
  Simulation simulation = LoadScene(Hanging(R"(<FixedConstraint fixAll="1"/>)"));
  ExpectPointsStay(simulation, {0, 1, 2}, {});
}

TEST_F(Components, FixedPointWithVelocityDriftsWithWarning) {
  // SOFA projects increments only: a fixed point's initial velocity is kept (and warned about).
  ExpectWarnings(1);
  Simulation simulation = LoadScene(Scene(R"(<MechanicalObject position="0 0 0" velocity="1 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>)",
                                          "0 -9.81 0"));
  for (int k = 0; k < 10; ++k) simulation.Step();
  EXPECT_NEAR(simulation.position(0)[0], 0.1, 1e-15);  // 10 steps of 0.01 at 1 m/s
  EXPECT_EQ(simulation.position(0)[1], 0.0);           // gravity's increments are projected out
  EXPECT_EQ(simulation.velocity(0), Values({1, 0, 0}));
}

// --- Gravity -----------------------------------------------------------------------------------

TEST_F(Components, GravityActsThroughMassPerPoint) {
  const Simulation simulation = LoadScene(
      Scene(R"(<MechanicalObject position="0 0 0  1 1 1"/><DiagonalMass vertexMass="2 3"/>)",
            "1 -10 0.5"));
  EXPECT_EQ(Force(simulation), Values({2, -20, 1, 3, -30, 1.5}));
}

TEST_F(Components, GravityOfChildNodeIsIgnoredWithWarning) {
  ExpectWarnings(1);
  const Simulation simulation = LoadScene(Scene(R"(<Node name="child" gravity="0 0 -100">
    <MechanicalObject position="0 0 0"/>
    <UniformMass vertexMass="2"/>
  </Node>)",
                                                "0 -10 0"));
  EXPECT_EQ(Force(simulation), Values({0, -20, 0}));
}

TEST_F(Components, LowerDimensionalObjectsTakeLeadingGravityComponents) {
  const Simulation line = LoadScene(
      Scene(R"(<MechanicalObject template="Vec1d" position="0 1"/><UniformMass vertexMass="2"/>)",
            "-3 -10 7"));
  EXPECT_EQ(Force(line), Values({-6, -6}));
  const Simulation plane = LoadScene(
      Scene(R"(<MechanicalObject template="Vec2d" position="0 1"/><UniformMass vertexMass="2"/>)",
            "-3 -10 7"));
  EXPECT_EQ(Force(plane), Values({-6, -20}));
}

TEST_F(Components, GravityNeedsThreeComponents) {
  EXPECT_THROW(
      LoadScene(
          Scene(R"(<MechanicalObject template="Vec1d" position="0"/><UniformMass vertexMass="1"/>)",
                "0")),
      SceneError);
}

}  // namespace
}  // namespace fluxion::internal
