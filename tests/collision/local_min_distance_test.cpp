// LocalMinDistance's element tests and cone filters (collision/intersection_local_min_distance.h)
// on hand-placed elements: distances, points, normals and ids worked out by hand from SOFA's
// formulas (LocalMinDistance.cpp), and for each filter a direction it lets through and one it
// rejects, far enough from the cone's edge that round-off cannot decide.
#include "collision/intersection_local_min_distance.h"

#include <gtest/gtest.h>

#include <cmath>

#include "collision/intersector_table.h"
#include "collision_test_meshes.h"

namespace fluxion::internal::collision {
namespace {

using testing::kRoundOff;
using testing::Model;
using testing::NearVec;
using testing::Pair;

namespace lmd = local_min_distance;

class LocalMinDistance : public ::testing::Test {
 protected:
  LocalMinDistance() { settings.method = IntersectionSettings::Method::kLocalMinDistance; }
  IntersectionSettings settings;  // filterIntersection 1, angleCone 0, coneFactor 0.5
  std::vector<DetectionOutput> out;
};

TEST_F(LocalMinDistance, PointPointDistanceNormalAndLargerModelId) {
  const std::vector<double> xa = {0, 0, 0};
  const std::vector<double> xb = {9, 9, 9, 0.3, 0.4, 0.0};
  const ModelElements a(Model(ElementKind::kPoint, 0, 0, xa));
  const ModelElements b(Model(ElementKind::kPoint, 1, 1, xb));
  // PQ = (0.3, 0.4, 0): |PQ| = 0.5, normal PQ/|PQ| = (0.6, 0.8, 0), value 0.5 − 0.2.
  ASSERT_EQ(lmd::PointPoint(Pair(a, xa, b, xb, 1.0, 0.2, settings), 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[0].normal, {0.6, 0.8, 0.0}));
  EXPECT_NEAR(out[0].value, 0.3, kRoundOff);
  EXPECT_TRUE(NearVec(out[0].point[0], {0, 0, 0}));
  EXPECT_TRUE(NearVec(out[0].point[1], {0.3, 0.4, 0}));
  EXPECT_EQ(out[0].id, 1);  // model 1 has more elements: its element
  // |PQ|² = 0.25 is not below an alarm distance of 0.5 squared.
  EXPECT_EQ(lmd::PointPoint(Pair(a, xa, b, xb, 0.5, 0.2, settings), 0, 1, out), 0);
}

TEST_F(LocalMinDistance, LinePointOnlyStrictlyInsideTheSegment) {
  const std::vector<double> line = {0, 0, 0, 2, 0, 0};
  const std::vector<double> points = {0.5, 0.3, 0.4, 3.0, 0.0, 0.5, 2.0, 0.0, 0.1};
  const ModelElements l(Model(ElementKind::kLine, 0, 0, line, {{0, 1}}));
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  const ElementPair pair = Pair(l, line, p, points, 2.0, 0.1, settings);
  // α = AP·AB/AB·AB = 1/4: Q = (0.5, 0, 0); point[0] on the line, normal from it to the point
  // (0, 0.3, 0.4)/0.5, value 0.5 − 0.1. The line has no triangles: its filter asks PQ to be
  // square to it (|u·PQ/|PQ|| ≤ 1e-4), which it is.
  ASSERT_EQ(lmd::LinePoint(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0.5, 0, 0}));
  EXPECT_TRUE(NearVec(out[0].point[1], {0.5, 0.3, 0.4}));
  EXPECT_TRUE(NearVec(out[0].normal, {0, 0.6, 0.8}));
  EXPECT_NEAR(out[0].value, 0.4, kRoundOff);
  EXPECT_EQ(out[0].id, 0);  // the point
  // α = 1.5 (beyond B) and α = 1 (over B): not clamped as MinProximity does, no contact.
  EXPECT_EQ(lmd::LinePoint(pair, 0, 1, out), 0);
  EXPECT_EQ(lmd::LinePoint(pair, 0, 2, out), 0);
}

TEST_F(LocalMinDistance, ZeroLengthEdgeGivesNoContact) {
  // |AB| = 0 < 1e-12·|AP| = 5e-13: SOFA's guard.
  const std::vector<double> line = {1, 1, 1, 1, 1, 1};
  const std::vector<double> points = {1, 1, 1.5};
  const ModelElements l(Model(ElementKind::kLine, 0, 0, line, {{0, 1}}));
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  EXPECT_EQ(lmd::LinePoint(Pair(l, line, p, points, 2.0, 0.0, settings), 0, 0, out), 0);
}

TEST_F(LocalMinDistance, LineLineSkewNearTheEndParallelAndOutside) {
  const std::vector<double> xa = {-1, 0, 0, 1, 0, 0};
  // b0 crosses above a at x = 0.2; b1 parallel, shifted sideways; b2 parallel straight above;
  // b3 crosses beyond a's end; b4 crosses at x = 0.999999.
  const std::vector<double> xb = {0.2,      -1,  0.5, 0.2,      1,   0.5,  //
                                  0.0,      0.3, 0.0, 2.0,      0.3, 0.0,  //
                                  -1,       0,   0.3, 1,        0,   0.3,  //
                                  1.5,      -1,  0.5, 1.5,      1,   0.5,  //
                                  0.999999, -1,  0.5, 0.999999, 1,   0.5};
  const ModelElements a(Model(ElementKind::kLine, 0, 0, xa, {{0, 1}}));
  const ModelElements b(
      Model(ElementKind::kLine, 1, 1, xb, {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}}));
  const ElementPair pair = Pair(a, xa, b, xb, 1.1, 0.25, settings);
  // b0: α = (0.2 + 1)/2 = 0.6, β = 1/2: P = (0.2, 0, 0), Q = (0.2, 0, 0.5), value 0.5 − 0.25.
  ASSERT_EQ(lmd::LineLine(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0.2, 0, 0}));
  EXPECT_TRUE(NearVec(out[0].point[1], {0.2, 0, 0.5}));
  EXPECT_TRUE(NearVec(out[0].normal, {0, 0, 1}));
  EXPECT_NEAR(out[0].value, 0.25, kRoundOff);
  EXPECT_EQ(out[0].id, 0);  // b has more elements: b's element 0
  // b1: det = 4·4 − 4² = 0, the middles (0, 0, 0) and (1, 0.3, 0): PQ = (1, 0.3, 0) is not square
  // to the lines (|u·PQ|/|PQ| = 1/√1.09 ≈ 0.96 > 1e-4), the filter's "null determinant" case.
  EXPECT_EQ(lmd::LineLine(pair, 0, 1, out), 0);
  // b2: middles (0, 0, 0) and (0, 0, 0.3), PQ square to both: kept, value 0.3 − 0.25.
  ASSERT_EQ(lmd::LineLine(pair, 0, 2, out), 1);
  EXPECT_TRUE(NearVec(out[1].point[1], {0, 0, 0.3}));
  EXPECT_NEAR(out[1].value, 0.05, kRoundOff);
  EXPECT_EQ(out[1].id, 2);
  // b3: α = 1.25, outside a.
  EXPECT_EQ(lmd::LineLine(pair, 0, 3, out), 0);
  // b4: α = 0.9999995 is within SOFA's 1e-15 margins (MinProximity's 1e-6 would refuse it).
  ASSERT_EQ(lmd::LineLine(pair, 0, 4, out), 1);
  EXPECT_NEAR(out[2].point[0].x(), 0.999999, 1e-12);
  // Without the filter, b1's middles are a contact: value √1.09 − 0.25.
  settings.filter_intersection = false;
  ASSERT_EQ(lmd::LineLine(pair, 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[3].point[1], {1, 0.3, 0}));
  EXPECT_NEAR(out[3].value, std::sqrt(1.09) - 0.25, kRoundOff);
}

TEST_F(LocalMinDistance, TrianglePointFromTheFrontOnly) {
  const std::vector<double> tri = {0, 0, 0, 1, 0, 0, 0, 1, 0};  // normal AB × AC = +z
  const std::vector<double> points = {0.25, 0.25, 0.3, 0.25, 0.25, -0.3, 0.5, 0.0, 0.2};
  CollisionModelDescription dt = Model(ElementKind::kTriangle, 0, 0, tri, {}, {{0, 1, 2}});
  const ModelElements t(dt);
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  const ElementPair pair = Pair(t, tri, p, points, 1.0, 0.1, settings);
  // Above: Q = (0.25, 0.25, 0), QP = (0, 0, 0.3) with (AB × AC)·QP ≥ 0; value 0.3 − 0.1.
  ASSERT_EQ(lmd::TrianglePoint(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0.25, 0.25, 0}));
  EXPECT_TRUE(NearVec(out[0].point[1], {0.25, 0.25, 0.3}));
  EXPECT_TRUE(NearVec(out[0].normal, {0, 0, 1}));
  EXPECT_NEAR(out[0].value, 0.2, kRoundOff);
  EXPECT_EQ(out[0].id, 0);
  // Behind: (AB × AC)·QP = −0.3 < 0, rejected.
  EXPECT_EQ(lmd::TrianglePoint(pair, 0, 1, out), 0);
  // Over the edge AB: not strictly inside (β = 0), no contact.
  EXPECT_EQ(lmd::TrianglePoint(pair, 0, 2, out), 0);
  // The triangle's bothSide, or no filtering: the point behind is a contact, normal −z.
  ElementPair both = pair;
  both.both_side[0] = true;
  ASSERT_EQ(lmd::TrianglePoint(both, 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[1].normal, {0, 0, -1}));
  settings.filter_intersection = false;
  ASSERT_EQ(lmd::TrianglePoint(pair, 0, 1, out), 1);
  settings.filter_intersection = true;
  settings.use_lmd_filters = true;  // SOFA skips its own filters then
  ASSERT_EQ(lmd::TrianglePoint(pair, 0, 1, out), 1);
}

TEST_F(LocalMinDistance, SpheresStrictlyWithinTheirRadii) {
  const std::vector<double> xa = {0, 0, 0};
  const std::vector<double> xb = {1.5, 0, 0, 0, 0, 0};
  CollisionModelDescription da = Model(ElementKind::kSphere, 0, 0, xa);
  da.radius = 0.5;
  CollisionModelDescription db = Model(ElementKind::kSphere, 1, 1, xb);
  db.radii = {0.25};
  db.radius = 2.0;
  const ModelElements a(da), b(db);
  // |c₂ − c₁| = 1.5 = alarm 0.75 + 0.5 + 0.25: not strictly below (MinProximity's ≤ accepts).
  EXPECT_EQ(lmd::SphereSphere(Pair(a, xa, b, xb, 0.75, 0.1, settings), 0, 0, out), 0);
  const ElementPair pair = Pair(a, xa, b, xb, 0.76, 0.1, settings);
  ASSERT_EQ(lmd::SphereSphere(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0, 0, 0}));  // the centres
  EXPECT_TRUE(NearVec(out[0].point[1], {1.5, 0, 0}));
  EXPECT_TRUE(NearVec(out[0].normal, {1, 0, 0}));
  EXPECT_NEAR(out[0].value, 1.5 - 0.75 - 0.1, kRoundOff);  // |c₂ − c₁| − r₁ − r₂ − contact
  EXPECT_EQ(out[0].id, 0);
  // Coincident centres: normal (1, 0, 0) (SOFA divides by zero), value −0.5 − 2 − 0.1.
  ASSERT_EQ(lmd::SphereSphere(pair, 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[1].normal, {1, 0, 0}));
  EXPECT_NEAR(out[1].value, -2.6, kRoundOff);
  EXPECT_EQ(out[1].id, 1);
}

TEST_F(LocalMinDistance, SpherePointTriangleSphereAndLineSphere) {
  const std::vector<double> sphere = {0.25, 0.25, 0.7, 0.25, 0.25, -0.7, 1, 0.5, 0};
  const std::vector<double> points = {9, 9, 9, 0.25, 1.05, 0.7, 8, 8, 8, 7, 7, 7};
  const std::vector<double> tri = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::vector<double> line = {0, 0, 0, 4, 0, 0};
  CollisionModelDescription ds = Model(ElementKind::kSphere, 0, 0, sphere);
  ds.radius = 0.25;
  const ModelElements s(ds);
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  const ModelElements t(Model(ElementKind::kTriangle, 2, 2, tri, {}, {{0, 1, 2}}));
  const ModelElements l(Model(ElementKind::kLine, 3, 3, line, {{0, 1}}));
  // Sphere 0 and point 1: PQ = (0, 0.8, 0), |PQ|² < (0.5 + 0.25)²? No: 0.64 ≥ 0.5625.
  EXPECT_EQ(lmd::SpherePoint(Pair(s, sphere, p, points, 0.5, 0.1, settings), 0, 1, out), 0);
  // With alarm 0.6: 0.64 < 0.85². Value 0.8 − 0.25 − 0.1; id: the larger model's element (the
  // point model has 4 elements, the sphere model 3: the point, 1), where MinProximity gives the
  // sphere always.
  ASSERT_EQ(lmd::SpherePoint(Pair(s, sphere, p, points, 0.6, 0.1, settings), 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0.25, 0.25, 0.7}));
  EXPECT_TRUE(NearVec(out[0].normal, {0, 1, 0}));
  EXPECT_NEAR(out[0].value, 0.45, kRoundOff);
  EXPECT_EQ(out[0].id, 1);
  // Triangle and sphere 0 above it: Q = (0.25, 0.25, 0), value 0.7 − 0.25 − 0.1.
  const ElementPair ts = Pair(t, tri, s, sphere, 0.5, 0.1, settings);
  ASSERT_EQ(lmd::TriangleSphere(ts, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[1].point[0], {0.25, 0.25, 0}));
  EXPECT_TRUE(NearVec(out[1].point[1], {0.25, 0.25, 0.7}));  // the centre
  EXPECT_TRUE(NearVec(out[1].normal, {0, 0, 1}));
  EXPECT_NEAR(out[1].value, 0.35, kRoundOff);
  EXPECT_EQ(out[1].id, 0);  // the sphere
  // Sphere 1, as far behind the triangle: its filter rejects it.
  EXPECT_EQ(lmd::TriangleSphere(ts, 0, 1, out), 0);
  // Beyond alarm + r = 0.15 + 0.25 < 0.7.
  EXPECT_EQ(lmd::TriangleSphere(Pair(t, tri, s, sphere, 0.15, 0.1, settings), 0, 0, out), 0);
  // Line and sphere 2: centre (1, 0.5, 0) projects at α = 1/4, Q = (1, 0, 0) (the projection
  // itself, not MinProximity's mirror image), value 0.5 − 0.25 − 0.
  ASSERT_EQ(lmd::LineSphere(Pair(l, line, s, sphere, 5.0, 0.0, settings), 0, 2, out), 1);
  EXPECT_TRUE(NearVec(out[2].point[0], {1, 0, 0}));
  EXPECT_TRUE(NearVec(out[2].normal, {0, 1, 0}));
  EXPECT_NEAR(out[2].value, 0.25, kRoundOff);
  EXPECT_EQ(out[2].id, 2);
}

// The apex of a square pyramid: vertex 0 at (0, 0, 1) over the base corners (±1, 0, 0),
// (0, ±1, 0), four triangles with outward normals. Unit normals (±1, ±1, 1)/√3 sum to n̄ = +z;
// the edges' outward directions are l = (0, 0, 1) − corner, unit: (∓1, 0, 1)/√2, (0, ∓1, 1)/√2,
// so n̄·l = 1/√2 and each edge's cone is coneFactor·n̄·l = 0.5/√2 ≈ 0.354. A probe point Q
// from the apex in unit direction d is kept when n̄·d ≥ 0 and l·d ≥ −0.354 for every edge.
class PyramidApex : public LocalMinDistance {
 protected:
  const std::vector<double> apex = {0, 0, 1, 1, 0, 0, 0, 1, 0, -1, 0, 0, 0, -1, 0};
  // Probes at apex + |PQ|·d:
  //  0: d = (0, 0, 1), |PQ| = 0.1: l·d = 1/√2 for all edges: kept;
  //  1: d = (4, 0, 3)/5, |PQ| = 0.1: worst edge l = (−1, 0, 1)/√2, l·d = −1/(5√2) ≈ −0.141: kept;
  //  2: d = (12, 0, 5)/13, |PQ| = 0.13: l·d = −7/(13√2) ≈ −0.381 < −0.354: rejected;
  //  3: d = (0, 0, −1), |PQ| = 0.1: n̄·d = −1 < 0: rejected (from inside the pyramid);
  //  4: d = (1, 0, 0), |PQ| = 0.1: l·d = −1/√2 ≈ −0.707: rejected.
  const std::vector<double> probes = {0,    0, 1.1, 0.08, 0,   1.06, 0.12, 0,
                                      1.05, 0, 0,   0.9,  0.1, 0,    1};
  const std::vector<std::array<Index, 3>> faces = {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 1}};

  // The probes kept against the apex.
  std::vector<Index> Kept(bool line_model_in_context = true) {
    CollisionModelDescription d = Model(ElementKind::kPoint, 0, 0, apex, {}, faces);
    d.line_model_in_context = line_model_in_context;
    const ModelElements pyramid(d);
    const ModelElements probe(Model(ElementKind::kPoint, 1, 1, probes));
    const ElementPair pair = Pair(pyramid, apex, probe, probes, 1.0, 0.02, settings);
    std::vector<Index> kept;
    for (Index q = 0; q < 5; ++q)
      if (lmd::PointPoint(pair, 0, q, out) == 1) kept.push_back(q);
    return kept;
  }
};

TEST_F(PyramidApex, PointConeKeepsDirectionsOutOfTheMesh) {
  EXPECT_EQ(Kept(), (std::vector<Index>{0, 1}));
  // Probe 1: |PQ| = 0.1, value 0.1 − 0.02, normal d.
  EXPECT_NEAR(out[1].value, 0.08, kRoundOff);
  EXPECT_TRUE(NearVec(out[1].normal, {0.8, 0, 0.6}));
}

TEST_F(PyramidApex, AngleConeAndConeFactorWidenTheCone) {
  // angleCone 0.1: probe 2's edge bound −(0.354 + 0.1) ≈ −0.454 < −0.381: kept. Probe 3 still
  // has n̄·d = −1 < −0.1, probe 4 l·d = −0.707 < −0.454.
  settings.angle_cone = 0.1;
  EXPECT_EQ(Kept(), (std::vector<Index>{0, 1, 2}));
  // coneFactor 0.8 (angleCone 0): bound −0.8/√2 ≈ −0.566, probe 2 kept, probe 4 not.
  settings.angle_cone = 0.0;
  settings.cone_factor = 0.8;
  EXPECT_EQ(Kept(), (std::vector<Index>{0, 1, 2}));
}

TEST_F(PyramidApex, NoFilterWithoutFilterIntersectionOrALineModel) {
  settings.filter_intersection = false;
  EXPECT_EQ(Kept(), (std::vector<Index>{0, 1, 2, 3, 4}));
  settings.filter_intersection = true;
  // SOFA filters a point only when a LineCollisionModel is in or above its node.
  EXPECT_EQ(Kept(/*line_model_in_context=*/false), (std::vector<Index>{0, 1, 2, 3, 4}));
  settings.use_lmd_filters = true;
  EXPECT_EQ(Kept(), (std::vector<Index>{0, 1, 2, 3, 4}));
}

TEST_F(LocalMinDistance, PointOfAPolylineUsesItsEdges) {
  // A chain (−1, 0, 0) – (0, 0, 0) – (1, 0, 0), no triangles. The middle vertex's edge directions
  // (1, 0, 0) and (−1, 0, 0) sum to n̄ = 0 (|n̄| ≤ 1e-10: no n̄ test), each cone is 0: only d
  // square to the chain is kept. The end vertex 2: n̄ = l = (1, 0, 0), cone 0.5·1: d kept when
  // n̄·d ≥ 0 and l·d ≥ −0.5.
  const std::vector<double> chain = {-1, 0, 0, 0, 0, 0, 1, 0, 0};
  const std::vector<double> probes = {0, 0.3, 0.4, 0.1, 0.3, 0, 1, 0.1, 0, 0.94, 0.08, 0};
  CollisionModelDescription d = Model(ElementKind::kPoint, 0, 0, chain, {{0, 1}, {1, 2}});
  d.line_model_in_context = true;
  const ModelElements c(d);
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, probes));
  const ElementPair pair = Pair(c, chain, p, probes, 1.0, 0.0, settings);
  EXPECT_EQ(lmd::PointPoint(pair, 1, 0, out), 1);  // d = (0, 0.6, 0.8): square
  EXPECT_EQ(lmd::PointPoint(pair, 1, 1, out), 0);  // d_x > 0 against l = (−1, 0, 0)
  EXPECT_EQ(lmd::PointPoint(pair, 2, 2, out), 1);  // d = (0, 1, 0): n̄·d = 0, l·d = 0
  EXPECT_EQ(lmd::PointPoint(pair, 2, 3, out), 0);  // d = (−0.6, 0.8, 0): n̄·d < 0
}

// A convex ridge: edge 0 → 1 along x, the left triangle (0, 1, 2) sloping down to +y with unit
// normal n₂ = (0, 1, 1)/√2, the right one (1, 0, 3) to −y with n₁ = (0, −1, 1)/√2. Edges made
// from the triangles: (1, 2), (2, 0), (0, 1), (0, 3), (3, 1): the ridge is line 2. n̄ = +z,
// t₁ = n₁ × u = (0, 1, 1)/√2, t₂ = u × n₂ = (0, −1, 1)/√2, each cone 0.5·n̄·tᵢ = 0.5/√2 ≈ 0.354.
// A point in unit direction d from the ridge's middle is kept when n̄·d ≥ 0 and tᵢ·d ≥ −0.354.
TEST_F(LocalMinDistance, LineConeBetweenItsTwoTriangles) {
  const std::vector<double> roof = {0, 0, 0, 1, 0, 0, 0.5, 1, -1, 0.5, -1, -1};
  const std::vector<std::array<Index, 3>> faces = {{0, 1, 2}, {1, 0, 3}};
  const ModelElements ridge(Model(ElementKind::kLine, 0, 0, roof, {}, faces));
  ASSERT_EQ(ridge.size(), 5);
  ASSERT_EQ(ridge.vertex(2, 0), 0);
  ASSERT_EQ(ridge.vertex(2, 1), 1);
  // Probes at (0.5, 0, 0) + |PQ|·d:
  //  0: d = (0, 0, 1): t·d = 1/√2: kept (normal +z, value 0.1 − 0.01);
  //  1: d = (0, 0.8, 0.6): t₂·d = −0.2/√2 ≈ −0.141: kept;
  //  2: d = (0, 12, 5)/13: t₂·d = −7/(13√2) ≈ −0.381 < −0.354: rejected;
  //  3: d = (0, 1, 0): t₂·d = −1/√2: rejected;
  //  4: d = (0, 0, −1): n̄·d < 0: rejected.
  const std::vector<double> probes = {0.5,  0,   0.1, 0.5, 0.08, 0.06, 0.5, 0.12,
                                      0.05, 0.5, 0.1, 0,   0.5,  0,    -0.1};
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, probes));
  const ElementPair pair = Pair(ridge, roof, p, probes, 1.0, 0.01, settings);
  ASSERT_EQ(lmd::LinePoint(pair, 2, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].normal, {0, 0, 1}));
  EXPECT_NEAR(out[0].value, 0.09, kRoundOff);
  EXPECT_EQ(lmd::LinePoint(pair, 2, 1, out), 1);
  EXPECT_EQ(lmd::LinePoint(pair, 2, 2, out), 0);
  EXPECT_EQ(lmd::LinePoint(pair, 2, 3, out), 0);
  EXPECT_EQ(lmd::LinePoint(pair, 2, 4, out), 0);
  // angleCone 0.1 widens the cones to 0.454: probe 2 kept; the line's bothSide lifts the n̄ test
  // only: probe 4 (t·d = −1/√2) stays out.
  settings.angle_cone = 0.1;
  EXPECT_EQ(lmd::LinePoint(pair, 2, 2, out), 1);
  ElementPair both = pair;
  both.both_side[0] = true;
  EXPECT_EQ(lmd::LinePoint(both, 2, 4, out), 0);
  settings.filter_intersection = false;
  EXPECT_EQ(lmd::LinePoint(pair, 2, 4, out), 1);
}

TEST_F(LocalMinDistance, RegisteredPairsAndSwapsAsSofaAddsThem) {
  using K = ElementKind;
  // LocalMinDistance::init adds (Sphere, Sphere), (Sphere, Point), (Point, Point), (Line, Line),
  // (Line, Point), (Line, Sphere), (Triangle, Point), (Triangle, Sphere) and ignores
  // (Triangle, Line), (Triangle, Triangle).
  const auto test = [&](K a, K b) { return FindIntersector(settings, a, b); };
  EXPECT_EQ(test(K::kSphere, K::kSphere).test, &lmd::SphereSphere);
  EXPECT_EQ(test(K::kSphere, K::kPoint).test, &lmd::SpherePoint);
  EXPECT_FALSE(test(K::kSphere, K::kPoint).swap);
  EXPECT_TRUE(test(K::kPoint, K::kSphere).swap);
  EXPECT_EQ(test(K::kPoint, K::kPoint).test, &lmd::PointPoint);
  EXPECT_EQ(test(K::kLine, K::kLine).test, &lmd::LineLine);
  EXPECT_EQ(test(K::kLine, K::kPoint).test, &lmd::LinePoint);
  EXPECT_TRUE(test(K::kPoint, K::kLine).swap);
  EXPECT_EQ(test(K::kSphere, K::kLine).test, &lmd::LineSphere);
  EXPECT_TRUE(test(K::kSphere, K::kLine).swap);
  EXPECT_EQ(test(K::kTriangle, K::kPoint).test, &lmd::TrianglePoint);
  EXPECT_FALSE(test(K::kTriangle, K::kPoint).swap);
  EXPECT_TRUE(test(K::kPoint, K::kTriangle).swap);
  EXPECT_EQ(test(K::kSphere, K::kTriangle).test, &lmd::TriangleSphere);
  EXPECT_TRUE(test(K::kSphere, K::kTriangle).swap);
  EXPECT_FALSE(test(K::kTriangle, K::kLine));
  EXPECT_FALSE(test(K::kLine, K::kTriangle));
  EXPECT_FALSE(test(K::kTriangle, K::kTriangle));
}

}  // namespace
}  // namespace fluxion::internal::collision
