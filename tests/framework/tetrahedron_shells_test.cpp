// SOFA's tetrahedron removal applied in place with live shells (mechanics/tetrahedron_shells.h):
// on two tetrahedra worked by hand, then against RemoveElements (the removal that builds its
// shells anew on a copy, tested in topology_removal_test.cpp against SOFA's steps) over random
// removals from a bar of cubes.
//
// Two tetrahedra sharing the face (1 2 3): T0 (0 1 2 3), T1 (1 2 3 4);
//   triangles F0 (1 2 3), F1 (0 3 2), F2 (1 3 0), F3 (0 2 1), F4 (2 3 4), F5 (1 4 3), F6 (2 4 1);
//   edges E0 (0 1), E1 (0 2), E2 (0 3), E3 (1 2), E4 (1 3), E5 (2 3), E6 (1 4), E7 (2 4),
//   E8 (3 4).
#include <gmock/gmock.h>

#include <algorithm>
#include <array>
#include <optional>
#include <random>
#include <vector>

#include "mechanics/tetrahedron_shells.h"
#include "mechanics/topology_elements.h"
#include "mechanics/topology_removal.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using Edge = std::array<Index, 2>;
using Triangle = std::array<Index, 3>;
using Tetrahedron = std::array<Index, 4>;

Topology TwoTetrahedra() {
  Topology topology;
  for (int p = 0; p < 5; ++p) topology.points.push_back({double(p), double(p * p), double(p % 2)});
  topology.tetrahedra = {{0, 1, 2, 3}, {1, 2, 3, 4}};
  topology.triangles = {{1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1},
                        {2, 3, 4}, {1, 4, 3}, {2, 4, 1}};
  topology.edges = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {1, 4}, {2, 4}, {3, 4}};
  return topology;
}

// Removing T0 by hand: slot 0 takes T1; F1, F2, F3 (T0's alone) go descending, F6, F5, F4 moving
// into slots 3, 2, 1; E2, E1, E0 (on point 0) go, E8, E7, E6 moving into slots 2, 1, 0; point 0
// is freed and takes point 4, renamed everywhere.
TEST(TetrahedronShells, RemovesATetrahedronAndWhatItFreesAsSofa) {
  Topology topology = TwoTetrahedra();
  const std::array<double, 3> last_point = topology.points[4];
  std::optional<TetrahedronShells> shells = TetrahedronShells::Build(topology);
  ASSERT_TRUE(shells.has_value());
  ASSERT_TRUE(shells->points_follow());
  EXPECT_FALSE(shells->WouldFreePoints(topology, std::vector<Index>{}));
  const std::vector<Index> ids = {0};
  EXPECT_TRUE(shells->WouldFreePoints(topology, ids));
  TetrahedronRemoval done;
  shells->Remove(topology, ids, true, done);
  EXPECT_THAT(done.removed_tetrahedra, ElementsAre(0));
  EXPECT_THAT(done.removed_triangles, ElementsAre(3, 2, 1));
  EXPECT_THAT(done.removed_edges, ElementsAre(2, 1, 0));
  EXPECT_THAT(done.removed_points, ElementsAre(0));
  EXPECT_THAT(done.moved_points, ElementsAre(4));
  EXPECT_THAT(topology.tetrahedra, ElementsAre(Tetrahedron{1, 2, 3, 0}));
  EXPECT_THAT(topology.triangles, ElementsAre(Triangle{1, 2, 3}, Triangle{2, 3, 0},
                                              Triangle{1, 0, 3}, Triangle{2, 0, 1}));
  EXPECT_THAT(topology.edges,
              ElementsAre(Edge{1, 0}, Edge{2, 0}, Edge{3, 0}, Edge{1, 2}, Edge{1, 3}, Edge{2, 3}));
  ASSERT_EQ(topology.points.size(), 4u);
  EXPECT_EQ(topology.points[0], last_point);
  EXPECT_THAT(shells->TetrahedraAroundVertex(0), ElementsAre(0));
}

// A triangle in no tetrahedron: a freed point would keep it, so points do not follow here.
TEST(TetrahedronShells, ATriangleInNoTetrahedronStopsPointsFollowing) {
  Topology topology = TwoTetrahedra();
  topology.points.push_back({9.0, 9.0, 9.0});
  topology.triangles.push_back({0, 1, 5});
  std::optional<TetrahedronShells> shells = TetrahedronShells::Build(topology);
  ASSERT_TRUE(shells.has_value());
  EXPECT_FALSE(shells->points_follow());
  // A face missing from the triangles: not followed at all.
  topology = TwoTetrahedra();
  topology.triangles.pop_back();
  EXPECT_FALSE(TetrahedronShells::Build(topology).has_value());
}

// A bar of `cubes` unit cubes along x, six tetrahedra each (tests/support/tetra_bar.h's), with the
// triangles and edges SOFA's container derives.
Topology Bar(int cubes) {
  Topology topology;
  const auto point = [&](int i, int j, int k) { return i + (cubes + 1) * (j + 2 * k); };
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i <= cubes; ++i) topology.points.push_back({double(i), double(j), double(k)});
  constexpr std::array<std::array<int, 3>, 6> kOrders{
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  for (int c = 0; c < cubes; ++c)
    for (const auto& order : kOrders) {
      std::array<int, 3> at = {c, 0, 0};
      Tetrahedron tetrahedron{point(at[0], at[1], at[2]), 0, 0, 0};
      for (std::size_t n = 0; n < 3; ++n) {
        ++at[static_cast<std::size_t>(order[n])];
        tetrahedron[n + 1] = point(at[0], at[1], at[2]);
      }
      topology.tetrahedra.push_back(tetrahedron);
    }
  CompleteTopology(topology);
  return topology;
}

// Random removals of 1 to 6 tetrahedra (some freeing points, some out of range), until few are
// left: RemoveElements' topology and removed lists each time, and shells that stay those of the
// changed bar.
TEST(TetrahedronShells, RemovesAsRemoveElementsDoes) {
  Topology live = Bar(6);
  ASSERT_FALSE(live.triangles.empty());
  ASSERT_FALSE(live.edges.empty());
  std::optional<TetrahedronShells> shells = TetrahedronShells::Build(live);
  ASSERT_TRUE(shells.has_value());
  ASSERT_TRUE(shells->points_follow());
  std::mt19937 random(5);
  TetrahedronRemoval done;
  int freeing = 0, rounds = 0;
  while (live.tetrahedra.size() > 6) {
    std::uniform_int_distribution<Index> pick(0, static_cast<Index>(live.tetrahedra.size()));
    std::vector<Index> ids;
    for (int k = 0; k < 1 + rounds % 6; ++k) ids.push_back(pick(random));
    const TopologyRemoval reference = RemoveElements(live, TopologyLevel::kTetrahedron, ids);
    shells->Remove(live, ids, shells->WouldFreePoints(live, ids), done);
    if (!done.removed_points.empty()) ++freeing;
    EXPECT_EQ(done.removed_tetrahedra, reference.removed_tetrahedra) << "round " << rounds;
    EXPECT_EQ(done.removed_triangles, reference.removed_triangles) << "round " << rounds;
    EXPECT_EQ(done.removed_edges, reference.removed_edges) << "round " << rounds;
    EXPECT_EQ(done.removed_points, reference.removed_points) << "round " << rounds;
    EXPECT_EQ(done.out_of_range, reference.out_of_range) << "round " << rounds;
    ASSERT_EQ(live.tetrahedra, reference.topology.tetrahedra) << "round " << rounds;
    ASSERT_EQ(live.triangles, reference.topology.triangles) << "round " << rounds;
    ASSERT_EQ(live.edges, reference.topology.edges) << "round " << rounds;
    ASSERT_EQ(live.points, reference.topology.points) << "round " << rounds;
    for (std::size_t i = 0; i < done.moved_points.size(); ++i)
      EXPECT_EQ(done.moved_points[i], static_cast<Index>(reference.point_map.size() - 1 - i))
          << "round " << rounds;
    ++rounds;
  }
  EXPECT_GT(freeing, 2);
  std::optional<TetrahedronShells> fresh = TetrahedronShells::Build(live);
  ASSERT_TRUE(fresh.has_value());
  for (Index v = 0; v < static_cast<Index>(live.points.size()); ++v) {
    std::vector<Index> kept = shells->TetrahedraAroundVertex(v);
    std::vector<Index> built = fresh->TetrahedraAroundVertex(v);
    std::sort(kept.begin(), kept.end());
    std::sort(built.begin(), built.end());
    EXPECT_EQ(kept, built) << "point " << v;
  }
  for (Index t = 0; t < static_cast<Index>(live.tetrahedra.size()); ++t)
    EXPECT_EQ(shells->EdgesInTetrahedron(t), fresh->EdgesInTetrahedron(t)) << "tetrahedron " << t;
}

}  // namespace
}  // namespace fluxion::internal
