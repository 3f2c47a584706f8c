// MinProximityIntersection's element tests (collision/intersection_min_proximity.h) on
// hand-placed elements: distances, normals, points and ids worked out by hand (Pythagorean
// triples where possible, so that most expected numbers are exact).
#include "collision/intersection_min_proximity.h"

#include <gtest/gtest.h>

#include <cmath>

#include "collision_test_meshes.h"

namespace fluxion::internal::collision {
namespace {

using testing::kRoundOff;
using testing::Model;
using testing::NearVec;
using testing::Pair;

class MinProximity : public ::testing::Test {
 protected:
  IntersectionSettings settings;
  std::vector<DetectionOutput> out;
};

TEST_F(MinProximity, PointPointDistanceNormalAndLargerModelId) {
  const std::vector<double> xa = {0, 0, 0};
  const std::vector<double> xb = {9, 9, 9, 0.3, 0.4, 0.0};
  const ModelElements a(Model(ElementKind::kPoint, 0, 0, xa));
  const ModelElements b(Model(ElementKind::kPoint, 1, 1, xb));
  ASSERT_EQ(min_proximity::PointPoint(Pair(a, xa, b, xb, 1.0, 0.2, settings), 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[0].normal, {0.6, 0.8, 0.0}));  // from model 0 to model 1
  EXPECT_NEAR(out[0].value, 0.5 - 0.2, kRoundOff);
  EXPECT_TRUE(NearVec(out[0].point[0], {0, 0, 0}));
  EXPECT_TRUE(NearVec(out[0].point[1], {0.3, 0.4, 0}));
  EXPECT_EQ(out[0].id, 1);  // model 1 has more elements: its element
  // |PQ| = 0.5 is not below an alarm distance of 0.5.
  EXPECT_EQ(min_proximity::PointPoint(Pair(a, xa, b, xb, 0.5, 0.2, settings), 0, 1, out), 0);
}

TEST_F(MinProximity, LinePointProjectsAndClampsToTheEnds) {
  const std::vector<double> line = {0, 0, 0, 2, 0, 0};
  const std::vector<double> points = {0.5, 0.3, 0.4, 3.0, 0.0, 0.5, 1.0, 0.0, 0.0};
  const ModelElements l(Model(ElementKind::kLine, 0, 0, line, {{0, 1}}));
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  const ElementPair pair = Pair(l, line, p, points, 2.0, 0.1, settings);
  ASSERT_EQ(min_proximity::LinePoint(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0.5, 0, 0}));
  EXPECT_TRUE(NearVec(out[0].normal, {0, 0.6, 0.8}));
  EXPECT_NEAR(out[0].value, 0.5 - 0.1, kRoundOff);
  EXPECT_EQ(out[0].id, 0);  // the point
  // Beyond B: the end itself.
  ASSERT_EQ(min_proximity::LinePoint(pair, 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[1].point[0], {2, 0, 0}));
  EXPECT_NEAR(out[1].value, std::sqrt(1.25) - 0.1, kRoundOff);
  // A point exactly on the edge: distance 0, SOFA's fallback normal (1, 0, 0).
  ASSERT_EQ(min_proximity::LinePoint(pair, 0, 2, out), 1);
  EXPECT_TRUE(NearVec(out[2].normal, {1, 0, 0}));
  EXPECT_EQ(out[2].value, -0.1);
  EXPECT_EQ(out[2].id, 2);
}

TEST_F(MinProximity, ZeroLengthEdgeGivesNoContact) {
  const std::vector<double> line = {1, 1, 1, 1, 1, 1};
  const std::vector<double> points = {1, 1, 1.5};
  const ModelElements l(Model(ElementKind::kLine, 0, 0, line, {{0, 1}}));
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  EXPECT_EQ(min_proximity::LinePoint(Pair(l, line, p, points, 2.0, 0.0, settings), 0, 0, out), 0);
}

TEST_F(MinProximity, LineLineSkewParallelAndOutside) {
  const std::vector<double> xa = {-1, 0, 0, 1, 0, 0};
  // Crossing above at x = 0.2; parallel to a at height 0.3, shifted; crossing beyond a's end.
  const std::vector<double> xb = {0.2, -1,  0.5, 0.2, 1,   0.5,  //
                                  0.0, 0.3, 0.0, 2.0, 0.3, 0.0,  //
                                  1.5, -1,  0.5, 1.5, 1,   0.5};
  const ModelElements a(Model(ElementKind::kLine, 0, 0, xa, {{0, 1}}));
  const ModelElements b(Model(ElementKind::kLine, 1, 1, xb, {{0, 1}, {2, 3}, {4, 5}}));
  const ElementPair pair = Pair(a, xa, b, xb, 1.1, 0.25, settings);
  ASSERT_EQ(min_proximity::LineLine(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0.2, 0, 0}));
  EXPECT_TRUE(NearVec(out[0].point[1], {0.2, 0, 0.5}));
  EXPECT_TRUE(NearVec(out[0].normal, {0, 0, 1}));
  EXPECT_NEAR(out[0].value, 0.25, kRoundOff);
  EXPECT_EQ(out[0].id, 0);  // b has more elements: b's element 0
  // Parallel: SOFA takes both middles, (0, 0, 0) and (1, 0.3, 0).
  ASSERT_EQ(min_proximity::LineLine(pair, 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[1].point[0], {0, 0, 0}));
  EXPECT_TRUE(NearVec(out[1].point[1], {1, 0.3, 0}));
  EXPECT_NEAR(out[1].value, std::sqrt(1.09) - 0.25, kRoundOff);
  EXPECT_EQ(out[1].id, 1);
  // The closest point of the lines lies beyond a's end: no contact.
  EXPECT_EQ(min_proximity::LineLine(pair, 0, 2, out), 0);
}

TEST_F(MinProximity, TrianglePointInsideOnlyBothSidesAndSurfaceNormals) {
  const std::vector<double> tri = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::vector<double> points = {0.25, 0.25, 0.3, 0.25, 0.25, -0.3, 0.5, 0.0, 0.2};
  const ModelElements t(Model(ElementKind::kTriangle, 0, 0, tri, {}, {{0, 1, 2}}));
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  const ElementPair pair = Pair(t, tri, p, points, 1.0, 0.1, settings);
  ASSERT_EQ(min_proximity::TrianglePoint(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0.25, 0.25, 0}));
  EXPECT_TRUE(NearVec(out[0].normal, {0, 0, 1}));
  EXPECT_NEAR(out[0].value, 0.2, kRoundOff);
  EXPECT_EQ(out[0].id, 0);
  ASSERT_EQ(min_proximity::TrianglePoint(pair, 0, 1, out), 1);  // below: normal downwards
  EXPECT_TRUE(NearVec(out[1].normal, {0, 0, -1}));
  // Above the edge AB: the projection is on the edge, not strictly inside (the line model's).
  EXPECT_EQ(min_proximity::TrianglePoint(pair, 0, 2, out), 0);
  // useSurfaceNormals: the triangle's normal, whatever side the point is on.
  settings.use_surface_normals = true;
  ASSERT_EQ(min_proximity::TrianglePoint(pair, 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[2].normal, {0, 0, 1}));
}

TEST_F(MinProximity, ZeroAreaTriangleGivesNoContact) {
  const std::vector<double> tri = {0, 0, 0, 1, 0, 0, 2, 0, 0};
  const std::vector<double> points = {1, 0, 0.1, 0.5, 0.0, 0.0};
  const ModelElements t(Model(ElementKind::kTriangle, 0, 0, tri, {}, {{0, 1, 2}}));
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  const ElementPair pair = Pair(t, tri, p, points, 1.0, 0.0, settings);
  EXPECT_EQ(min_proximity::TrianglePoint(pair, 0, 0, out), 0);
  EXPECT_EQ(min_proximity::TrianglePoint(pair, 0, 1, out), 0);
}

TEST_F(MinProximity, SpheresUseRadiiAndCentres) {
  const std::vector<double> xa = {0, 0, 0};
  const std::vector<double> xb = {1.5, 0, 0, 0, 0, 0};
  CollisionModelDescription da = Model(ElementKind::kSphere, 0, 0, xa);
  da.radius = 0.5;
  CollisionModelDescription db = Model(ElementKind::kSphere, 1, 1, xb);
  db.radii = {0.25};  // sphere 1 falls back on `radius`
  db.radius = 2.0;
  const ModelElements a(da), b(db);
  EXPECT_EQ(b.radius(0), 0.25);
  EXPECT_EQ(b.radius(1), 2.0);
  // |c₂ − c₁| = 1.5 ≤ alarm 0.75 + 0.5 + 0.25 (≤: SOFA's sphere test includes equality).
  const ElementPair pair = Pair(a, xa, b, xb, 0.75, 0.1, settings);
  ASSERT_EQ(min_proximity::SphereSphere(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].normal, {1, 0, 0}));
  EXPECT_TRUE(NearVec(out[0].point[0], {0, 0, 0}));
  EXPECT_TRUE(NearVec(out[0].point[1], {1.5, 0, 0}));
  EXPECT_NEAR(out[0].value, 1.5 - 0.75 - 0.1, kRoundOff);
  EXPECT_EQ(out[0].id, 0);  // b larger: b's sphere
  EXPECT_EQ(min_proximity::SphereSphere(Pair(a, xa, b, xb, 0.74, 0.1, settings), 0, 0, out), 0);
  // Coincident centres: normal (1, 0, 0) (SOFA divides by zero there).
  ASSERT_EQ(min_proximity::SphereSphere(pair, 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[1].normal, {1, 0, 0}));
  EXPECT_NEAR(out[1].value, -2.5 - 0.1, kRoundOff);
}

TEST_F(MinProximity, SpherePointAndTriangleSphere) {
  const std::vector<double> sphere = {0.25, 0.25, 0.7};
  const std::vector<double> point = {0.25, 1.05, 0.7};
  const std::vector<double> tri = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  CollisionModelDescription ds = Model(ElementKind::kSphere, 0, 0, sphere);
  ds.radius = 0.5;
  const ModelElements s(ds);
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, point));
  const ModelElements t(Model(ElementKind::kTriangle, 2, 2, tri, {}, {{0, 1, 2}}));
  ASSERT_EQ(min_proximity::SpherePoint(Pair(s, sphere, p, point, 0.5, 0.1, settings), 0, 0, out),
            1);
  EXPECT_TRUE(NearVec(out[0].normal, {0, 1, 0}));
  EXPECT_NEAR(out[0].value, 0.8 - 0.5 - 0.1, kRoundOff);
  EXPECT_EQ(out[0].id, 0);  // the sphere
  ASSERT_EQ(min_proximity::TriangleSphere(Pair(t, tri, s, sphere, 0.5, 0.1, settings), 0, 0, out),
            1);
  EXPECT_TRUE(NearVec(out[1].point[0], {0.25, 0.25, 0}));
  EXPECT_TRUE(NearVec(out[1].point[1], {0.25, 0.25, 0.7}));  // the centre
  EXPECT_NEAR(out[1].value, 0.7 - 0.5 - 0.1, kRoundOff);
  // Beyond alarm + r = 0.15 + 0.5 < 0.7.
  EXPECT_EQ(min_proximity::TriangleSphere(Pair(t, tri, s, sphere, 0.15, 0.1, settings), 0, 0, out),
            0);
}

TEST_F(MinProximity, LineSphereKeepsSofasMirroredPoint) {
  const std::vector<double> line = {0, 0, 0, 4, 0, 0};
  const std::vector<double> spheres = {1, 0.5, 0, 2, 0.5, 0};
  CollisionModelDescription ds = Model(ElementKind::kSphere, 1, 1, spheres);
  ds.radius = 0.25;
  const ModelElements l(Model(ElementKind::kLine, 0, 0, line, {{0, 1}}));
  const ModelElements s(ds);
  const ElementPair pair = Pair(l, line, s, spheres, 5.0, 0.0, settings);
  // The centre projects at x = 1; SOFA's point is its mirror about the middle, x = 3.
  ASSERT_EQ(min_proximity::LineSphere(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {3, 0, 0}));
  EXPECT_NEAR(out[0].value, std::sqrt(4.25) - 0.25, kRoundOff);
  EXPECT_EQ(out[0].id, 0);
  // Over the middle the mirror is the projection itself.
  ASSERT_EQ(min_proximity::LineSphere(pair, 0, 1, out), 1);
  EXPECT_TRUE(NearVec(out[1].point[0], {2, 0, 0}));
  EXPECT_TRUE(NearVec(out[1].normal, {0, 1, 0}));
}

}  // namespace
}  // namespace fluxion::internal::collision
