// SOFA's removal of quads, hexahedra and tetrahedra applied in place with live shells written once
// over the element kind (mechanics/element_shells.h): on two quads worked by hand, then against
// RemoveElements (the removal that builds its shells anew on a copy, tested in
// topology_removal_test.cpp against SOFA's steps) over random removals from a quad sheet, a
// hexahedral bar and a tetrahedral bar; the tetrahedra also against TetrahedronShells, the
// shells the tetrahedron follower uses.
//
// Two quads sharing the edge (1 4): Q0 (0 1 4 3), Q1 (1 2 5 4) on points 0 1 2 (y = 0) and
// 3 4 5 (y = 1); edges E0 (0 1), E1 (1 4), E2 (3 4), E3 (0 3), E4 (1 2), E5 (2 5), E6 (4 5).
#include <gmock/gmock.h>

#include <algorithm>
#include <array>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "mechanics/element_shells.h"
#include "mechanics/tetrahedron_shells.h"
#include "mechanics/topology_addition.h"
#include "mechanics/topology_elements.h"
#include "mechanics/topology_removal.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using Edge = std::array<Index, 2>;
using Quad = std::array<Index, 4>;

Topology TwoQuads() {
  Topology topology;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) topology.points.push_back({double(i), double(j), 0.0});
  topology.quads = {{0, 1, 4, 3}, {1, 2, 5, 4}};
  topology.edges = {{0, 1}, {1, 4}, {3, 4}, {0, 3}, {1, 2}, {2, 5}, {4, 5}};
  return topology;
}

// Removing Q0 by hand: slot 0 takes Q1; E3, E2, E0 (Q0's alone; E1 keeps Q1) go descending, E6,
// E5, E4 moving into slots 3, 2, 0 (edges (1 2) (1 4) (2 5) (4 5)); points 3 and 0 are freed
// (descending): 3 takes point 5, then 0 takes point 4, renamed everywhere: quad (1 2 3 0),
// edges (1 2) (1 0) (2 3) (0 3), the quad's edges 0 2 3 1 (its sides (1 2) (2 3) (3 0) (0 1)).
TEST(ElementShells, RemovesAQuadAndWhatItFreesAsSofa) {
  Topology topology = TwoQuads();
  std::optional<QuadShells> shells = QuadShells::Build(topology);
  ASSERT_TRUE(shells.has_value());
  EXPECT_TRUE(shells->points_follow());
  EXPECT_THAT(shells->ElementsAroundEdge(1), testing::UnorderedElementsAre(0, 1));
  const std::vector<Index> ids = {0};
  EXPECT_TRUE(shells->WouldFreePoints(topology, ids));
  ElementRemoval done;
  shells->Remove(topology, ids, true, done);
  EXPECT_THAT(done.removed_elements, ElementsAre(0));
  EXPECT_THAT(done.removed_edges, ElementsAre(3, 2, 0));
  EXPECT_THAT(done.removed_points, ElementsAre(3, 0));
  EXPECT_THAT(done.moved_points, ElementsAre(5, 4));
  EXPECT_THAT(topology.quads, ElementsAre(Quad{1, 2, 3, 0}));
  EXPECT_THAT(topology.edges, ElementsAre(Edge{1, 2}, Edge{1, 0}, Edge{2, 3}, Edge{0, 3}));
  ASSERT_EQ(topology.points.size(), 4u);
  EXPECT_EQ(topology.points[0], (std::array<double, 3>{1, 1, 0}));
  EXPECT_EQ(topology.points[3], (std::array<double, 3>{2, 1, 0}));
  EXPECT_THAT(shells->EdgesInElement(0), ElementsAre(0, 2, 3, 1));
}

// An edge in no quad (E7 (0 5), as a grid's diagonal) goes with a freed point it is on, as
// RemoveElements removes it; another kind of element, or a quad side missing from the edges, is
// not these shells'.
TEST(ElementShells, AnEdgeInNoQuadGoesWithItsFreedPoint) {
  Topology topology = TwoQuads();
  topology.edges.push_back({0, 5});
  std::optional<QuadShells> shells = QuadShells::Build(topology);
  ASSERT_TRUE(shells.has_value());
  EXPECT_TRUE(shells->points_follow());
  EXPECT_THAT(shells->BareEdgesAroundVertex(5), ElementsAre(7));
  const std::vector<Index> ids = {0};
  const TopologyRemoval reference = RemoveElements(topology, TopologyLevel::kQuad, ids);
  ElementRemoval done;
  shells->Remove(topology, ids, true, done);
  EXPECT_THAT(done.removed_edges, ElementsAre(7, 3, 2, 0));
  EXPECT_EQ(done.removed_edges, reference.removed_edges);
  EXPECT_EQ(topology.edges, reference.topology.edges);
  EXPECT_EQ(topology.quads, reference.topology.quads);
  EXPECT_TRUE(shells->BareEdgesAroundVertex(3).empty());  // point 5, moved into slot 3
  topology = TwoQuads();
  topology.triangles.push_back({0, 1, 4});  // another kind: not these shells'
  EXPECT_FALSE(QuadShells::Build(topology).has_value());
  topology.triangles.clear();
  topology.edges.pop_back();  // a quad side missing from the edges
  EXPECT_FALSE(QuadShells::Build(topology).has_value());
}

// A sheet of nx × ny quads (points i + (nx + 1) j) and a bar of n hexahedra (SOFA's vertex
// order, points i + (n + 1)(j + 2k)), completed as SOFA's containers complete them.
Topology Sheet(int nx, int ny) {
  Topology topology;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) topology.points.push_back({double(i), double(j), 0.0});
  const auto p = [&](int i, int j) { return static_cast<Index>(i + (nx + 1) * j); };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      topology.quads.push_back({p(i, j), p(i + 1, j), p(i + 1, j + 1), p(i, j + 1)});
  CompleteTopology(topology);
  return topology;
}

Topology HexahedralBar(int n) {
  Topology topology;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i <= n; ++i) topology.points.push_back({double(i), double(j), double(k)});
  const auto p = [&](int i, int j, int k) { return static_cast<Index>(i + (n + 1) * (j + 2 * k)); };
  for (int i = 0; i < n; ++i)
    topology.hexahedra.push_back({p(i, 0, 0), p(i + 1, 0, 0), p(i + 1, 1, 0), p(i, 1, 0),
                                  p(i, 0, 1), p(i + 1, 0, 1), p(i + 1, 1, 1), p(i, 1, 1)});
  CompleteTopology(topology);
  return topology;
}

Topology TetrahedralBar(int cubes) {
  Topology topology = HexahedralBar(cubes);
  topology.quads.clear();
  topology.edges.clear();
  std::vector<std::array<Index, 4>> tetrahedra;
  for (const auto& h : topology.hexahedra)
    for (const std::array<int, 4>& t : std::array<std::array<int, 4>, 6>{
             {{0, 5, 1, 6}, {0, 1, 3, 6}, {1, 3, 6, 2}, {6, 3, 0, 7}, {6, 7, 0, 5}, {7, 5, 4, 0}}})
      tetrahedra.push_back({h[t[0]], h[t[1]], h[t[2]], h[t[3]]});
  topology.hexahedra.clear();
  topology.tetrahedra = tetrahedra;
  CompleteTopology(topology);
  return topology;
}

template <class Shape>
auto& ElementsOf(Topology& topology) {
  return topology.*Shape::kElements;
}

// Random removals of 1 to 4 elements (some freeing points, some out of range) until few are
// left: RemoveElements' topology and removed lists each time, and shells that stay those of the
// changed mesh (built again at the end).
template <class Shape>
void RemovesAsRemoveElementsDoes(Topology live, TopologyLevel level, TopologyLevel face_level,
                                 unsigned seed) {
  using Shells = ElementShells<Shape>;
  std::optional<Shells> shells = Shells::Build(live);
  ASSERT_TRUE(shells.has_value());
  ASSERT_TRUE(shells->points_follow());
  // The tetrahedra: the follower's own shells go the same way.
  std::optional<TetrahedronShells> tetrahedron_shells;
  if (level == TopologyLevel::kTetrahedron) tetrahedron_shells = TetrahedronShells::Build(live);
  Topology twin = live;
  std::mt19937 random(seed);
  ElementRemoval done;
  TetrahedronRemoval twin_done;
  int freeing = 0, rounds = 0;
  while (ElementsOf<Shape>(live).size() > 3) {
    std::uniform_int_distribution<Index> pick(0,
                                              static_cast<Index>(ElementsOf<Shape>(live).size()));
    std::vector<Index> ids;
    for (int k = 0; k < 1 + rounds % 4; ++k) ids.push_back(pick(random));
    const TopologyRemoval reference = RemoveElements(live, level, ids);
    const bool frees = shells->WouldFreePoints(live, ids);
    EXPECT_EQ(frees, !reference.removed_points.empty()) << "round " << rounds;
    shells->Remove(live, ids, frees, done);
    if (!done.removed_points.empty()) ++freeing;
    const std::string round = "round " + std::to_string(rounds);
    EXPECT_EQ(done.removed_elements, reference.removed(level)) << round;
    if (face_level != TopologyLevel::kPoint) {
      EXPECT_EQ(done.removed_faces, reference.removed(face_level)) << round;
    }
    EXPECT_EQ(done.removed_edges, reference.removed_edges) << round;
    EXPECT_EQ(done.removed_points, reference.removed_points) << round;
    EXPECT_EQ(done.out_of_range, reference.out_of_range) << round;
    ASSERT_EQ(live.quads, reference.topology.quads) << round;
    ASSERT_EQ(live.hexahedra, reference.topology.hexahedra) << round;
    ASSERT_EQ(live.tetrahedra, reference.topology.tetrahedra) << round;
    ASSERT_EQ(live.triangles, reference.topology.triangles) << round;
    ASSERT_EQ(live.edges, reference.topology.edges) << round;
    ASSERT_EQ(live.points, reference.topology.points) << round;
    for (std::size_t i = 0; i < done.moved_points.size(); ++i)
      EXPECT_EQ(done.moved_points[i], static_cast<Index>(reference.point_map.size() - 1 - i))
          << round;
    if (tetrahedron_shells) {
      tetrahedron_shells->Remove(twin, ids, frees, twin_done);
      ASSERT_EQ(twin.tetrahedra, live.tetrahedra) << round;
      ASSERT_EQ(twin.triangles, live.triangles) << round;
      ASSERT_EQ(twin.edges, live.edges) << round;
      EXPECT_EQ(twin_done.moved_points, done.moved_points) << round;
    }
    ++rounds;
  }
  EXPECT_GT(freeing, 2);
  std::optional<Shells> fresh = Shells::Build(live);
  ASSERT_TRUE(fresh.has_value());
  for (Index v = 0; v < static_cast<Index>(live.points.size()); ++v) {
    std::vector<Index> kept = shells->ElementsAroundVertex(v);
    std::vector<Index> built = fresh->ElementsAroundVertex(v);
    std::sort(kept.begin(), kept.end());
    std::sort(built.begin(), built.end());
    EXPECT_EQ(kept, built) << "point " << v;
  }
  for (Index e = 0; e < static_cast<Index>(live.edges.size()); ++e) {
    std::vector<Index> kept = shells->ElementsAroundEdge(e);
    std::vector<Index> built = fresh->ElementsAroundEdge(e);
    std::sort(kept.begin(), kept.end());
    std::sort(built.begin(), built.end());
    EXPECT_EQ(kept, built) << "edge " << e;
  }
  for (Index t = 0; t < static_cast<Index>(ElementsOf<Shape>(live).size()); ++t)
    EXPECT_EQ(shells->EdgesInElement(t), fresh->EdgesInElement(t)) << "element " << t;
  for (Index v = 0; v < static_cast<Index>(live.points.size()); ++v) {
    std::vector<Index> kept = shells->BareEdgesAroundVertex(v);
    std::vector<Index> built = fresh->BareEdgesAroundVertex(v);
    std::sort(kept.begin(), kept.end());
    std::sort(built.begin(), built.end());
    EXPECT_EQ(kept, built) << "point " << v;
  }
}

TEST(ElementShells, RemovesQuadsAsRemoveElementsDoes) {
  RemovesAsRemoveElementsDoes<QuadShape>(Sheet(6, 5), TopologyLevel::kQuad, TopologyLevel::kPoint,
                                         3);
}

// Each quad's diagonal (q0 q2) appended to the edges: edges in no element, as a
// RegularGridTopology gives a hexahedron container (its triangulation's).
Topology WithDiagonals(Topology topology) {
  for (const auto& q : topology.quads) topology.edges.push_back({q[0], q[2]});
  return topology;
}

TEST(ElementShells, RemovesQuadsAndBareEdgesAsRemoveElementsDoes) {
  RemovesAsRemoveElementsDoes<QuadShape>(WithDiagonals(Sheet(6, 5)), TopologyLevel::kQuad,
                                         TopologyLevel::kPoint, 5);
}

TEST(ElementShells, RemovesHexahedraAndBareEdgesAsRemoveElementsDoes) {
  RemovesAsRemoveElementsDoes<HexahedronShape>(
      WithDiagonals(HexahedralBar(12)), TopologyLevel::kHexahedron, TopologyLevel::kQuad, 13);
}

TEST(ElementShells, RemovesHexahedraAsRemoveElementsDoes) {
  Topology bar = HexahedralBar(16);
  ASSERT_EQ(bar.quads.size(), 16u * 4u + 17u);
  RemovesAsRemoveElementsDoes<HexahedronShape>(bar, TopologyLevel::kHexahedron,
                                               TopologyLevel::kQuad, 7);
}

TEST(ElementShells, RemovesTetrahedraAsRemoveElementsAndTetrahedronShellsDo) {
  RemovesAsRemoveElementsDoes<TetrahedronShape>(TetrahedralBar(5), TopologyLevel::kTetrahedron,
                                                TopologyLevel::kTriangle, 11);
}

// Removals that free no point and additions of removed elements back (ElementShells::Add), in
// turn: AddElements' and RemoveElements' topologies each time (the faces and edges an addition
// creates in SOFA's order), and shells that stay those of the changed mesh (built again at the
// end); an element already there, or a vertex repeated, is refused with nothing changed.
template <class Shape>
void AddsAsAddElementsDoes(Topology live, TopologyLevel level, unsigned seed) {
  using Shells = ElementShells<Shape>;
  std::optional<Shells> shells = Shells::Build(live);
  ASSERT_TRUE(shells.has_value());
  std::mt19937 random(seed);
  ElementRemoval done;
  ElementAddition added;
  std::vector<std::vector<Index>> removed;  // the removed elements' vertices
  int additions = 0, created_edges = 0;
  for (int round = 0; round < 40; ++round) {
    const std::string name = "round " + std::to_string(round);
    if (round % 3 != 2 || removed.empty()) {
      std::uniform_int_distribution<Index> pick(
          0, static_cast<Index>(ElementsOf<Shape>(live).size()) - 1);
      const std::vector<Index> ids = {pick(random)};
      if (shells->WouldFreePoints(live, ids)) continue;
      const auto& element = ElementsOf<Shape>(live)[static_cast<std::size_t>(ids[0])];
      removed.emplace_back(element.begin(), element.end());
      const TopologyRemoval reference = RemoveElements(live, level, ids);
      shells->Remove(live, ids, false, done);
      ASSERT_EQ(live.quads, reference.topology.quads) << name;
      ASSERT_EQ(live.hexahedra, reference.topology.hexahedra) << name;
      ASSERT_EQ(live.edges, reference.topology.edges) << name;
      continue;
    }
    std::vector<std::vector<Index>> back = {removed.back()};
    removed.pop_back();
    if (!removed.empty() && round % 2 == 0) {
      back.push_back(removed.back());
      removed.pop_back();
    }
    std::vector<Index> vertices;
    for (const auto& element : back)
      vertices.insert(vertices.end(), element.begin(), element.end());
    const TopologyAddition reference = AddElements(live, level, back);
    ASSERT_TRUE(shells->Add(live, vertices, added)) << name;
    ++additions;
    created_edges += static_cast<int>(added.created_edges.size());
    EXPECT_EQ(added.first_added, reference.first_added) << name;
    EXPECT_EQ(added.added, reference.added) << name;
    EXPECT_EQ(added.created_edges.size(), reference.created_edges.size()) << name;
    ASSERT_EQ(live.quads, reference.topology.quads) << name;
    ASSERT_EQ(live.hexahedra, reference.topology.hexahedra) << name;
    ASSERT_EQ(live.edges, reference.topology.edges) << name;
    // Refused: the same element again, a vertex repeated (nothing changes).
    const Topology before = live;
    EXPECT_FALSE(shells->Add(live, vertices, added)) << name;
    std::vector<Index> repeated = back.front();
    repeated[1] = repeated[0];
    EXPECT_FALSE(shells->Add(live, repeated, added)) << name;
    ASSERT_EQ(live.quads, before.quads) << name;
    ASSERT_EQ(live.hexahedra, before.hexahedra) << name;
    ASSERT_EQ(live.edges, before.edges) << name;
  }
  EXPECT_GE(additions, 8);
  EXPECT_GT(created_edges, 0);
  std::optional<Shells> fresh = Shells::Build(live);
  ASSERT_TRUE(fresh.has_value());
  const auto same = [](std::vector<Index> a, std::vector<Index> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
  };
  for (Index v = 0; v < static_cast<Index>(live.points.size()); ++v) {
    EXPECT_TRUE(same(shells->ElementsAroundVertex(v), fresh->ElementsAroundVertex(v))) << v;
    EXPECT_TRUE(same(shells->BareEdgesAroundVertex(v), fresh->BareEdgesAroundVertex(v))) << v;
  }
  for (Index e = 0; e < static_cast<Index>(live.edges.size()); ++e)
    EXPECT_TRUE(same(shells->ElementsAroundEdge(e), fresh->ElementsAroundEdge(e))) << e;
  for (Index t = 0; t < static_cast<Index>(ElementsOf<Shape>(live).size()); ++t) {
    EXPECT_EQ(shells->EdgesInElement(t), fresh->EdgesInElement(t)) << t;
    if constexpr (Shells::kFaces != 0) {
      EXPECT_EQ(shells->FacesInElement(t), fresh->FacesInElement(t)) << t;
    }
  }
  for (Index f = 0; f < static_cast<Index>(live.quads.size()) && Shells::kFaces != 0; ++f)
    EXPECT_TRUE(same(shells->ElementsAroundFace(f), fresh->ElementsAroundFace(f))) << f;
}

TEST(ElementShells, AddsQuadsAsAddElementsDoes) {
  AddsAsAddElementsDoes<QuadShape>(Sheet(6, 5), TopologyLevel::kQuad, 17);
}

TEST(ElementShells, AddsQuadsOnBareEdgesAsAddElementsDoes) {
  AddsAsAddElementsDoes<QuadShape>(WithDiagonals(Sheet(6, 5)), TopologyLevel::kQuad, 19);
}

TEST(ElementShells, AddsHexahedraAsAddElementsDoes) {
  AddsAsAddElementsDoes<HexahedronShape>(HexahedralBar(12), TopologyLevel::kHexahedron, 23);
}

}  // namespace
}  // namespace fluxion::internal
