// SOFA's SparseGridRamificationTopology (mechanics/sparse_grid_ramification.cpp): two boxes apart
// in one coarse cell become two hexahedra on the same corners with points of their own (worked
// by hand from SOFA's algorithm), the mapper sends each box's points to its own hexahedron, the
// finest connectivity test separates boxes whose surfaces do not cross the face between their
// cells, and SOFA's segment–triangle test on hand cases.
#include <gmock/gmock.h>

#include <array>
#include <set>
#include <string>
#include <vector>

#include "fluxion/simulation.h"
#include "mechanics/sparse_grid.h"
#include "mechanics/sparse_grid_ramification.h"
#include "sparse_grid_test_meshes.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using sparse_grid_test::Cube;
using sparse_grid_test::Mesh;
using sparse_grid_test::Point;
using testing::LoadScene;

class SparseGridRamification : public testing::QuietTest {};

// The closed surfaces of the boxes [lo, hi] (per axis), one mesh.
Mesh Boxes(const std::vector<std::pair<Point, Point>>& boxes) {
  Mesh mesh;
  for (const auto& [lo, hi] : boxes) {
    const Mesh unit = Cube(0.0, 1.0);
    const auto first = static_cast<Index>(mesh.vertices.size());
    for (const Point& p : unit.vertices)
      mesh.vertices.push_back({lo[0] + p[0] * (hi[0] - lo[0]), lo[1] + p[1] * (hi[1] - lo[1]),
                               lo[2] + p[2] * (hi[2] - lo[2])});
    for (const auto& t : unit.triangles)
      mesh.triangles.push_back({first + t[0], first + t[1], first + t[2]});
  }
  return mesh;
}

// A scene of the surface as data under `topology` (the component's attributes), with a child
// node of points mapped barycentrically.
std::string Scene(const Mesh& mesh, const std::string& topology, const std::string& mapped) {
  std::string position, triangles;
  for (const Point& p : mesh.vertices)
    for (const double x : p) position += std::to_string(x) + " ";
  for (const auto& t : mesh.triangles)
    for (const Index v : t) triangles += std::to_string(v) + " ";
  return R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  <SparseGridRamificationTopology name="grid" )" +
         topology + R"( position=")" + position + R"(" triangles=")" + triangles + R"("/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="1"/>
  <Node name="mapped">
    <MechanicalObject name="points" position=")" +
         mapped + R"("/>
    <BarycentricMapping/>
  </Node>
</Node>)";
}

// Two boxes 4 apart in x: A = [0, 0.5] × [0, 4]², B = [3.5, 4] × [0, 4]². The grid is their box
// grown by 1 %: [−0.04, 4.04]³, so with n = 2 2 2 and two virtual finer levels the finest cells
// are 1.02 wide: A fills the finest cells x = 0, B those at x = 3 (16 boundary cells each), and
// the cells x = 1, 2 between them are empty. The level above (2 × 2 × 2 cells) keeps them apart;
// the top cell holds both parts, which no child connects: two connexions, A's first (its first
// member is child 0).
const Mesh kApart = Boxes({{{0, 0, 0}, {0.5, 4, 4}}, {{3.5, 0, 0}, {4, 4, 4}}});

TEST_F(SparseGridRamification, PartsApartInOneCellAreTwoHexahedraWithPointsOfTheirOwn) {
  Simulation simulation = LoadScene(
      Scene(kApart, R"(n="2 2 2" nbVirtualFinerLevels="2" finestConnectivity="0")", "0.25 2 2"));
  const Topology& t = *simulation.objects().at(0).topology;
  ASSERT_EQ(t.hexahedra.size(), 2u);
  ASSERT_EQ(t.points.size(), 16u);  // SparseGridTopology: 1 hexahedron, 8 points
  // Hexahedron 0 has points 0…7, hexahedron 1 points 8…15 (no face to merge), each on the same
  // corners: (−0.04 or 4.04) per axis, x fastest as SOFA's corner order.
  for (std::size_t h = 0; h < 2; ++h)
    for (std::size_t c = 0; c < 8; ++c) {
      EXPECT_EQ(t.hexahedra[h][c], static_cast<Index>(8 * h + c));
      const Point& p = t.points[8 * h + c];
      const int bits = c == 0   ? 0
                       : c == 1 ? 1
                       : c == 2 ? 3
                       : c == 3 ? 2
                       : c == 4 ? 4
                       : c == 5 ? 5
                       : c == 6 ? 7
                                : 6;
      for (int a = 0; a < 3; ++a)
        EXPECT_NEAR(p[static_cast<std::size_t>(a)], (bits >> a) & 1 ? 4.04 : -0.04, 1e-12);
    }
  // Both boundary; SOFA's coefficient of a ramified cell: its last child's over 8. Each child
  // (a cell of the middle level) holds 4 finest boundary cells of 0.5 (fillWeighted): 2/8.
  const SparseGridCells& cells = *t.sparse_grid;
  EXPECT_EQ(cells.boundary, (std::vector<std::uint8_t>{1, 1}));
  EXPECT_EQ(cells.stiffness_coefficients, (std::vector<float>{0.25f / 8, 0.25f / 8}));
  EXPECT_EQ(cells.mass_coefficients, (std::vector<float>{0.25f / 8, 0.25f / 8}));
}

TEST_F(SparseGridRamification, EachBoxsPointsFollowItsOwnHexahedron) {
  // A mapped point in A and one in B: moving hexahedron 1 (B's) moves only B's point, by as
  // much (the weights of a point sum to 1).
  Simulation simulation =
      LoadScene(Scene(kApart, R"(n="2 2 2" nbVirtualFinerLevels="2" finestConnectivity="0")",
                      "0.25 2 2  3.75 1 3"));
  Vector v = Vector::Zero(48);
  for (int p = 8; p < 16; ++p) v[3 * p] = 1.0;
  simulation.SetVelocity(0, v);
  const int mapped = simulation.FindObject("root/mapped/points");
  ASSERT_GE(mapped, 0);
  const Vector before = simulation.position(mapped);
  simulation.Step();
  const Vector after = simulation.position(mapped);
  EXPECT_NEAR(after[0] - before[0], 0.0, 1e-12);  // A's point
  EXPECT_NEAR(after[3] - before[3], 0.1, 1e-12);  // B's point: v·dt
  EXPECT_NEAR(after[4] - before[4], 0.0, 1e-12);
  EXPECT_NEAR(after[3], 3.85, 1e-12);  // where it was, mapped back exactly, plus 0.1
}

TEST_F(SparseGridRamification, FinestConnectivityTellsTouchingFromApart) {
  // Two finest cells side by side (n = 3 2 2, cells 1.02 wide from −0.02, the face at x = 1),
  // A = [0, a] and B = [b, 2] in x. Apart (a = 0.3, b = 1.7): no surface edge reaches the face,
  // so with finestConnectivity the cells share no point: 16 points (12 without the test).
  // Through (a = 1.5): A's edges along x cross it, the face's 4 points are shared: 12. SOFA's
  // test takes each edge's line from s0 − (s1 − s0) to s1: A = [0, 0.9] has an edge from
  // x = 0.9 to 0, whose line reaches back to 1.8, so it "crosses" the face 0.1 away: 12.
  const auto points = [](double a, double b, const char* finest) {
    const Mesh mesh = Boxes({{{0, 0, 0}, {a, 1, 1}}, {{b, 0, 0}, {2, 1, 1}}});
    Simulation simulation = LoadScene(Scene(
        mesh, std::string(R"(n="3 2 2" finestConnectivity=")") + finest + "\"", "0.2 0.5 0.5"));
    return simulation.objects().at(0).topology->points.size();
  };
  EXPECT_EQ(points(0.3, 1.7, "1"), 16u);
  EXPECT_EQ(points(0.3, 1.7, "0"), 12u);
  EXPECT_EQ(points(1.5, 1.6, "1"), 12u);
  EXPECT_EQ(points(0.9, 1.1, "1"), 12u);
}

TEST(SegmentCrossesTriangle, SofasTestOnHandCases) {
  using internal::SegmentCrossesTriangle;
  const std::array<double, 3> a{0, 0, 0}, b{1, 0, 0}, c{0, 1, 0};
  // Through the triangle's inside, either way.
  EXPECT_TRUE(SegmentCrossesTriangle({0.2, 0.2, -1}, {0.2, 0.2, 1}, a, b, c));
  EXPECT_TRUE(SegmentCrossesTriangle({0.2, 0.2, 1}, {0.2, 0.2, -1}, a, b, c));
  // Outside the triangle (b1 + b2 > 1), and parallel to its plane.
  EXPECT_FALSE(SegmentCrossesTriangle({0.6, 0.6, -1}, {0.6, 0.6, 1}, a, b, c));
  EXPECT_FALSE(SegmentCrossesTriangle({-1, 0.2, 0}, {1, 0.2, 0}, a, b, c));
  // Short of the plane: from z = 0.5 to 0.8 misses it. SOFA's extent is the line between
  // s0 − (s1 − s0) and s1, so from z = 0.5 to 1.2 (reaching back to −0.2) crosses it.
  EXPECT_FALSE(SegmentCrossesTriangle({0.2, 0.2, 0.5}, {0.2, 0.2, 0.8}, a, b, c));
  EXPECT_TRUE(SegmentCrossesTriangle({0.2, 0.2, 0.5}, {0.2, 0.2, 1.2}, a, b, c));
}

}  // namespace
}  // namespace fluxion
