// SOFA's triangle removal applied in place with live shells (mechanics/triangle_shells.h): on
// the strip of topology_removal_test.cpp worked by hand, then against RemoveElements (the
// removal that builds its shells anew on a copy, tested there against SOFA's steps) over a
// sequence of removals from a cloth.
//
//   3---4---5      triangles T0 (0 1 4), T1 (0 4 3), T2 (1 2 5), T3 (1 5 4)
//   | \ | \ |      edges E0 (0 1), E1 (1 4), E2 (4 0), E3 (4 3), E4 (3 0), E5 (1 2), E6 (2 5),
//   0---1---2            E7 (5 1), E8 (5 4)
#include <gmock/gmock.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "mechanics/topology_removal.h"
#include "mechanics/triangle_shells.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using Edge = std::array<Index, 2>;
using Triangle = std::array<Index, 3>;

Topology Strip() {
  Topology topology;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) topology.points.push_back({double(i), double(j), 0.0});
  topology.triangles = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}};
  topology.edges = {{0, 1}, {1, 4}, {4, 0}, {4, 3}, {3, 0}, {1, 2}, {2, 5}, {5, 1}, {5, 4}};
  return topology;
}

// Removing T0 frees no point (0, 1 and 4 have other triangles) and one edge, E0 (its only
// triangle): T3 moves into slot 0, then E8 into slot 0.
TEST(TriangleShells, RemovesATriangleAndItsFreedEdgeAsSofa) {
  Topology topology = Strip();
  std::optional<TriangleShells> shells = TriangleShells::Build(topology);
  ASSERT_TRUE(shells.has_value());
  const std::vector<Index> ids = {0};
  EXPECT_FALSE(shells->WouldFreePoints(topology, ids));
  ShellRemoval done;
  shells->Remove(topology, ids, done);
  EXPECT_THAT(done.removed_triangles, ElementsAre(0));
  EXPECT_THAT(done.removed_edges, ElementsAre(0));
  EXPECT_THAT(topology.triangles,
              ElementsAre(Triangle{1, 5, 4}, Triangle{0, 4, 3}, Triangle{1, 2, 5}));
  EXPECT_THAT(topology.edges, ElementsAre(Edge{5, 4}, Edge{1, 4}, Edge{4, 0}, Edge{4, 3},
                                          Edge{3, 0}, Edge{1, 2}, Edge{2, 5}, Edge{5, 1}));
  EXPECT_EQ(topology.points.size(), 6u);
  // The shells followed: point 4 is on T0 (was T3) and T1; point 1 on T0 and T2.
  std::vector<Index> around = shells->TrianglesAroundVertex(4);
  std::sort(around.begin(), around.end());
  EXPECT_THAT(around, ElementsAre(0, 1));
  around = shells->TrianglesAroundVertex(1);
  std::sort(around.begin(), around.end());
  EXPECT_THAT(around, ElementsAre(0, 2));
  // T1 is now the only triangle on points 0 and 3: removing it would free them.
  EXPECT_TRUE(shells->WouldFreePoints(topology, std::vector<Index>{1}));
}

// Removing T0 and T1 frees points 3 (only on T1) and 0 (on T0 and T1), by hand: slot 1 takes T3,
// slot 0 takes T2; edges E3, E4 (T1's alone) then E0, E2 go, descending: E8, E7, E6, E5 move
// into slots 4, 3, 2, 0; then point 3 takes point 5, point 0 takes point 4, renamed in the
// triangles and edges around them.
TEST(TriangleShells, RemovesTheFreedPointsAsSofa) {
  Topology topology = Strip();
  std::optional<TriangleShells> shells = TriangleShells::Build(topology);
  ASSERT_TRUE(shells.has_value());
  ASSERT_TRUE(shells->points_follow());
  const std::vector<Index> ids = {0, 1};
  EXPECT_TRUE(shells->WouldFreePoints(topology, ids));
  ShellRemoval done;
  shells->RemoveFreeingPoints(topology, ids, done);
  EXPECT_THAT(done.removed_triangles, ElementsAre(1, 0));
  EXPECT_THAT(done.removed_edges, ElementsAre(4, 3, 2, 0));
  EXPECT_THAT(done.removed_points, ElementsAre(3, 0));
  EXPECT_THAT(done.moved_points, ElementsAre(5, 4));
  EXPECT_THAT(topology.triangles, ElementsAre(Triangle{1, 2, 3}, Triangle{1, 3, 0}));
  EXPECT_THAT(topology.edges,
              ElementsAre(Edge{1, 2}, Edge{1, 0}, Edge{2, 3}, Edge{3, 1}, Edge{3, 0}));
  using Point = std::array<double, 3>;
  EXPECT_THAT(topology.points,
              ElementsAre(Point{1, 1, 0}, Point{1, 0, 0}, Point{2, 0, 0}, Point{2, 1, 0}));
  EXPECT_THAT(shells->TrianglesAroundVertex(0), ElementsAre(1));
  std::vector<Index> around = shells->TrianglesAroundVertex(3);
  std::sort(around.begin(), around.end());
  EXPECT_THAT(around, ElementsAre(0, 1));
  // An edge that is no triangle's side would keep a freed point: not followed.
  Topology bare = Strip();
  bare.edges.push_back({0, 5});
  EXPECT_FALSE(TriangleShells::Build(bare)->points_follow());
}

TEST(TriangleShells, RefusesSidesMissingFromTheEdges) {
  Topology topology = Strip();
  topology.edges.pop_back();  // (5 4), a side of T3
  EXPECT_FALSE(TriangleShells::Build(topology).has_value());
  topology = Strip();
  topology.edges.push_back({4, 5});  // (5 4) listed twice
  EXPECT_FALSE(TriangleShells::Build(topology).has_value());
}

// An n × n cloth whose edges are derived as SOFA's container derives them (sides v1-v2, v2-v0,
// v0-v1 of each triangle, first occurrence).
Topology Cloth(int n) {
  Topology topology;
  for (int p = 0; p < n * n; ++p) topology.points.push_back({double(p % n), double(p / n), 0.0});
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const Index p = i + n * j;
      topology.triangles.push_back({p, p + 1, p + n + 1});
      topology.triangles.push_back({p, p + n + 1, p + n});
    }
  std::map<std::pair<Index, Index>, bool> seen;
  for (const Triangle& t : topology.triangles)
    for (int j = 0; j < 3; ++j) {
      const Index a = t[static_cast<std::size_t>((j + 1) % 3)];
      const Index b = t[static_cast<std::size_t>((j + 2) % 3)];
      if (seen.emplace(std::minmax(a, b), true).second) topology.edges.push_back({a, b});
    }
  return topology;
}

// Twenty removals of 1 to 6 random triangles (repeats and an out-of-range index among them):
// each one that frees no point gives RemoveElements' triangles, edges and removed lists; each
// one that would free points is one where RemoveElements removes points.
TEST(TriangleShells, FollowsRemovalsAsRemoveElementsDoes) {
  Topology live = Cloth(8);
  std::optional<TriangleShells> shells = TriangleShells::Build(live);
  ASSERT_TRUE(shells.has_value());
  std::mt19937 random(7);
  ShellRemoval done;
  int applied = 0, refused = 0;
  for (int round = 0; round < 20; ++round) {
    std::uniform_int_distribution<Index> pick(0, static_cast<Index>(live.triangles.size()) - 1);
    std::vector<Index> ids;
    const int count = 1 + round % 6;
    for (int k = 0; k < count; ++k) ids.push_back(pick(random));
    if (round % 5 == 0) ids.push_back(ids.front());
    if (round % 7 == 0) ids.push_back(static_cast<Index>(live.triangles.size()) + 3);
    const TopologyRemoval reference = RemoveTriangles(live, ids);
    if (shells->WouldFreePoints(live, ids)) {
      EXPECT_FALSE(reference.removed_points.empty()) << "round " << round;
      ++refused;
      continue;
    }
    ASSERT_TRUE(reference.removed_points.empty()) << "round " << round;
    shells->Remove(live, ids, done);
    ++applied;
    EXPECT_EQ(done.removed_triangles, reference.removed_triangles) << "round " << round;
    EXPECT_EQ(done.removed_edges, reference.removed_edges) << "round " << round;
    EXPECT_EQ(done.out_of_range, reference.out_of_range) << "round " << round;
    EXPECT_EQ(live.triangles, reference.topology.triangles) << "round " << round;
    EXPECT_EQ(live.edges, reference.topology.edges) << "round " << round;
    EXPECT_EQ(live.points, reference.topology.points) << "round " << round;
  }
  EXPECT_GT(applied, 10);
  EXPECT_GT(refused, 0);
  // The shells are still those of the changed cloth.
  std::optional<TriangleShells> fresh = TriangleShells::Build(live);
  ASSERT_TRUE(fresh.has_value());
  for (Index v = 0; v < static_cast<Index>(live.points.size()); ++v) {
    std::vector<Index> kept = shells->TrianglesAroundVertex(v);
    std::vector<Index> built = fresh->TrianglesAroundVertex(v);
    std::sort(kept.begin(), kept.end());
    std::sort(built.begin(), built.end());
    EXPECT_EQ(kept, built) << "point " << v;
  }
}

// Twenty removals of 1 to 8 random triangles, points freed or not: RemoveElements' topology and
// removed lists each time, and shells that stay those of the changed cloth.
TEST(TriangleShells, FreesPointsAsRemoveElementsDoes) {
  Topology live = Cloth(7);
  std::optional<TriangleShells> shells = TriangleShells::Build(live);
  ASSERT_TRUE(shells.has_value());
  std::mt19937 random(11);
  ShellRemoval done;
  int freeing = 0;
  for (int round = 0; round < 20 && live.triangles.size() > 8; ++round) {
    std::uniform_int_distribution<Index> pick(0, static_cast<Index>(live.triangles.size()) - 1);
    std::vector<Index> ids;
    for (int k = 0; k < 1 + round % 8; ++k) ids.push_back(pick(random));
    const TopologyRemoval reference = RemoveTriangles(live, ids);
    shells->RemoveFreeingPoints(live, ids, done);
    if (!done.removed_points.empty()) ++freeing;
    EXPECT_EQ(done.removed_triangles, reference.removed_triangles) << "round " << round;
    EXPECT_EQ(done.removed_edges, reference.removed_edges) << "round " << round;
    EXPECT_EQ(done.removed_points, reference.removed_points) << "round " << round;
    ASSERT_EQ(live.triangles, reference.topology.triangles) << "round " << round;
    ASSERT_EQ(live.edges, reference.topology.edges) << "round " << round;
    ASSERT_EQ(live.points, reference.topology.points) << "round " << round;
    // moved_points[i] was the last point when removed_points[i] went.
    for (std::size_t i = 0; i < done.moved_points.size(); ++i)
      EXPECT_EQ(done.moved_points[i], static_cast<Index>(reference.point_map.size() - 1 - i))
          << "round " << round;
  }
  EXPECT_GT(freeing, 3);
  std::optional<TriangleShells> fresh = TriangleShells::Build(live);
  ASSERT_TRUE(fresh.has_value());
  for (Index v = 0; v < static_cast<Index>(live.points.size()); ++v) {
    std::vector<Index> kept = shells->TrianglesAroundVertex(v);
    std::vector<Index> built = fresh->TrianglesAroundVertex(v);
    std::sort(kept.begin(), kept.end());
    std::sort(built.begin(), built.end());
    EXPECT_EQ(kept, built) << "point " << v;
  }
}

}  // namespace
}  // namespace fluxion::internal
