// The loads through scenes, against closed forms: a point resting on an EllipsoidForceField's
// pole, SurfacePressureForceField, EdgePressureForceField, TrianglePressureForceField,
// QuadPressureForceField, ConicalForceField and PolynomialSpringsForceField forces read from one
// symplectic Euler step (m = 1, v₁ = h·f), QuadBendingSprings' vertex pairs,
// FastTriangularBendingSprings' stencil, and the errors for what is not supported.
#include <gmock/gmock.h>

#include <cmath>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

class LoadScenes : public testing::QuietTest {};

// One EulerExplicitSolver step from rest with unit masses and no gravity: f = v₁/h.
Vector ForceAfterOneStep(const std::string& body) {
  Simulation simulation =
      LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0"><EulerExplicitSolver/>)" + body +
                R"(<UniformMass vertexMass="1"/></Node>)");
  simulation.Step();
  return simulation.velocity(0) / 0.5;
}

std::string LoadError(const std::string& xml) {
  try {
    LoadScene(xml);
  } catch (const SceneError& error) {
    return error.what();
  }
  return "no error";
}

TEST_F(LoadScenes, PointRestsOnAnEllipsoidsPoleAtDepthMgbOverK) {
  // Semi-axes (1.5, 2, 3), center (0.3, −2, 0): the top pole is y = 0. On the axis the push is
  // k·v with v = d/b the normalised depth, so the point settles at depth m·g·b/k = 10·2/1000.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
  <MechanicalObject position="0.3 0.1 0"/>
  <UniformMass vertexMass="1"/>
  <EllipsoidForceField center="0.3 -2 0" vradius="1.5 2 3" stiffness="1000" damping="5"/>
</Node>)");
  for (int step = 0; step < 3000; ++step) simulation.Step();
  EXPECT_LT(std::abs(simulation.velocity(0)[1]), 1e-9);
  EXPECT_NEAR(simulation.position(0)[1], -0.02, 1e-9);
}

TEST_F(LoadScenes, SurfacePressureOnAUnitSquare) {
  // p = 4 on the unit square in z = 0 (two triangles, normal +z): P·area = 4 along z in all,
  // P/6 per vertex per triangle: vertices 0 and 2 (on both triangles) 4/3, 1 and 3 2/3.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  1 0 0  1 1 0  0 1 0" triangles="0 1 2  0 2 3"/>
  <MechanicalObject/>
  <SurfacePressureForceField pressure="4"/>)");
  const double expected[4] = {4.0 / 3, 2.0 / 3, 4.0 / 3, 2.0 / 3};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(f[3 * i + 2], expected[i], 1e-12) << i;
    EXPECT_EQ(f[3 * i], 0.0);
  }
}

TEST_F(LoadScenes, SurfacePressureOnListedQuads) {
  // Two unit quads side by side; only quad 1 (1 2 5 4) pressed, p = 6: its a and c (vertices 1
  // and 5) get P/3 = 2, its b and d (2 and 4) P/6 = 1; the others nothing.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0" quads="0 1 4 3  1 2 5 4"/>
  <MechanicalObject/>
  <SurfacePressureForceField pressure="6" quadIndices="1"/>)");
  const double expected[6] = {0, 2, 1, 0, 1, 2};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(f[3 * i + 2], expected[i], 1e-12) << i;
}

TEST_F(LoadScenes, TrianglePressureIsThePressureVectorTimesAThirdOfTheRestArea) {
  // Triangles 0 (0 1 2) and 2 (1 4 2), both of rest area 2·3/2 = 3, of three pressed by
  // (1, 0, −2): each vertex gets (1, 0, −2)·A/3 = (1, 0, −2) per pressed triangle: vertices 0 and
  // 4 (1, 0, −2), 1 and 2 (in both) (2, 0, −4); vertex 3 (only in triangle 1) nothing. The force
  // stays the rest one (SOFA's useConstantForce): point 1 is moved to x = 4, which would make
  // triangle 0's area 6.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  2 0 0  0 3 0  9 9 9  2 3 0"
                triangles="0 1 2  0 2 3  1 4 2"/>
  <MechanicalObject position="0 0 0  4 0 0  0 3 0  9 9 9  2 3 0"
                    rest_position="0 0 0  2 0 0  0 3 0  9 9 9  2 3 0"/>
  <TrianglePressureForceField pressure="1 0 -2" triangleList="0 2"/>)");
  const double expected[5][3] = {{1, 0, -2}, {2, 0, -4}, {2, 0, -4}, {0, 0, 0}, {1, 0, -2}};
  for (int i = 0; i < 5; ++i)
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(f[3 * i + a], expected[i][a], 1e-15) << i << a;
}

TEST_F(LoadScenes, TrianglePressureWithACauchyStressFollowsTheCurrentTriangle) {
  // useConstantForce=0: σ·((b − a)×(c − a))/6 on each vertex, at the current positions. The
  // triangle (0, 0, 0), (2, 0, 0), (0, 3, 0) now: (b − a)×(c − a) = (0, 0, 6), so σ·(0, 0, 1):
  // σ's third column (xz, yz, zz) = (4, 5, 6) with cauchyStress "1 2 3 4 5 6" (xx xy yy xz yz zz).
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  <MechanicalObject position="0 0 0  2 0 0  0 3 0" rest_position="0 0 0  1 0 0  0 1 0"/>
  <TrianglePressureForceField useConstantForce="0" cauchyStress="1 2 3 4 5 6"
                              triangleList="0"/>)");
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(f[3 * i], 4.0, 1e-14) << i;
    EXPECT_NEAR(f[3 * i + 1], 5.0, 1e-14) << i;
    EXPECT_NEAR(f[3 * i + 2], 6.0, 1e-14) << i;
  }
}

TEST_F(LoadScenes, TrianglePressureBadInputIsOneLine) {
  const std::string body = R"(<Node name="root" dt="0.5" gravity="0 0 0"><EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  <MechanicalObject/><UniformMass vertexMass="1"/>
  <TrianglePressureForceField )";
  EXPECT_THAT(LoadError(body + R"(pressure="0 0 1" triangleList="1"/></Node>)"),
              HasSubstr("inline.scn:4: TrianglePressureForceField 'triangleList' has 1 (expected "
                        "indices below the topology's 1 triangles)"));
  EXPECT_THAT(LoadError(body + R"(pressure="0 1" triangleList="0"/></Node>)"),
              HasSubstr("inline.scn:4: TrianglePressureForceField 'pressure' has 2 numbers "
                        "(expected 3: a vector)"));
  EXPECT_THAT(LoadError(body + R"(cauchyStress="1 2 3" triangleList="0"/></Node>)"),
              HasSubstr("inline.scn:4: TrianglePressureForceField 'cauchyStress' has 3 numbers "
                        "(expected 6: xx xy yy xz yz zz)"));
}

TEST_F(LoadScenes, QuadPressureIsPressureTimesRestAreaOverFour) {
  // Quad 0: the trapezoid (0,0,0) (4,0,0) (3,2,0) (1,2,0) at rest, area (4 + 2)/2·2 = 6; quad 1:
  // the strip (4,0,0) (6,0,0) (6,1,0) (4,1,0), area 2. Pressure (1, 0, −2): each vertex of quad 0
  // gets 6/4·(1, 0, −2), of quad 1 2/4·(1, 0, −2); vertex 1 both. The current positions (moved)
  // do not count.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  4 0 0  3 2 0  1 2 0  6 0 0  6 1 0  4 1 0"
                quads="0 1 2 3  1 4 5 6"/>
  <MechanicalObject position="0 0 1  9 0 0  3 2 0  1 2 0  6 0 0  6 1 0  4 1 5"
                    rest_position="0 0 0  4 0 0  3 2 0  1 2 0  6 0 0  6 1 0  4 1 0"/>
  <QuadPressureForceField pressure="1 0 -2" quadList="0 1"/>)");
  const double quad0 = 1.5, quad1 = 0.5;
  const double share[7] = {quad0, quad0 + quad1, quad0, quad0, quad1, quad1, quad1};
  for (int i = 0; i < 7; ++i) {
    EXPECT_NEAR(f[3 * i], share[i], 1e-15) << i;
    EXPECT_NEAR(f[3 * i + 1], 0.0, 1e-15) << i;
    EXPECT_NEAR(f[3 * i + 2], -2.0 * share[i], 1e-15) << i;
  }
}

TEST_F(LoadScenes, QuadPressureSelectsQuadsBetweenTwoPlanesWithoutAList) {
  // Quad 0 lies in z = 0, quad 1 stands from z = 0 to z = 1: with normal (0, 0, 1), dmin −0.5 and
  // dmax 0.5 only quad 0 (area 1) is pressed: (0, 0, 4)/4 on each of its vertices.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  1 0 0  1 1 0  0 1 0  1 0 1  0 0 1" quads="0 1 2 3  0 1 4 5"/>
  <MechanicalObject/>
  <QuadPressureForceField pressure="0 0 4" normal="0 0 1" dmin="-0.5" dmax="0.5"/>)");
  const double expected_z[6] = {1, 1, 1, 1, 0, 0};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(f[3 * i + 2], expected_z[i], 1e-15) << i;
}

TEST_F(LoadScenes, QuadPressureBadInputIsOneLine) {
  const std::string body = R"(<Node name="root" dt="0.5" gravity="0 0 0"><EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  1 1 0  0 1 0" quads="0 1 2 3"/>
  <MechanicalObject/><UniformMass vertexMass="1"/>
  <QuadPressureForceField )";
  EXPECT_THAT(LoadError(body + R"(pressure="0 0 1" quadList="1"/></Node>)"),
              HasSubstr("inline.scn:4: QuadPressureForceField 'quadList' has 1 (expected "
                        "indices below the topology's 1 quads)"));
  EXPECT_THAT(LoadError(body + R"(pressure="0 1" quadList="0"/></Node>)"),
              HasSubstr("inline.scn:4: QuadPressureForceField 'pressure' has 2 numbers "
                        "(expected 3: a vector)"));
}

TEST_F(LoadScenes, ConicalForceFieldPushesPointsBackIntoTheCone) {
  // Apex at (0, −1, 0), axis +y, cap at distance 2, half-angle 45°, k = 10: the point at
  // (0, 2, 0) is 1 beyond the cap (f = −10·ŷ); the one at (0, 0, 0) is inside (no force).
  const Vector f = ForceAfterOneStep(R"(
  <MechanicalObject position="0 2 0  0 0 0"/>
  <ConicalForceField coneCenter="0 -1 0" coneHeight="0 2 0" coneAngle="45" stiffness="10"/>)");
  EXPECT_NEAR(f[1], -10.0, 1e-12);
  EXPECT_EQ(f.segment<3>(3).norm(), 0.0);
  EXPECT_THAT(LoadError(R"(<Node name="root" dt="0.5" gravity="0 0 0"><EulerExplicitSolver/>
  <MechanicalObject/><UniformMass vertexMass="1"/><ConicalForceField/></Node>)"),
              HasSubstr("inline.scn:2: ConicalForceField 'coneHeight' is 0 0 0"));
}

TEST_F(LoadScenes, PolynomialSpringsBetweenListedPoints) {
  // Point 0 to point 2 (point 1 free), rest length 2 given, P(s) = 20·s + 10·s² + 50·s³ at
  // L = 3: s = 0.5, P = 18.75 pulling the ends together.
  const Vector f = ForceAfterOneStep(R"(
  <MechanicalObject position="0 0 0  5 5 5  0 3 0"/>
  <PolynomialSpringsForceField firstObjectPoints="0" secondObjectPoints="2" polynomialDegree="3"
      polynomialStiffness="20 10 50" computeZeroLength="0" zeroLength="2"/>)");
  EXPECT_NEAR(f[1], 18.75, 1e-12);
  EXPECT_NEAR(f[7], -18.75, 1e-12);
  EXPECT_EQ(f.segment<3>(3).norm(), 0.0);
  EXPECT_THAT(LoadError(R"(<Node name="root" dt="0.5" gravity="0 0 0"><EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0"/><UniformMass vertexMass="1"/>
  <PolynomialSpringsForceField firstObjectPoints="0" secondObjectPoints="1" polynomialDegree="3"
      polynomialStiffness="20 10"/></Node>)"),
              HasSubstr("'polynomialStiffness' has 2 coefficients (expected one per degree"));
}

TEST_F(LoadScenes, EdgePressureIsPressureTimesHalfTheRestLength) {
  // Edges 0–1 (length 2) and 1–2 (length 1) pressed by (0, 0, −0.1): vertex 0 gets −0.1, 1 gets
  // −0.1 − 0.05, 2 gets −0.05; selected by edge pairs (one of them written reversed).
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  2 0 0  2 1 0  5 5 5" edges="0 1  1 2  2 3"/>
  <MechanicalObject/>
  <EdgePressureForceField pressure="0 0 -0.1" edges="0 1  2 1"/>)");
  EXPECT_NEAR(f[2], -0.1, 1e-15);
  EXPECT_NEAR(f[5], -0.15, 1e-15);
  EXPECT_NEAR(f[8], -0.05, 1e-15);
  EXPECT_EQ(f[11], 0.0);
}

TEST_F(LoadScenes, EdgePressureSelectsEdgesBetweenPlanes) {
  // x·n strictly between 0.5 and 3 for both ends, n = x̂: only edge 1–2 (x = 2 and 2).
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  2 0 0  2 1 0  5 5 5" edges="0 1  1 2  2 3"/>
  <MechanicalObject/>
  <EdgePressureForceField pressure="1 0 0" normal="1 0 0" dmin="0.5" dmax="3"/>)");
  EXPECT_EQ(f[0], 0.0);
  EXPECT_NEAR(f[3], 0.5, 1e-15);
  EXPECT_NEAR(f[6], 0.5, 1e-15);
}

TEST_F(LoadScenes, EdgePressureIntensityPushesAlongTheInPlaneNormal) {
  // SOFA's p_intensity form with binormal B = ẑ (given as 0 0 2, normalised): edge (a, b) gives
  // each end intensity·L·n/2 with n = B × t, t = (x_b − x_a)/|x_b − x_a|.
  // Edge 0–1: t = ŷ, n = −x̂, L = 2, intensity −10 → (10, 0, 0) on each end.
  // Edge 1–2: t = x̂, n = ŷ, L = 3, intensity 4 (the second one) → (0, 6, 0) on each end.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  0 2 0  3 2 0" edges="0 1  1 2"/>
  <MechanicalObject/>
  <EdgePressureForceField p_intensity="-10 4" binormal="0 0 2" edgeIndices="0 1"/>)");
  const double expected[9] = {10, 0, 0, 10, 6, 0, 0, 6, 0};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(f[i], expected[i], 1e-14) << i;
}

TEST_F(LoadScenes, EdgePressureIntensityTakesTheIthEdgesLengthAsSofa) {
  // SOFA's initEdgeInformation takes the length of the i-th pressed edge from edge number i of
  // the topology: pressing edge 1 alone (length 3) uses edge 0's length, 2. Intensity 2, n = ŷ:
  // (0, 2·2/2, 0) on points 1 and 2.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  0 2 0  3 2 0" edges="0 1  1 2"/>
  <MechanicalObject/>
  <EdgePressureForceField p_intensity="2" binormal="0 0 1" edgeIndices="1"/>)");
  const double expected[9] = {0, 0, 0, 0, 2, 0, 0, 2, 0};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(f[i], expected[i], 1e-15) << i;
}

TEST_F(LoadScenes, EdgePressureIntensityFollowsTheEdgeWithItsRestLength) {
  // The direction comes from the current positions, the length from the rest positions: the edge
  // lies along x̂ now (n = ŷ) and is 3 long at rest: intensity 1 → (0, 1.5, 0) on each end.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology edges="0 1"/>
  <MechanicalObject position="0 0 0  2 0 0" rest_position="0 0 0  0 3 0"/>
  <EdgePressureForceField p_intensity="1" binormal="0 0 1" edgeIndices="0"/>)");
  const double expected[6] = {0, 1.5, 0, 0, 1.5, 0};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(f[i], expected[i], 1e-15) << i;
}

TEST_F(LoadScenes, EdgePressureIntensityWithoutBinormalPointsIntoTheTriangle) {
  // No binormal: n = ẑ × t turned towards the third vertex of the edge's one triangle. Edge 0
  // (written 1 0: t = −x̂, n = −ŷ, turned to +ŷ towards point 2 at (0, 1)), length 1,
  // intensity 3: (0, 1.5, 0) on points 0 and 1. Edge 1 (1–2) is not pressed.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  1 0 0  0 1 0" edges="1 0  1 2  2 0" triangles="0 1 2"/>
  <MechanicalObject/>
  <EdgePressureForceField p_intensity="3" edgeIndices="0"/>)");
  const double expected[9] = {0, 1.5, 0, 0, 1.5, 0, 0, 0, 0};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(f[i], expected[i], 1e-15) << i;
}

TEST_F(LoadScenes, QuadBendingSpringsTakeRestLengthsFromPositions) {
  // As SOFA, the rest lengths are the initial distances (`position`), not `rest_position`: with
  // point 2 placed at x = 2.5 the spring 0–2 starts at its rest length and exerts nothing.
  const Vector f = ForceAfterOneStep(R"(
  <MeshTopology position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0" quads="0 1 4 3  1 2 5 4"/>
  <MechanicalObject position="0 0 0  1 0 0  2.5 0 0  0 1 0  1 1 0  2 1 0"
                    rest_position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0"/>
  <QuadBendingSprings stiffness="100" damping="0"/>)");
  EXPECT_EQ(f.norm(), 0.0);
}

TEST_F(LoadScenes, QuadBendingSpringsJoinTheFacingVertices) {
  // Quads (0 1 4 3) and (1 2 5 4) share edge 1–4. SOFA registers edge (1, 4) of the first quad
  // with the opposite pair (0, 3), then meets it in the second as (4, 1) with (5, 2), swapped to
  // (1, 4) and (2, 5): springs 2–0 and 5–3, rest length 2. Moving point 5 by (0, 0, 1) stretches
  // 5–3 to √5; 2–0 stays; points 1 and 4 are on no spring.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0" quads="0 1 4 3  1 2 5 4"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <QuadBendingSprings stiffness="100" damping="0"/>
</Node>)");
  Vector x = simulation.position(0);
  x[17] = 1;
  simulation.SetPosition(0, x);
  const double d = std::sqrt(5.0), intensity = 100 * (d - 2);
  EXPECT_NEAR(simulation.PotentialEnergy(), 0.5 * 100 * (d - 2) * (d - 2), 1e-12);  // ½·ks·e²
  simulation.Step();
  const Vector f = simulation.velocity(0) / 0.5;
  EXPECT_NEAR(f[15], -intensity * 2 / d, 1e-12);  // point 5 pulled towards 3
  EXPECT_NEAR(f[17], -intensity * 1 / d, 1e-12);
  EXPECT_NEAR(f[9], intensity * 2 / d, 1e-12);  // point 3 pulled towards 5
  for (const int i : {0, 1, 2, 4})
    for (int a = 0; a < 3; ++a) EXPECT_EQ(f[3 * i + a], 0.0) << i;
}

TEST_F(LoadScenes, PolynomialRestShapeSpringsSofaExample) {
  // SOFA's example scene's particle: P(s) = 10·s + 10·s², at 1.1 from its rest: f = −23.1.
  const Vector f = ForceAfterOneStep(R"(
  <MechanicalObject rest_position="0 0 0" position="1.1 0 0"/>
  <PolynomialRestShapeSpringsForceField polynomialStiffness="10 10" polynomialDegree="2"
      points="0" smoothShift="0.0001" smoothScale="10000000" drawSpring="1"/>)");
  EXPECT_NEAR(f[0], -23.1, 1e-9);
}

TEST_F(LoadScenes, FastTriangularBendingSpringsFoldedSquare) {
  // The unit square split along 1–3: triangles (0 1 3), (1 2 3); the hinge C = 1, D = 3 (the
  // topology's edge 1–3), A = 0, B = 2, equal halves: α = (½, ½, −½, −½). h_A = h_B = 1/√2,
  // |CD| = √2: λ = (2/3)·√2/(1/4)·√2·kb = (16/3)·kb. Lifting point 2 by 0.3: R = (0, 0, 0.15),
  // f_2 = −λ·½·0.15, energy ½·λ·0.15².
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  1 1 0  0 1 0" triangles="0 1 3  1 2 3"
                edges="0 1  1 3  3 0  1 2  2 3"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <FastTriangularBendingSprings bendingStiffness="3"/>
</Node>)");
  Vector x = simulation.position(0);
  x[8] = 0.3;
  simulation.SetPosition(0, x);
  const double lambda = 16.0, r = 0.15;
  EXPECT_NEAR(simulation.PotentialEnergy(), 0.5 * lambda * r * r, 1e-12);
  simulation.Step();
  const Vector f = simulation.velocity(0) / 0.5;
  EXPECT_NEAR(f[8], -lambda * 0.5 * r, 1e-12);
  EXPECT_NEAR(f[2], -lambda * 0.5 * r, 1e-12);
  EXPECT_NEAR(f[5], lambda * 0.5 * r, 1e-12);
  EXPECT_NEAR(f[11], lambda * 0.5 * r, 1e-12);
}

// SOFA's computePulseModePressure, by hand: the ramp advances by speed·dt at the force
// evaluation that starts each step, clamps at each bound and turns there.
TEST_F(LoadScenes, SurfacePressurePulseRampsUpAndDownBySpeedTimesDtEachStep) {
  // Unit right triangle in z = 0: each vertex gets P/6 along z. Masses of 1e6 keep the triangle
  // flat (its tilt changes n_z by O(1e-12)), so P_n = 6·m·(v_n − v_{n−1})/h at any vertex.
  const auto pressures = [](const std::string& pulse) {
    Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  <MechanicalObject/><UniformMass vertexMass="1e6"/>
  <SurfacePressureForceField pressure="4" pulseMode="true" pressureSpeed="3" )" +
                                      pulse + R"(/></Node>)");
    std::vector<double> out;
    double before = 0.0;
    for (int step = 0; step < 9; ++step) {
      simulation.Step();
      const double v = simulation.velocity(0)[5];  // vertex 1, z
      out.push_back(6.0 * 1e6 * (v - before) / 0.5);
      before = v;
    }
    return out;
  };
  // Speed·dt = 1.5: 1.5, 3, then 4.5 clamped to 4; down 2.5, 1, −0.5 clamped to the lower
  // bound 0; up again.
  const std::vector<double> plain = pressures("");
  const double expected[] = {1.5, 3, 4, 2.5, 1, 0, 1.5, 3, 4};
  for (std::size_t n = 0; n < 9; ++n) EXPECT_NEAR(plain[n], expected[n], 1e-6) << "step " << n;
  // A lower bound of 1: 1 is reached exactly (1 ≤ 1), and the ramp turns there.
  const std::vector<double> bounded = pressures(R"(pressureLowerBound="1")");
  const double expected_bounded[] = {1.5, 3, 4, 2.5, 1, 2.5, 4, 2.5, 1};
  for (std::size_t n = 0; n < 9; ++n)
    EXPECT_NEAR(bounded[n], expected_bounded[n], 1e-6) << "step " << n;
}

// TaitSurfacePressureForceField through a scene: a unit cube given as quads (each split as SOFA
// splits it), heavy points so that V stays 1 to ~1e-10, an ideal gas (γ = 1, B = 3) and a volume
// of 0.5 injected at 0.25 per second, dt = 0.5: the injected volume is 0.125(n + 1) up to 0.5 at
// the start of step n, so P_n = −3·(1/(1 + injected) − 1) = 1/3, 0.6, 9/11, 1, 1 — every
// point's force, and its velocity increment, in those ratios (to 1e-7: V moves by ~1e-10).
TEST_F(LoadScenes, TaitPressureFollowsTheInjectedVolumeStepByStep) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 1 0  1 1 0  0 0 1  1 0 1  0 1 1  1 1 1"
                quads="0 2 3 1  4 5 7 6  0 1 5 4  2 6 7 3  0 4 6 2  1 3 7 5"/>
  <MechanicalObject/><UniformMass vertexMass="1e9"/>
  <TaitSurfacePressureForceField B="3" gamma="1" injectedVolume="0.5" maxInjectionRate="0.25"/>
</Node>)");
  const double expected[] = {1.0 / 3.0, 0.6, 9.0 / 11.0, 1.0, 1.0};
  Vector before = Vector::Zero(24);
  std::vector<Vector> increments;
  for (int step = 0; step < 5; ++step) {
    simulation.Step();
    increments.push_back(simulation.velocity(0) - before);
    before = simulation.velocity(0);
  }
  ASSERT_GT(increments[0].cwiseAbs().maxCoeff(), 0.0);
  for (std::size_t n = 1; n < 5; ++n)
    for (Index j = 0; j < 24; ++j)
      EXPECT_NEAR(increments[n][j], increments[0][j] * expected[n] / expected[0],
                  1e-7 * increments[0].cwiseAbs().maxCoeff())
          << "step " << n << " dof " << j;
  // The pressure is positive: the corner (1, 1, 1) is pushed outward, along +x, +y and +z.
  for (int axis = 0; axis < 3; ++axis) EXPECT_GT(increments[0][21 + axis], 0.0);
}

TEST_F(LoadScenes, UnsupportedModesAreRefused) {
  EXPECT_THAT(LoadError(R"(<Node name="root"><EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  1 1 0" triangles="0 1 2"/>
  <MechanicalObject/><UniformMass vertexMass="1"/>
  <SurfacePressureForceField pressure="0" pulseMode="true"/></Node>)"),
              HasSubstr("pulseMode with a negative pressureSpeed, or with neither"));
  EXPECT_THAT(LoadError(R"(<Node name="root"><EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0" edges="0 1"/>
  <MechanicalObject/><UniformMass vertexMass="1"/>
  <EdgePressureForceField p_intensity="1" edges="0 1"/></Node>)"),
              HasSubstr("'p_intensity' without 'binormal' needs triangles"));
  EXPECT_THAT(LoadError(R"(<Node name="root"><EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/><UniformMass vertexMass="1"/>
  <EllipsoidForceField center="0 0 0" vradius="1 0 1"/></Node>)"),
              HasSubstr("zero semi-axis"));
  EXPECT_THAT(LoadError(R"(<Node name="root"><EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/><UniformMass vertexMass="1"/>
  <PolynomialRestShapeSpringsForceField polynomialStiffness="1" polynomialDegree="2"/></Node>)"),
              HasSubstr("'polynomialStiffness' has 1 coefficients"));
}

}  // namespace
}  // namespace fluxion
