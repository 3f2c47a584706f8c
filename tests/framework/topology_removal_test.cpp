// SOFA's triangle removal (mechanics/topology_removal.h) on a strip worked by hand, following
// TriangleSetTopologyModifier::removeTrianglesProcess step by step (ids sorted descending, the
// last element moved into each removed slot, isolated edges then points removed the same way),
// and an index list followed as TopologySubsetData::remove does.
//
//   3---4---5      triangles T0 (0 1 4), T1 (0 4 3), T2 (1 2 5), T3 (1 5 4)
//   | \ | \ |      edges E0 (0 1), E1 (1 4), E2 (4 0), E3 (4 3), E4 (3 0), E5 (1 2), E6 (2 5),
//   0---1---2            E7 (5 1), E8 (5 4)
#include <gmock/gmock.h>

#include <array>
#include <vector>

#include "fluxion/errors.h"
#include "mechanics/topology_removal.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using Edge = std::array<Index, 2>;
using Triangle = std::array<Index, 3>;
constexpr Index kGone = TopologyRemoval::kRemoved;

Topology Strip() {
  Topology topology;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) topology.points.push_back({double(i), double(j), 0.0});
  topology.triangles = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}};
  topology.edges = {{0, 1}, {1, 4}, {4, 0}, {4, 3}, {3, 0}, {1, 2}, {2, 5}, {5, 1}, {5, 4}};
  return topology;
}

// Removing {0, 2}: T2 first (point 2 and edges E6, E5 lose their last triangle; T3 moves to
// slot 2), then T0 (edge E0 goes; T3 moves again, to slot 0). Edges 6, 5, 0 go in that order
// (E8 into slot 6, E7 into 5, E8 again into 0); point 2 goes, point 5 takes its number.
TEST(TopologyRemoval, RemovesTrianglesThenIsolatedEdgesAndPointsAsSofa) {
  const TopologyRemoval removal = RemoveTriangles(Strip(), {0, 2});
  EXPECT_THAT(removal.removed_triangles, ElementsAre(2, 0));
  EXPECT_THAT(removal.removed_edges, ElementsAre(6, 5, 0));
  EXPECT_THAT(removal.removed_points, ElementsAre(2));
  EXPECT_THAT(removal.triangle_origin, ElementsAre(3, 1));
  EXPECT_THAT(removal.triangle_map, ElementsAre(kGone, 1, kGone, 0));
  EXPECT_THAT(removal.edge_origin, ElementsAre(8, 1, 2, 3, 4, 7));
  EXPECT_THAT(removal.point_origin, ElementsAre(0, 1, 5, 3, 4));
  EXPECT_THAT(removal.point_map, ElementsAre(0, 1, kGone, 3, 4, 2));
  // Elements keep their vertex order, renamed: point 5 is now 2.
  EXPECT_THAT(removal.topology.triangles, ElementsAre(Triangle{1, 2, 4}, Triangle{0, 4, 3}));
  EXPECT_THAT(removal.topology.edges,
              ElementsAre(Edge{2, 4}, Edge{1, 4}, Edge{4, 0}, Edge{4, 3}, Edge{3, 0}, Edge{2, 1}));
  ASSERT_EQ(removal.topology.points.size(), 5u);
  EXPECT_EQ(removal.topology.points[2], (std::array<double, 3>{2.0, 1.0, 0.0}));  // old point 5
}

// TopologySubsetData::remove for point 2 with 6 points: entries equal to 2 are erased (the
// order kept), then entries equal to the last point, 5, become 2.
TEST(TopologyRemoval, IndexListsDropRemovedPointsAndRenameTheMovedLastOne) {
  const TopologyRemoval removal = RemoveTriangles(Strip(), {0, 2});
  EXPECT_THAT(RenumberPointSubset({5, 2, 3, 0}, removal.point_map), ElementsAre(2, 3, 0));
  Vector values(6);
  values << 10, 11, 12, 13, 14, 15;
  const Vector renumbered = RenumberPointValues(values, 1, removal.point_origin);
  EXPECT_THAT(std::vector<double>(renumbered.begin(), renumbered.end()),
              ElementsAre(10, 11, 15, 13, 14));
}

// Indices past the triangles are skipped (SOFA warns); a repeated index removes once.
TEST(TopologyRemoval, SkipsOutOfRangeAndRepeatedIndices) {
  const TopologyRemoval removal = RemoveTriangles(Strip(), {3, 7, 3});
  EXPECT_THAT(removal.out_of_range, ElementsAre(7));
  EXPECT_THAT(removal.removed_triangles, ElementsAre(3));
  // T3 (1 5 4) was last: nothing moves; edge E8 (5 4) had only T3, point 5 keeps T2.
  EXPECT_THAT(removal.removed_edges, ElementsAre(8));
  EXPECT_TRUE(removal.removed_points.empty());
  EXPECT_EQ(removal.topology.triangles.size(), 3u);
}

// Removing everything leaves no element and no point.
TEST(TopologyRemoval, RemovingEveryTriangleRemovesEveryPoint) {
  const TopologyRemoval removal = RemoveTriangles(Strip(), {0, 1, 2, 3});
  EXPECT_TRUE(removal.topology.triangles.empty());
  EXPECT_TRUE(removal.topology.edges.empty());
  EXPECT_TRUE(removal.topology.points.empty());
}

TEST(TopologyRemoval, RefusesATriangleSideMissingFromTheEdges) {
  Topology topology = Strip();
  topology.edges.pop_back();  // E8 (5 4), a side of T3
  EXPECT_THROW(RemoveTriangles(topology, {0}), ConfigError);
}

}  // namespace
}  // namespace fluxion::internal
