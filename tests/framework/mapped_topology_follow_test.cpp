// A topological mapping's output following its input's removal (mechanics/
// mapped_topology_follow.h), worked by hand from SOFA's handlers statement by statement.
//
//   3---4---5    input quads Q0 (0 1 4 3), Q1 (1 2 5 4); Quad2Triangle's output (no swapping):
//   |   |   |    T0 (1 4 0), T1 (3 0 4) from Q0, T2 (2 5 1), T3 (4 1 5) from Q1; its edges
//   0---1---2    e0 (4 0), e1 (0 1), e2 (1 4), e3 (4 3), e4 (3 0), e5 (5 1), e6 (1 2), e7 (2 5),
//                e8 (5 4) (each triangle's sides (v1 v2), (v2 v0), (v0 v1), first occurrence).
#include <gmock/gmock.h>

#include <array>
#include <vector>

#include "mechanics/mapped_topology_follow.h"
#include "mechanics/topology_removal.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using Edge = std::array<Index, 2>;
using Triangle = std::array<Index, 3>;

Topology Quads() {
  Topology topology;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) topology.points.push_back({double(i), double(j), 0.0});
  topology.quads = {{0, 1, 4, 3}, {1, 2, 5, 4}};
  topology.edges = {{0, 1}, {1, 4}, {4, 3}, {3, 0}, {1, 2}, {2, 5}, {5, 4}};
  return topology;
}

Topology Triangles(const Topology& quads) {
  Topology topology;
  topology.points = quads.points;
  topology.triangles = {{1, 4, 0}, {3, 0, 4}, {2, 5, 1}, {4, 1, 5}};
  topology.edges = {{4, 0}, {0, 1}, {1, 4}, {4, 3}, {3, 0}, {5, 1}, {1, 2}, {2, 5}, {5, 4}};
  return topology;
}

// QUADSREMOVED for Q0 (last = 1, ind_last = 4): In2OutMap swaps Q0's and Q1's triangle pairs,
// then takes them back as the triangles move; removeTriangles({0, 1}) removes T1 (T3 into its
// slot) then T0 (T2 into it): [T2, T3]. T1 leaves e3 and e4 alone, T0 e0 and e1: edges 4, 3, 1,
// 0 go (e8 into 4, e7 into 3, e6 into 1, e5 into 0). Then the input's points: 3 and 0 go, 5
// becomes 3 and 4 becomes 0.
TEST(MappedTopologyFollow, Quad2TriangleRemovesTheQuadsTrianglesAsSofa) {
  const Topology input = Quads();
  MappedTopology mapped = StartMappedTopology(TopologyMappingRule::kQuad2Triangle, input,
                                              Triangles(input), false, false);
  const TopologyRemoval removal = RemoveElements(input, TopologyLevel::kQuad, {0});
  FollowRemoval(mapped, input, removal);
  EXPECT_THAT(mapped.topology.triangles, ElementsAre(Triangle{2, 3, 1}, Triangle{0, 1, 3}));
  EXPECT_THAT(mapped.topology.edges,
              ElementsAre(Edge{3, 1}, Edge{1, 2}, Edge{1, 0}, Edge{2, 3}, Edge{3, 0}));
  EXPECT_EQ(mapped.topology.points.size(), 4u);
  // The remaining quad (Q1, now 0) owns both triangles.
  EXPECT_THAT(mapped.loc2glob, ElementsAre(0, 0));
  ASSERT_EQ(mapped.in2out.count(0), 1u);
  EXPECT_THAT(mapped.in2out.at(0), ElementsAre(0, 1));
}

// Triangle2Edge (the border edges of a triangle strip): removing a triangle uncovers the edge it
// shared (TRIANGLESREMOVED appends it, smaller vertex first), then the edges it leaves alone go
// (EDGESREMOVED, one at a time as SOFA's handler does).
//   T0 (0 1 2), T1 (1 3 2) in the plane; edges E0 (1 2) shared, E1 (2 0), E2 (0 1), E3 (3 2),
//   E4 (1 3). The output: the border edges E1, E2, E3, E4 as o0..o3.
// Removing T0 (TRIANGLESREMOVED: E0 has T0 and T1, T1 not removed: edge (1 2) appended as o4,
// Glob2Loc[0] = 4). The input then removes E2 and E1 (desc: 2, 1; E4 into 2, E3 into 1) and point
// 0 (3 into it). EDGESREMOVED [2, 1], last = 4, ind_last = 5:
//   k = 2 (o1): last = 4 (o3): swap → Glob2Loc {2: o3, 4: o1}, Loc2Glob [1, 4, 3, 2, 0];
//     ind_k = 1 ≠ ind_last = 4: Glob2Loc[Loc2Glob[4] = 0] = 1, Glob2Loc[Loc2Glob[1] = 4] = 4,
//     Loc2Glob [1, 0, 3, 2, 4]; erase Glob2Loc[4], pop → [1, 0, 3, 2]; removeEdges({1}): o4 (1 2)
//     into slot 1: [o0, o4, o2, o3].
//   k = 1 (Glob2Loc[1] = 0): last = 3 (o2): swap → Glob2Loc {1: 2, 3: 0}, Loc2Glob [3, 0, 1, 2];
//     ind_k = 0 ≠ ind_last = 3: Glob2Loc[Loc2Glob[3] = 2] = 0, Glob2Loc[Loc2Glob[0] = 3] = 3,
//     Loc2Glob [2, 0, 1, 3]; erase Glob2Loc[3], pop → [2, 0, 1]; removeEdges({0}): o3 into slot 0:
//     [o3, o4, o2] = [(1 3), (1 2), (3 2)] — the input's edges 2, 0, 1 after its removal.
// Points: 0 removed, 3 becomes 0: [(1 0), (1 2), (0 2)].
TEST(MappedTopologyFollow, Triangle2EdgeAddsTheUncoveredEdgeThenRemovesTheIsolatedOnes) {
  Topology input;
  for (int i = 0; i < 4; ++i) input.points.push_back({double(i % 2), double(i / 2), 0.0});
  input.triangles = {{0, 1, 2}, {1, 3, 2}};
  input.edges = {{1, 2}, {2, 0}, {0, 1}, {3, 2}, {1, 3}};
  Topology output;
  output.points = input.points;
  output.edges = {{2, 0}, {0, 1}, {3, 2}, {1, 3}};
  MappedTopology mapped =
      StartMappedTopology(TopologyMappingRule::kTriangle2Edge, input, output, false, false);
  const TopologyRemoval removal = RemoveElements(input, TopologyLevel::kTriangle, {0});
  ASSERT_THAT(removal.removed_edges, ElementsAre(2, 1));
  ASSERT_THAT(removal.removed_points, ElementsAre(0));
  FollowRemoval(mapped, input, removal);
  EXPECT_THAT(mapped.topology.edges, ElementsAre(Edge{1, 0}, Edge{1, 2}, Edge{0, 2}));
  EXPECT_THAT(mapped.loc2glob, ElementsAre(2, 0, 1));
}

}  // namespace
}  // namespace fluxion::internal
