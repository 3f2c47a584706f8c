// Which models and elements may collide (collision/collision_rules.h), on chains whose
// neighbourhoods are counted by hand, and the bounding tree's split rule (bounding_tree.h).
#include "collision/collision_rules.h"

#include <gtest/gtest.h>

#include "collision/bounding_tree.h"
#include "collision_test_meshes.h"

namespace fluxion::internal::collision {
namespace {

using testing::Model;

TEST(CanCollideWith, SelfCollisionInOneNodeAndGroupsAcrossNodes) {
  const std::vector<double> x = {0, 0, 0};
  CollisionModelDescription a = Model(ElementKind::kPoint, 0, 0, x);
  CollisionModelDescription b = Model(ElementKind::kPoint, 0, 0, x);
  EXPECT_FALSE(CanCollideWith(a, b));  // one node, no selfCollision
  a.self_collision = true;
  EXPECT_TRUE(CanCollideWith(a, b));
  EXPECT_FALSE(CanCollideWith(b, a));  // each model answers for itself
  b.node = 1;
  a.groups = {1, 4};
  EXPECT_TRUE(CanCollideWith(a, b));  // b has no group
  b.groups = {2, 3};
  EXPECT_TRUE(CanCollideWith(a, b));
  b.groups = {3, 4};
  EXPECT_FALSE(CanCollideWith(a, b));  // a shared group
}

// A chain 0 – 1 – 2 – 3 – 4 – 5 in one node, as points, lines and triangles.
class ChainRules : public ::testing::Test {
 protected:
  std::vector<double> x = std::vector<double>(18, 0.0);
  std::vector<std::array<Index, 2>> edges = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}};
  CollisionModelDescription points = Self(Model(ElementKind::kPoint, 0, 0, x, edges));
  CollisionModelDescription lines = Self(Model(ElementKind::kLine, 0, 0, x, edges));
  CollisionModelDescription triangles =
      Self(Model(ElementKind::kTriangle, 0, 0, x, edges, {{0, 1, 2}}));
  ModelElements point_elements{points}, line_elements{lines}, triangle_elements{triangles};
  RuleModel p{0, &points, &point_elements, 0};
  RuleModel l{1, &lines, &line_elements, 0};
  RuleModel t{2, &triangles, &triangle_elements, 0};

  static CollisionModelDescription Self(CollisionModelDescription d) {
    d.self_collision = true;
    return d;
  }
};

TEST_F(ChainRules, PointsOnceAndNotNeighboursOrSecondNeighbours) {
  EXPECT_FALSE(CanCollideWithElement(p, 1, p, 0));  // joined by an edge
  EXPECT_FALSE(CanCollideWithElement(p, 2, p, 0));  // a common neighbour, 1
  EXPECT_TRUE(CanCollideWithElement(p, 3, p, 0));
  EXPECT_FALSE(CanCollideWithElement(p, 0, p, 3));  // only the first index greater
  EXPECT_FALSE(CanCollideWithElement(p, 3, p, 3));
}

TEST_F(ChainRules, LinesNotSharingAVertexOrALineAround) {
  EXPECT_FALSE(CanCollideWithElement(l, 0, l, 1));  // vertex 1
  EXPECT_FALSE(CanCollideWithElement(l, 0, l, 2));  // line 1 is around both
  EXPECT_TRUE(CanCollideWithElement(l, 0, l, 3));
  EXPECT_TRUE(CanCollideWithElement(l, 3, l, 0));  // both orders are examined
  // With the node's point model: not its vertices, nor those of the lines around them.
  EXPECT_FALSE(CanCollideWithElement(l, 0, p, 2));
  EXPECT_TRUE(CanCollideWithElement(l, 0, p, 3));
  EXPECT_FALSE(CanCollideWithElement(p, 2, l, 0));  // the point model asks the line model
}

TEST_F(ChainRules, TrianglesNotWithTheirOwnVertices) {
  EXPECT_FALSE(CanCollideWithElement(t, 0, p, 2));
  EXPECT_TRUE(CanCollideWithElement(t, 0, p, 3));
  EXPECT_FALSE(CanCollideWithElement(p, 1, t, 0));
  points.self_collision = false;  // a model without selfCollision has no rule
  EXPECT_TRUE(CanCollideWithElement(p, 2, p, 0));
}

Box Cube(double x, double y, double z, double half) {
  return Box{Vec3(x - half, y - half, z - half), Vec3(x + half, y + half, z + half)};
}

TEST(BoundingTree, SplitsTheLongestSideAtTheMedianUntilFourElements) {
  // Ten unit boxes along y in scrambled order, spread further than along x and z.
  std::vector<Box> leaves;
  for (const int k : {7, 2, 9, 0, 5, 3, 8, 1, 6, 4})
    leaves.push_back(Cube(0.1 * k, 2.0 * k, 0, 0.5));
  BoundingTree tree;
  tree.Build(leaves, DepthForLeafCells(10, 0));
  const auto& nodes = tree.nodes();
  ASSERT_EQ(nodes.size(), 7U);  // root; 5 + 5; 3 + 2 and 3 + 2
  EXPECT_EQ(nodes[0].first_child, 1);
  EXPECT_EQ(nodes[1].end - nodes[1].begin, 5);
  EXPECT_EQ(nodes[3].end - nodes[3].begin, 3);  // ⌈5/2⌉ first
  // Elements sorted by y: the first cell holds y = 0 … 8, i.e. elements with k = 0 … 4.
  for (Index i = nodes[1].begin; i < nodes[1].end; ++i)
    EXPECT_LT(
        leaves[static_cast<std::size_t>(tree.element_order()[static_cast<std::size_t>(i)])].min.y(),
        9.0);
  EXPECT_EQ(nodes[0].box.min, Vec3(-0.5, -0.5, -0.5));
  EXPECT_EQ(nodes[0].box.max, Vec3(1.4, 18.5, 0.5));
  // SOFA's depth limit: no split below it.
  BoundingTree shallow;
  shallow.Build(leaves, 0);
  EXPECT_EQ(shallow.nodes().size(), 1U);
  // Refit keeps the structure and follows the boxes.
  leaves[3] = Cube(0, -10, 0, 0.5);
  tree.Refit(leaves);
  EXPECT_EQ(tree.nodes().size(), 7U);
  EXPECT_EQ(tree.nodes()[0].box.min.y(), -10.5);
}

TEST(BoundingTree, BoxOverlapWithMargin) {
  const Box a = Cube(0, 0, 0, 0.5), b = Cube(2, 0, 0, 0.5);
  EXPECT_FALSE(BoxesOverlap(a, b, 0.99));
  EXPECT_TRUE(BoxesOverlap(a, b, 1.0));  // SOFA's test: apart only when beyond the margin
}

}  // namespace
}  // namespace fluxion::internal::collision
