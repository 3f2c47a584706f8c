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

// Quads (QuadSetTopologyModifier::removeQuadsProcess), worked by hand on a strip of two:
//   3---4---5    Q0 (0 1 4 3), Q1 (1 2 5 4); edges E0 (0 1), E1 (1 4), E2 (4 3), E3 (3 0),
//   |   |   |    E4 (1 2), E5 (2 5), E6 (5 4).
//   0---1---2
// Removing Q0: edges E0, E2, E3 and points 0, 3 lose their only quad; Q1 moves to slot 0. Edges
// 3, 2, 0 go in that order (E6 into 3, E5 into 2, E4 into 0); points 3 then 0 (5 into 3, 4 into
// 0).
TEST(TopologyRemoval, RemovesQuadsThenIsolatedEdgesAndPointsAsSofa) {
  using Quad = std::array<Index, 4>;
  Topology topology;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) topology.points.push_back({double(i), double(j), 0.0});
  topology.quads = {{0, 1, 4, 3}, {1, 2, 5, 4}};
  topology.edges = {{0, 1}, {1, 4}, {4, 3}, {3, 0}, {1, 2}, {2, 5}, {5, 4}};
  const TopologyRemoval removal = RemoveElements(topology, TopologyLevel::kQuad, {0});
  EXPECT_THAT(removal.removed_quads, ElementsAre(0));
  EXPECT_THAT(removal.removed_edges, ElementsAre(3, 2, 0));
  EXPECT_THAT(removal.removed_points, ElementsAre(3, 0));
  EXPECT_THAT(removal.edge_origin, ElementsAre(4, 1, 5, 6));
  EXPECT_THAT(removal.point_origin, ElementsAre(4, 1, 2, 5));
  EXPECT_THAT(removal.point_map, ElementsAre(kGone, 1, 2, kGone, 0, 3));
  EXPECT_THAT(removal.topology.quads, ElementsAre(Quad{1, 2, 3, 0}));
  EXPECT_THAT(removal.topology.edges, ElementsAre(Edge{1, 2}, Edge{1, 0}, Edge{2, 3}, Edge{3, 0}));
}

// The same quads with each quad's triangulation diagonal among the edges (SOFA's grids list
// them: GridTopology::updateEdges takes the edges of the quads' triangles), E7 (0 4) and
// E8 (1 5): no quad has them, so no removal finds them isolated. Removing Q0 frees point 0, the
// end of E7: E7 goes with it (SOFA would leave it naming the point moved into slot 0), E8
// stays. Edges 7, 3, 2, 0 go in that order (E8 into 7, E8 again into 3, E6 into 2, E5 into 0):
// E5 E1 E6 E8 E4; points as above (4 into 0, 5 into 3).
TEST(TopologyRemoval, AnEdgeOnARemovedPointInNoQuadGoesWithThePoint) {
  using Quad = std::array<Index, 4>;
  Topology topology;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) topology.points.push_back({double(i), double(j), 0.0});
  topology.quads = {{0, 1, 4, 3}, {1, 2, 5, 4}};
  topology.edges = {{0, 1}, {1, 4}, {4, 3}, {3, 0}, {1, 2}, {2, 5}, {5, 4}, {0, 4}, {1, 5}};
  const TopologyRemoval removal = RemoveElements(topology, TopologyLevel::kQuad, {0});
  EXPECT_THAT(removal.removed_edges, ElementsAre(7, 3, 2, 0));
  EXPECT_THAT(removal.removed_points, ElementsAre(3, 0));
  EXPECT_THAT(removal.edge_origin, ElementsAre(5, 1, 6, 8, 4));
  EXPECT_THAT(removal.edge_map, ElementsAre(kGone, 1, kGone, kGone, 4, 0, 2, kGone, 3));
  EXPECT_THAT(removal.point_origin, ElementsAre(4, 1, 2, 5));
  EXPECT_THAT(removal.topology.quads, ElementsAre(Quad{1, 2, 3, 0}));
  EXPECT_THAT(removal.topology.edges,
              ElementsAre(Edge{2, 3}, Edge{1, 0}, Edge{3, 0}, Edge{1, 3}, Edge{1, 2}));
}

// Tetrahedra (TetrahedronSetTopologyModifier::removeTetrahedraProcess) on two sharing the face
// (1 2 3): T0 (0 1 2 3), T1 (1 2 3 4); triangles F0 (1 2 3), F1 (0 3 2), F2 (0 1 3),
// F3 (0 2 1), F4 (2 3 4), F5 (1 4 3), F6 (1 2 4); edges E0 (0 1), E1 (0 2), E2 (0 3), E3 (1 2),
// E4 (1 3), E5 (2 3), E6 (1 4), E7 (2 4), E8 (3 4). Removing T0: F1-F3, E0-E2 and point 0 are
// left without a tetrahedron, F0 keeps T1. Triangles 3, 2, 1 go (F6, F5, F4 into their slots),
// edges 2, 1, 0 (E8, E7, E6), point 0 (4 into it).
TEST(TopologyRemoval, RemovesTetrahedraThenIsolatedTrianglesEdgesAndPointsAsSofa) {
  using Tetrahedron = std::array<Index, 4>;
  Topology topology;
  for (int i = 0; i < 5; ++i) topology.points.push_back({double(i), 0.0, 0.0});
  topology.tetrahedra = {{0, 1, 2, 3}, {1, 2, 3, 4}};
  topology.triangles = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1},
                        {2, 3, 4}, {1, 4, 3}, {1, 2, 4}};
  topology.edges = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {1, 4}, {2, 4}, {3, 4}};
  const TopologyRemoval removal = RemoveElements(topology, TopologyLevel::kTetrahedron, {0});
  EXPECT_THAT(removal.removed_triangles, ElementsAre(3, 2, 1));
  EXPECT_THAT(removal.removed_edges, ElementsAre(2, 1, 0));
  EXPECT_THAT(removal.removed_points, ElementsAre(0));
  EXPECT_THAT(removal.triangle_origin, ElementsAre(0, 4, 5, 6));
  EXPECT_THAT(removal.edge_origin, ElementsAre(6, 7, 8, 3, 4, 5));
  EXPECT_THAT(removal.point_origin, ElementsAre(4, 1, 2, 3));
  EXPECT_THAT(removal.topology.tetrahedra, ElementsAre(Tetrahedron{1, 2, 3, 0}));
  EXPECT_THAT(removal.topology.triangles, ElementsAre(Triangle{1, 2, 3}, Triangle{2, 3, 0},
                                                      Triangle{1, 0, 3}, Triangle{1, 2, 0}));
  EXPECT_THAT(removal.topology.edges,
              ElementsAre(Edge{1, 0}, Edge{2, 0}, Edge{3, 0}, Edge{1, 2}, Edge{1, 3}, Edge{2, 3}));
}

// Edges (EdgeSetTopologyModifier::removeEdges(ids, true)): the points left without an edge go.
TEST(TopologyRemoval, RemovesEdgesThenIsolatedPoints) {
  Topology topology;
  for (int i = 0; i < 4; ++i) topology.points.push_back({double(i), 0.0, 0.0});
  topology.edges = {{0, 1}, {1, 2}, {2, 3}};
  const TopologyRemoval removal = RemoveElements(topology, TopologyLevel::kEdge, {0});
  EXPECT_THAT(removal.removed_points, ElementsAre(0));
  // E2 (2 3) into slot 0, then point 3 into slot 0.
  EXPECT_THAT(removal.topology.edges, ElementsAre(Edge{2, 0}, Edge{1, 2}));
}

// A mapped output removes no point (removeIsolatedPoints = false).
TEST(TopologyRemoval, KeepsIsolatedPointsWhenAsked) {
  const TopologyRemoval removal =
      RemoveElements(Strip(), TopologyLevel::kTriangle, {0, 2}, /*isolated_points=*/false);
  EXPECT_TRUE(removal.removed_points.empty());
  EXPECT_EQ(removal.topology.points.size(), 6u);
  EXPECT_THAT(removal.topology.triangles, ElementsAre(Triangle{1, 5, 4}, Triangle{0, 4, 3}));
}

TEST(TopologyRemoval, RefusesATriangleSideMissingFromTheEdges) {
  Topology topology = Strip();
  topology.edges.pop_back();  // E8 (5 4), a side of T3
  EXPECT_THROW(RemoveTriangles(topology, {0}), ConfigError);
}

}  // namespace
}  // namespace fluxion::internal
