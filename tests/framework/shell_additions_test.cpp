// Additions of elements to live shells (mechanics/shell_additions.cpp): on a case worked by hand,
// then against AddElements (mechanics/topology_addition.h: SOFA's addTrianglesProcess and
// addTetrahedronProcess on a copy, what the rebuild uses) over random additions interleaved with
// removals, the shells staying those a fresh Build gives.
#include <gmock/gmock.h>

#include <algorithm>
#include <array>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "mechanics/tetrahedron_shells.h"
#include "mechanics/topology_addition.h"
#include "mechanics/topology_elements.h"
#include "mechanics/topology_removal.h"
#include "mechanics/triangle_shells.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using Edge = std::array<Index, 2>;
using Triangle = std::array<Index, 3>;
using Tetrahedron = std::array<Index, 4>;

std::vector<std::vector<Index>> Elements(const std::vector<Index>& vertices, std::size_t size) {
  std::vector<std::vector<Index>> elements;
  for (std::size_t k = 0; k + size <= vertices.size(); k += size)
    elements.emplace_back(vertices.begin() + static_cast<std::ptrdiff_t>(k),
                          vertices.begin() + static_cast<std::ptrdiff_t>(k + size));
  return elements;
}

// Triangle (0 1 2) with edges E0 (0 1), E1 (1 2), E2 (2 0); adding (1 3 2): side j = 0 (3 2) is
// created as E3, side j = 1 (2 1) is E1, side j = 2 (1 3) is created as E4 — SOFA's order and
// orientation (addTrianglesProcess: sides (t[j+1], t[j+2])).
TEST(ShellAdditions, AddsATriangleAndItsMissingSidesAsSofa) {
  Topology topology;
  for (int p = 0; p < 4; ++p) topology.points.push_back({double(p % 2), double(p / 2), 0.0});
  topology.triangles = {{0, 1, 2}};
  topology.edges = {{0, 1}, {1, 2}, {2, 0}};
  std::optional<TriangleShells> shells = TriangleShells::Build(topology);
  ASSERT_TRUE(shells.has_value());
  ShellAddition done;
  ASSERT_TRUE(shells->Add(topology, std::vector<Index>{1, 3, 2}, done));
  EXPECT_EQ(done.first_added, 1);
  EXPECT_EQ(done.added, 1);
  EXPECT_THAT(done.created_edges, ElementsAre(3, 4));
  EXPECT_THAT(topology.edges,
              ElementsAre(Edge{0, 1}, Edge{1, 2}, Edge{2, 0}, Edge{3, 2}, Edge{1, 3}));
  EXPECT_THAT(topology.triangles, ElementsAre(Triangle{0, 1, 2}, Triangle{1, 3, 2}));
  EXPECT_THAT(shells->EdgesInTriangle(1), ElementsAre(3, 1, 4));
  EXPECT_THAT(shells->TrianglesAroundEdge(1), ElementsAre(0, 1));
  // A vertex that is no point, or repeated, changes nothing.
  EXPECT_FALSE(shells->Add(topology, std::vector<Index>{0, 1, 4}, done));
  EXPECT_FALSE(shells->Add(topology, std::vector<Index>{0, 1, 1}, done));
  EXPECT_EQ(topology.triangles.size(), 2u);
  EXPECT_EQ(topology.edges.size(), 5u);
}

// Random additions of 1 to 3 triangles (cells' second triangles, and copies of existing ones,
// which SOFA appends again) interleaved with removals (some freeing points) on a 6 × 6 grid: the
// topology AddElements and RemoveElements give each time, and shells that stay those of the
// changed topology.
TEST(ShellAdditions, AddsTrianglesAsAddElementsDoes) {
  constexpr int side = 6;
  Topology live;
  for (int p = 0; p < side * side; ++p)
    live.points.push_back({double(p % side), double(p / side), 0});
  for (int j = 0; j + 1 < side; ++j)
    for (int i = 0; i + 1 < side; ++i) {
      const Index p = i + side * j;
      live.triangles.push_back({p, p + 1, p + side + 1});
    }
  CompleteTopology(live);
  std::optional<TriangleShells> shells = TriangleShells::Build(live);
  ASSERT_TRUE(shells.has_value());
  std::mt19937 random(3);
  ShellAddition added;
  ShellRemoval removed;
  int created = 0;
  for (int round = 0; round < 60; ++round) {
    const auto points = static_cast<Index>(live.points.size());
    if (round % 3 == 2 && live.triangles.size() > 4) {
      std::uniform_int_distribution<Index> pick(0, static_cast<Index>(live.triangles.size()) - 1);
      const std::vector<Index> ids = {pick(random), pick(random)};
      const TopologyRemoval reference = RemoveElements(live, TopologyLevel::kTriangle, ids);
      shells->RemoveFreeingPoints(live, ids, removed);
      ASSERT_EQ(live.triangles, reference.topology.triangles) << "round " << round;
      ASSERT_EQ(live.edges, reference.topology.edges) << "round " << round;
      continue;
    }
    std::vector<Index> vertices;
    std::uniform_int_distribution<Index> pick(0, points - 1);
    for (int k = 0; k < 1 + round % 3; ++k) {
      if (k == 1 && !live.triangles.empty()) {  // a copy of an existing triangle
        const Triangle& t =
            live.triangles[static_cast<std::size_t>(pick(random)) % live.triangles.size()];
        vertices.insert(vertices.end(), t.begin(), t.end());
        continue;
      }
      Triangle t{};
      do {
        t = {pick(random), pick(random), pick(random)};
      } while (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]);
      vertices.insert(vertices.end(), t.begin(), t.end());
    }
    const TopologyAddition reference =
        AddElements(live, TopologyLevel::kTriangle, Elements(vertices, 3));
    ASSERT_TRUE(shells->Add(live, vertices, added)) << "round " << round;
    created += static_cast<int>(added.created_edges.size());
    EXPECT_EQ(added.first_added, reference.first_added) << "round " << round;
    ASSERT_EQ(live.triangles, reference.topology.triangles) << "round " << round;
    ASSERT_EQ(live.edges, reference.topology.edges) << "round " << round;
    ASSERT_EQ(added.created_edges.size(), reference.created_edges.size()) << "round " << round;
  }
  EXPECT_GT(created, 10);
  std::optional<TriangleShells> fresh = TriangleShells::Build(live);
  ASSERT_TRUE(fresh.has_value());
  for (Index t = 0; t < static_cast<Index>(live.triangles.size()); ++t)
    EXPECT_EQ(shells->EdgesInTriangle(t), fresh->EdgesInTriangle(t)) << "triangle " << t;
  for (Index v = 0; v < static_cast<Index>(live.points.size()); ++v) {
    std::vector<Index> kept = shells->TrianglesAroundVertex(v);
    std::vector<Index> built = fresh->TrianglesAroundVertex(v);
    std::sort(kept.begin(), kept.end());
    std::sort(built.begin(), built.end());
    EXPECT_EQ(kept, built) << "point " << v;
  }
  for (Index e = 0; e < static_cast<Index>(live.edges.size()); ++e) {
    std::vector<Index> kept = shells->TrianglesAroundEdge(e);
    std::vector<Index> built = fresh->TrianglesAroundEdge(e);
    std::sort(kept.begin(), kept.end());
    std::sort(built.begin(), built.end());
    EXPECT_EQ(kept, built) << "edge " << e;
  }
}

// A bar of `cubes` unit cubes along x, six tetrahedra each, with the triangles and edges SOFA's
// container derives.
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

// Random additions of 1 to 3 tetrahedra on random points (their faces and edges mostly new, some
// shared) interleaved with removals on a bar of cubes: the topology
// AddElements and RemoveElements give each time (faces before edges, in SOFA's order), and
// shells that stay those of the changed topology.
TEST(ShellAdditions, AddsTetrahedraAsAddElementsDoes) {
  Topology live = Bar(4);
  std::optional<TetrahedronShells> shells = TetrahedronShells::Build(live);
  ASSERT_TRUE(shells.has_value());
  ASSERT_TRUE(shells->points_follow());
  std::mt19937 random(7);
  ShellAddition added;
  TetrahedronRemoval removed;
  int created_triangles = 0;
  for (int round = 0; round < 45; ++round) {
    if (round % 3 == 2) {
      std::uniform_int_distribution<Index> pick(0, static_cast<Index>(live.tetrahedra.size()) - 1);
      const std::vector<Index> ids = {pick(random), pick(random)};
      const TopologyRemoval reference = RemoveElements(live, TopologyLevel::kTetrahedron, ids);
      shells->Remove(live, ids, shells->WouldFreePoints(live, ids), removed);
      ASSERT_EQ(live.tetrahedra, reference.topology.tetrahedra) << "round " << round;
      ASSERT_EQ(live.triangles, reference.topology.triangles) << "round " << round;
      ASSERT_EQ(live.edges, reference.topology.edges) << "round " << round;
      continue;
    }
    std::vector<Index> vertices;
    std::uniform_int_distribution<Index> pick(0, static_cast<Index>(live.points.size()) - 1);
    for (int k = 0; k < 1 + round % 3; ++k) {
      if (k == 1) {  // a neighbour of an existing tetrahedron: three of its vertices and a point
        const Tetrahedron& t =
            live.tetrahedra[static_cast<std::size_t>(pick(random)) % live.tetrahedra.size()];
        Index other = pick(random);
        while (std::find(t.begin(), t.end(), other) != t.end()) other = pick(random);
        vertices.insert(vertices.end(), {t[1], t[0], t[2], other});
        continue;
      }
      Tetrahedron t{};
      do {
        t = {pick(random), pick(random), pick(random), pick(random)};
      } while (std::set<Index>(t.begin(), t.end()).size() != 4);
      vertices.insert(vertices.end(), t.begin(), t.end());
    }
    const TopologyAddition reference =
        AddElements(live, TopologyLevel::kTetrahedron, Elements(vertices, 4));
    ASSERT_TRUE(shells->Add(live, vertices, added)) << "round " << round;
    created_triangles += static_cast<int>(added.created_triangles.size());
    ASSERT_EQ(live.tetrahedra, reference.topology.tetrahedra) << "round " << round;
    ASSERT_EQ(live.triangles, reference.topology.triangles) << "round " << round;
    ASSERT_EQ(live.edges, reference.topology.edges) << "round " << round;
    ASSERT_EQ(added.created_edges.size(), reference.created_edges.size()) << "round " << round;
  }
  EXPECT_GT(created_triangles, 20);
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

// A container that lists no triangles (or edges) is not added to here: the caller rebuilds.
TEST(ShellAdditions, ATetrahedronContainerWithoutFacesIsNotAddedTo) {
  Topology topology;
  for (int p = 0; p < 5; ++p) topology.points.push_back({double(p), double(p * p), double(p % 2)});
  topology.tetrahedra = {{0, 1, 2, 3}};
  std::optional<TetrahedronShells> shells = TetrahedronShells::Build(topology);
  ASSERT_TRUE(shells.has_value());
  ShellAddition done;
  EXPECT_FALSE(shells->Add(topology, std::vector<Index>{1, 2, 3, 4}, done));
  EXPECT_EQ(topology.tetrahedra.size(), 1u);
}

}  // namespace
}  // namespace fluxion::internal
