// NewProximityIntersection's and DiscreteIntersection's element tests, and the triangle flags
// they read, on hand-placed elements with hand-worked results.
#include "collision/intersection_new_proximity.h"

#include <gtest/gtest.h>

#include <cmath>

#include "collision/intersection_discrete.h"
#include "collision/intersector_table.h"
#include "collision_test_meshes.h"

namespace fluxion::internal::collision {
namespace {

using testing::kRoundOff;
using testing::Model;
using testing::NearVec;
using testing::Pair;

TEST(TriangleFlags, FirstOwnerOfEachVertexAndEdgeAndBoundaries) {
  // Two triangles sharing the edge (1, 2).
  const std::vector<double> x = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const ModelElements t(Model(ElementKind::kTriangle, 0, 0, x, {}, {{0, 1, 2}, {1, 3, 2}}));
  EXPECT_EQ(t.triangle_flags(0), kFlagP1 | kFlagP2 | kFlagP3 | kFlagE23 | kFlagE31 | kFlagE12 |
                                     kFlagBoundaryE31 | kFlagBoundaryE12);
  // Triangle 1 owns vertex 3 (its second) and its two outer edges, (3, 2) and (1, 3).
  EXPECT_EQ(t.triangle_flags(1),
            kFlagP2 | kFlagE23 | kFlagE12 | kFlagBoundaryE23 | kFlagBoundaryE12);
}

TEST(TriangleElements, QuadsSplitAsSofaAndWithoutFlags) {
  const std::vector<double> x = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  CollisionModelDescription d = Model(ElementKind::kTriangle, 0, 0, x);
  d.topology.quads = {{0, 1, 2, 3}};
  const ModelElements t(d);
  ASSERT_EQ(t.size(), 2);
  EXPECT_EQ((std::array{t.vertex(0, 0), t.vertex(0, 1), t.vertex(0, 2)}),
            (std::array<Index, 3>{1, 2, 0}));
  EXPECT_EQ((std::array{t.vertex(1, 0), t.vertex(1, 1), t.vertex(1, 2)}),
            (std::array<Index, 3>{3, 0, 2}));
  EXPECT_EQ(t.triangle_flags(0), 0);
}

TEST(LineElements, EdgesMadeFromTrianglesWhenTheTopologyHasNone) {
  const std::vector<double> x = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const ModelElements l(Model(ElementKind::kLine, 0, 0, x, {}, {{0, 1, 2}, {1, 3, 2}}));
  // Side j of each triangle is (t[j+1], t[j+2]): (1,2) (2,0) (0,1), then (3,2) (1,3).
  ASSERT_EQ(l.size(), 5);
  const std::array<std::array<Index, 2>, 5> expected = {{{1, 2}, {2, 0}, {0, 1}, {3, 2}, {1, 3}}};
  for (Index e = 0; e < 5; ++e) {
    EXPECT_EQ(l.vertex(e, 0), expected[static_cast<std::size_t>(e)][0]);
    EXPECT_EQ(l.vertex(e, 1), expected[static_cast<std::size_t>(e)][1]);
  }
}

class NewProximity : public ::testing::Test {
 protected:
  IntersectionSettings settings;
  std::vector<DetectionOutput> out;
  const std::vector<double> tri = {0, 0, 0, 1, 0, 0, 0, 1, 0};
};

TEST_F(NewProximity, TrianglePointFaceEdgeAndVertex) {
  const std::vector<double> points = {0.25, 0.25, 0.3, 0.5, -0.3, 0.4, -0.3, -0.4, 0.0};
  const ModelElements t(Model(ElementKind::kTriangle, 0, 0, tri, {}, {{0, 1, 2}}));
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  const ElementPair pair = Pair(t, tri, p, points, 1.0, 0.1, settings);
  ASSERT_EQ(new_proximity::TrianglePoint(pair, 0, 0, out), 1);  // the face
  EXPECT_TRUE(NearVec(out[0].point[0], {0.25, 0.25, 0}));
  EXPECT_NEAR(out[0].value, 0.2, kRoundOff);
  ASSERT_EQ(new_proximity::TrianglePoint(pair, 0, 1, out), 1);  // edge AB
  EXPECT_TRUE(NearVec(out[1].point[0], {0.5, 0, 0}));
  EXPECT_TRUE(NearVec(out[1].normal, {0, -0.6, 0.8}));
  EXPECT_NEAR(out[1].value, 0.4, kRoundOff);
  ASSERT_EQ(new_proximity::TrianglePoint(pair, 0, 2, out), 1);  // vertex A
  EXPECT_TRUE(NearVec(out[2].point[0], {0, 0, 0}));
  EXPECT_TRUE(NearVec(out[2].normal, {-0.6, -0.8, 0}));
  EXPECT_EQ(out[2].id, 2);
}

TEST_F(NewProximity, TrianglePointSkipsFeaturesTheTriangleDoesNotOwn) {
  // Triangle 1 of two sharing edge (1, 2) does not own that edge: a point nearest to it is
  // triangle 0's.
  const std::vector<double> x = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const std::vector<double> points = {0.5, 0.5, 0.2};
  const ModelElements t(Model(ElementKind::kTriangle, 0, 0, x, {}, {{0, 1, 2}, {1, 3, 2}}));
  const ModelElements p(Model(ElementKind::kPoint, 1, 1, points));
  const ElementPair pair = Pair(t, x, p, points, 1.0, 0.0, settings);
  EXPECT_EQ(new_proximity::TrianglePoint(pair, 1, 0, out), 0);
  EXPECT_EQ(new_proximity::TrianglePoint(pair, 0, 0, out), 1);
}

TEST_F(NewProximity, TriangleTriangleIdsAndNeighbours) {
  // A second triangle 0.25 above the first, shifted so that only its first vertex is over the
  // first triangle's face.
  const std::vector<double> upper = {0.2, 0.2, 0.25, 1.2, 0.2, 0.25, 0.2, 1.2, 0.25};
  const ModelElements a(Model(ElementKind::kTriangle, 0, 0, tri, {}, {{0, 1, 2}}));
  const ModelElements b(Model(ElementKind::kTriangle, 1, 1, upper, {}, {{0, 1, 2}}));
  settings.use_line_line = false;
  const ElementPair pair = Pair(a, tri, b, upper, 0.3, 0.0, settings);
  ASSERT_GE(new_proximity::TriangleTriangle(pair, 0, 0, out), 1);
  // b's vertex 0 over a's face: id 3·|a| + 12·0 + 0 = 3, points (a's point, b's vertex).
  bool found = false;
  for (const DetectionOutput& o : out)
    if (o.id == 3) {
      found = true;
      EXPECT_TRUE(NearVec(o.point[0], {0.2, 0.2, 0}));
      EXPECT_TRUE(NearVec(o.point[1], {0.2, 0.2, 0.25}));
      EXPECT_TRUE(NearVec(o.normal, {0, 0, 1}));
    }
  EXPECT_TRUE(found);
  // Triangles of one model sharing a vertex: never.
  const std::vector<double> x = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const ModelElements m(Model(ElementKind::kTriangle, 0, 0, x, {}, {{0, 1, 2}, {1, 3, 2}}));
  out.clear();
  EXPECT_EQ(new_proximity::TriangleTriangle(Pair(m, x, m, x, 1.0, 0.0, settings), 0, 1, out), 0);
}

TEST_F(NewProximity, TriangleLineEndsAndLineId) {
  const std::vector<double> segment = {0.25, 0.25, 0.2, 0.25, 0.25, 3.0};
  const ModelElements t(Model(ElementKind::kTriangle, 0, 0, tri, {}, {{0, 1, 2}}));
  const ModelElements l(Model(ElementKind::kLine, 1, 1, segment, {{0, 1}}));
  ASSERT_EQ(new_proximity::TriangleLine(Pair(t, tri, l, segment, 0.3, 0.0, settings), 0, 0, out),
            1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0.25, 0.25, 0}));
  EXPECT_TRUE(NearVec(out[0].point[1], {0.25, 0.25, 0.2}));
  EXPECT_EQ(out[0].id, 0);
}

TEST(DiscreteIntersection, TriangleLineCrossing) {
  IntersectionSettings settings;
  const std::vector<double> tri = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::vector<double> segments = {0.25, 0.25, -1,  0.25, 0.25, 1,
                                        0.25, 0.25, 0.5, 0.25, 0.25, 1};
  const ModelElements t(Model(ElementKind::kTriangle, 0, 0, tri, {}, {{0, 1, 2}}));
  const ModelElements l(Model(ElementKind::kLine, 1, 1, segments, {{0, 1}, {2, 3}}));
  const ElementPair pair = Pair(t, tri, l, segments, 0.0, 0.0, settings);
  std::vector<DetectionOutput> out;
  ASSERT_EQ(discrete::TriangleLine(pair, 0, 0, out), 1);
  EXPECT_TRUE(NearVec(out[0].point[0], {0.25, 0.25, 0}));
  EXPECT_TRUE(NearVec(out[0].point[1], {0.25, 0.25, 0}));
  EXPECT_TRUE(NearVec(out[0].normal, {0, 0, 1}));
  EXPECT_EQ(out[0].value, 0.0);
  EXPECT_EQ(out[0].id, 0);
  EXPECT_EQ(discrete::TriangleLine(pair, 0, 1, out), 0);  // the segment stops above
}

TEST(IntersectorTable, PairsAndSwapsAsSofaRegistersThem) {
  using K = ElementKind;
  IntersectionSettings s;
  EXPECT_FALSE(FindIntersector(s, K::kTriangle, K::kPoint).swap);
  EXPECT_TRUE(FindIntersector(s, K::kPoint, K::kTriangle).swap);
  EXPECT_TRUE(FindIntersector(s, K::kPoint, K::kLine).swap);
  EXPECT_TRUE(FindIntersector(s, K::kSphere, K::kTriangle).swap);
  EXPECT_TRUE(FindIntersector(s, K::kPoint, K::kSphere).swap);
  EXPECT_FALSE(FindIntersector(s, K::kTriangle, K::kTriangle));  // MinProximity ignores them
  EXPECT_FALSE(FindIntersector(s, K::kLine, K::kTriangle));
  s.use_point_point = false;
  EXPECT_FALSE(FindIntersector(s, K::kPoint, K::kPoint));
  s.use_sphere_triangle = false;
  EXPECT_FALSE(FindIntersector(s, K::kTriangle, K::kSphere));
  EXPECT_TRUE(FindIntersector(s, K::kSphere, K::kSphere));
  s.method = IntersectionSettings::Method::kNewProximity;
  EXPECT_TRUE(FindIntersector(s, K::kTriangle, K::kTriangle));
  EXPECT_TRUE(FindIntersector(s, K::kLine, K::kTriangle).swap);
  s.method = IntersectionSettings::Method::kDiscrete;
  EXPECT_TRUE(FindIntersector(s, K::kLine, K::kTriangle).swap);
  EXPECT_FALSE(FindIntersector(s, K::kPoint, K::kPoint));
  EXPECT_FALSE(FindIntersector(s, K::kTriangle, K::kSphere));
}

}  // namespace
}  // namespace fluxion::internal::collision
