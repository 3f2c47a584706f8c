// The elements SOFA derives (mechanics/topology_elements.h), against lists worked by hand from
// SOFA's tables and dedup rules (createQuadSetArray, createTriangleSetArray, the mappings' splits)
// and against geometry: border faces point outwards, the 6 tetrahedra of a cube fill it.
//
// The grid used throughout: 2×2×1 hexahedra on [0, 2]×[0, 2]×[0, 1], point i + 3j + 9k at
// (i, j, k); hexahedron (x, y) = (p, p+1, p+4, p+3, p+9, p+10, p+13, p+12) with p = x + 3y, in
// the order (0,0) (1,0) (0,1) (1,1), as RegularGridTopology numbers them.
#include <gmock/gmock.h>

#include <array>
#include <vector>

#include "mechanics/topology_elements.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using Quad = std::array<Index, 4>;
using Triangle = std::array<Index, 3>;
using Tetrahedron = std::array<Index, 4>;
using Edge = std::array<Index, 2>;

std::vector<std::array<Index, 8>> GridHexahedra() {
  std::vector<std::array<Index, 8>> hexahedra;
  for (const Index p : {0, 1, 3, 4})
    hexahedra.push_back({p, p + 1, p + 4, p + 3, p + 9, p + 10, p + 13, p + 12});
  return hexahedra;
}

std::array<double, 3> Point(Index i) {
  return {static_cast<double>(i % 3), static_cast<double>((i / 3) % 3), static_cast<double>(i / 9)};
}

std::array<double, 3> Minus(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
std::array<double, 3> Cross(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double Dot(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Worked by hand: the six faces of each hexahedron in SOFA's face order, rotated to start at
// their smallest vertex; the face shared with an earlier hexahedron (met reversed) is skipped:
// hexahedron 1's face 5 (= quad 3), hexahedron 2's face 2 (= quad 4), hexahedron 3's faces 2
// (= quad 10) and 5 (= quad 13).
const std::vector<Quad> kGridQuads = {
    {0, 3, 4, 1},   {9, 10, 13, 12}, {0, 1, 10, 9},    {1, 4, 13, 10}, {3, 12, 13, 4},
    {0, 9, 12, 3},  {1, 4, 5, 2},    {10, 11, 14, 13}, {1, 2, 11, 10}, {2, 5, 14, 11},
    {4, 13, 14, 5}, {3, 6, 7, 4},    {12, 13, 16, 15}, {4, 7, 16, 13}, {6, 15, 16, 7},
    {3, 12, 15, 6}, {4, 7, 8, 5},    {13, 14, 17, 16}, {5, 8, 17, 14}, {7, 16, 17, 8}};

TEST(TopologyElements, HexahedronFacesInSofaOrder) {
  EXPECT_THAT(HexahedronFaces(GridHexahedra()), ElementsAreArray(kGridQuads));
}

TEST(TopologyElements, BorderQuadsAreFacesOfOneHexahedronAndPointOutwards) {
  const std::vector<int> around = HexahedraAroundQuads(kGridQuads, GridHexahedra());
  ASSERT_EQ(around.size(), 20u);
  for (std::size_t q = 0; q < kGridQuads.size(); ++q) {
    const bool inner = q == 3 || q == 4 || q == 10 || q == 13;
    EXPECT_EQ(around[q], inner ? 2 : 1) << q;
    if (inner) continue;
    // The normal (q1 − q0) × (q2 − q0) points away from the grid's center (1, 1, 0.5).
    const Quad& quad = kGridQuads[q];
    const auto normal =
        Cross(Minus(Point(quad[1]), Point(quad[0])), Minus(Point(quad[2]), Point(quad[0])));
    std::array<double, 3> center{};
    for (const Index v : quad)
      for (int c = 0; c < 3; ++c) center[c] += Point(v)[c] / 4;
    EXPECT_GT(Dot(normal, Minus(center, {1, 1, 0.5})), 0.0) << q;
  }
}

TEST(TopologyElements, SixTetrahedraFillEachHexahedron) {
  const std::vector<Tetrahedron> tetrahedra = SplitHexahedra(GridHexahedra(), false, 2, 2);
  ASSERT_EQ(tetrahedra.size(), 24u);
  // Hexahedron 0 = (0 1 4 3 9 10 13 12) through SOFA's pattern {0,5,1,6} {0,1,3,6} {1,3,6,2}
  // {6,3,0,7} {6,7,0,5} {7,5,4,0}.
  EXPECT_THAT(std::vector<Tetrahedron>(tetrahedra.begin(), tetrahedra.begin() + 6),
              ElementsAre(Tetrahedron{0, 10, 1, 13}, Tetrahedron{0, 1, 3, 13},
                          Tetrahedron{1, 3, 13, 4}, Tetrahedron{13, 3, 0, 12},
                          Tetrahedron{13, 12, 0, 10}, Tetrahedron{12, 10, 9, 0}));
  // Every tetrahedron is positive with volume 1/6 of its unit cube: together they fill it.
  for (const Tetrahedron& t : tetrahedra) {
    const double volume =
        Dot(Cross(Minus(Point(t[1]), Point(t[0])), Minus(Point(t[2]), Point(t[0]))),
            Minus(Point(t[3]), Point(t[0]))) /
        6;
    EXPECT_DOUBLE_EQ(volume, 1.0 / 6.0);
  }
}

TEST(TopologyElements, SwappingMirrorsAlternateHexahedra) {
  // nx = 2, ny = 2 (one layer): hexahedra 0 and 2 (even x) are mirrored along x; 2 and 3 (odd y)
  // along y. Hexahedron 1 is neither: SOFA's plain pattern. Hexahedron 0 mirrored along x is
  // (1 0 3 4 10 9 12 13), split with the mirrored pattern {0,5,6,1} … .
  const std::vector<Tetrahedron> swapped = SplitHexahedra(GridHexahedra(), true, 2, 2);
  const std::vector<Tetrahedron> plain = SplitHexahedra(GridHexahedra(), false, 2, 2);
  EXPECT_EQ(swapped[0], (Tetrahedron{1, 9, 12, 0}));
  EXPECT_EQ(swapped[5], (Tetrahedron{13, 9, 1, 10}));
  for (int k = 6; k < 12; ++k) EXPECT_EQ(swapped[k], plain[k]);
  // Hexahedron 3 mirrored along y only: (7 8 5 4 16 17 14 13), mirrored pattern.
  EXPECT_EQ(swapped[18], (Tetrahedron{7, 17, 14, 8}));
  // Mirrored or not, each is positive with volume 1/6.
  for (const Tetrahedron& t : swapped) {
    const double volume =
        Dot(Cross(Minus(Point(t[1]), Point(t[0])), Minus(Point(t[2]), Point(t[0]))),
            Minus(Point(t[3]), Point(t[0]))) /
        6;
    EXPECT_DOUBLE_EQ(volume, 1.0 / 6.0);
  }
}

TEST(TopologyElements, TetrahedronFemCutsGridHexahedraWithThePlainPatternOnly) {
  // SOFA's TetrahedronFEMForceField init on a grid (nx = ny = 2): the same mirrors as
  // swapping, always applied, then {0,5,1,6} {0,1,3,6} {1,3,6,2} {6,3,0,7} {6,7,0,5} {7,5,4,0}
  // for every cell. Hexahedron 0 mirrored along x is (1 0 3 4 10 9 12 13).
  const std::vector<Tetrahedron> cut = SplitHexahedraAsTetrahedronFem(GridHexahedra(), 2, 2);
  const std::vector<Tetrahedron> plain = SplitHexahedra(GridHexahedra(), false, 2, 2);
  ASSERT_EQ(cut.size(), 24u);
  EXPECT_THAT(
      std::vector<Tetrahedron>(cut.begin(), cut.begin() + 6),
      ElementsAre(Tetrahedron{1, 9, 0, 12}, Tetrahedron{1, 0, 4, 12}, Tetrahedron{0, 4, 12, 3},
                  Tetrahedron{12, 4, 1, 13}, Tetrahedron{12, 13, 1, 9}, Tetrahedron{13, 9, 10, 1}));
  for (int k = 6; k < 12; ++k) EXPECT_EQ(cut[k], plain[k]);  // hexahedron 1: no mirror
  // One mirror (hexahedra 0: x; 3: y) turns every tetrahedron inside out; two (hexahedron 2: x
  // and y) restore it. Each is a sixth of its unit cube either way.
  const double signs[4] = {-1, 1, 1, -1};
  for (std::size_t t = 0; t < cut.size(); ++t) {
    const Tetrahedron& e = cut[t];
    const double volume =
        Dot(Cross(Minus(Point(e[1]), Point(e[0])), Minus(Point(e[2]), Point(e[0]))),
            Minus(Point(e[3]), Point(e[0]))) /
        6;
    EXPECT_DOUBLE_EQ(volume, signs[t / 6] / 6.0) << t;
  }
}

TEST(TopologyElements, TetrahedronFacesInSofaOrder) {
  // The 6 tetrahedra of hexahedron 0; faces {1,2,3} {0,3,2} {1,3,0} {0,2,1} of each, smallest
  // vertex first, a face met reversed skipped: 24 − 6 shared = 18 triangles.
  const std::vector<Tetrahedron> tetrahedra = {{0, 10, 1, 13}, {0, 1, 3, 13},   {1, 3, 13, 4},
                                               {13, 3, 0, 12}, {13, 12, 0, 10}, {12, 10, 9, 0}};
  const std::vector<Triangle> triangles = TetrahedronFaces(tetrahedra);
  EXPECT_THAT(triangles, ElementsAre(Triangle{1, 13, 10}, Triangle{0, 13, 1}, Triangle{0, 10, 13},
                                     Triangle{0, 1, 10}, Triangle{1, 3, 13}, Triangle{0, 13, 3},
                                     Triangle{0, 3, 1}, Triangle{3, 13, 4}, Triangle{1, 4, 13},
                                     Triangle{1, 3, 4}, Triangle{0, 12, 3}, Triangle{0, 13, 12},
                                     Triangle{3, 12, 13}, Triangle{0, 10, 12}, Triangle{10, 13, 12},
                                     Triangle{0, 10, 9}, Triangle{0, 9, 12}, Triangle{9, 10, 12}));
  // Inside the cube: triangles 1, 2, 4, 5, 11, 13 (shared by two tetrahedra). The 12 others lie
  // on the cube's faces, two per face, normals outwards.
  const std::vector<int> around = TetrahedraAroundTriangles(triangles, tetrahedra);
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const bool inner = t == 1 || t == 2 || t == 4 || t == 5 || t == 11 || t == 13;
    EXPECT_EQ(around[t], inner ? 2 : 1) << t;
    if (inner) continue;
    const Triangle& tri = triangles[t];
    const auto normal =
        Cross(Minus(Point(tri[1]), Point(tri[0])), Minus(Point(tri[2]), Point(tri[0])));
    std::array<double, 3> center{};
    for (const Index v : tri)
      for (int c = 0; c < 3; ++c) center[c] += Point(v)[c] / 3;
    EXPECT_GT(Dot(normal, Minus(center, {0.5, 0.5, 0.5})), 0.0) << t;
  }
}

TEST(TopologyElements, QuadSplitsAlternateInACheckerboard) {
  // The 2×2 quads of a 3×3 grid (scale 2): quads 1 and 2 take the other diagonal, so that the
  // four diagonals meet at the center point 4.
  const std::vector<Quad> quads = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
  EXPECT_THAT(
      SplitQuads(quads, true, 2),
      ElementsAre(Triangle{1, 4, 0}, Triangle{3, 0, 4}, Triangle{1, 2, 4}, Triangle{5, 4, 2},
                  Triangle{3, 4, 6}, Triangle{7, 6, 4}, Triangle{5, 8, 4}, Triangle{7, 4, 8}));
  EXPECT_THAT(
      SplitQuads(quads, false, 2),
      ElementsAre(Triangle{1, 4, 0}, Triangle{3, 0, 4}, Triangle{2, 5, 1}, Triangle{4, 1, 5},
                  Triangle{4, 7, 3}, Triangle{6, 3, 7}, Triangle{5, 8, 4}, Triangle{7, 4, 8}));
}

TEST(TopologyElements, CompletedEdgesFollowSofaContainers) {
  // Triangles: edge (v_{j+1}, v_{j+2}) of each, oriented as in the triangle, first one kept.
  Topology surface;
  surface.triangles = {{1, 4, 0}, {3, 0, 4}, {1, 2, 4}, {5, 4, 2},
                       {3, 4, 6}, {7, 6, 4}, {5, 8, 4}, {7, 4, 8}};
  CompleteTopology(surface);
  const std::vector<Edge> edges = {{4, 0}, {0, 1}, {1, 4}, {4, 3}, {3, 0}, {2, 4}, {1, 2}, {2, 5},
                                   {5, 4}, {4, 6}, {6, 3}, {4, 7}, {7, 6}, {8, 4}, {5, 8}, {8, 7}};
  EXPECT_THAT(surface.edges, ElementsAreArray(edges));
  // The border: the 8 edges of one triangle each, in edge order.
  const std::vector<int> around = TrianglesAroundEdges(edges, surface.triangles);
  std::vector<Edge> border;
  for (std::size_t e = 0; e < edges.size(); ++e)
    if (around[e] == 1) border.push_back(edges[e]);
  EXPECT_THAT(border, ElementsAre(Edge{0, 1}, Edge{3, 0}, Edge{1, 2}, Edge{2, 5}, Edge{6, 3},
                                  Edge{7, 6}, Edge{5, 8}, Edge{8, 7}));
  // Quads: the same edges, stored smaller vertex first (SOFA's QuadSetTopologyContainer).
  Topology quads;
  quads.quads = {{0, 3, 4, 1}};
  CompleteTopology(quads);
  EXPECT_THAT(quads.edges, ElementsAre(Edge{3, 4}, Edge{1, 4}, Edge{0, 1}, Edge{0, 3}));
  // Volumes: their faces and their edges (smaller vertex first, SOFA's edge order).
  Topology volume;
  volume.tetrahedra = {{0, 10, 1, 13}};
  CompleteTopology(volume);
  EXPECT_THAT(volume.triangles, ElementsAre(Triangle{1, 13, 10}, Triangle{0, 13, 1},
                                            Triangle{0, 10, 13}, Triangle{0, 1, 10}));
  EXPECT_THAT(volume.edges, ElementsAre(Edge{0, 10}, Edge{0, 1}, Edge{0, 13}, Edge{1, 10},
                                        Edge{10, 13}, Edge{1, 13}));
  EXPECT_TRUE(volume.quads.empty());
}

}  // namespace
}  // namespace fluxion::internal
