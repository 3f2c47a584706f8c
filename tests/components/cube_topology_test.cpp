// SOFA's CubeTopology (components/cube_topology.cpp): a box's surface grid in SOFA's point
// numbering (the default, internalPoints and splitNormals), its quads oriented outwards and its
// surface edges, checked by hand on a 2×2×2 cube and by counting on 3×3×3 and split cubes.
#include <gmock/gmock.h>

#include <map>
#include <set>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Quad = std::array<Index, 4>;
using Edge = std::array<Index, 2>;
using Point = std::array<double, 3>;

class CubeTopologyTest : public testing::QuietTest {};

Topology Cube(const std::string& attributes) {
  const Simulation simulation = testing::LoadScene(
      R"(<Node name="root" dt="0.1" gravity="0 0 0"><EulerExplicitSolver/>
  <CubeTopology )" +
      attributes + R"(/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
</Node>)");
  return *simulation.objects().at(0).topology;
}

TEST_F(CubeTopologyTest, TwoByTwoByTwoIsTheCubesCornersQuadsAndEdges) {
  const Topology cube = Cube(R"(nx="2" ny="2" nz="2" min="-1 -1 -1" max="1 1 3")");
  // The z = min layer (x + 2y), then the z = max layer.
  EXPECT_THAT(cube.points,
              ElementsAre(Point{-1, -1, -1}, Point{1, -1, -1}, Point{-1, 1, -1}, Point{1, 1, -1},
                          Point{-1, -1, 3}, Point{1, -1, 3}, Point{-1, 1, 3}, Point{1, 1, 3}));
  // Faces z = min, z = max, y = min, y = max, x = min, x = max, each with its normal outwards.
  EXPECT_THAT(cube.quads, ElementsAre(Quad{0, 2, 3, 1}, Quad{4, 5, 7, 6}, Quad{0, 1, 5, 4},
                                      Quad{2, 6, 7, 3}, Quad{0, 4, 6, 2}, Quad{1, 3, 7, 5}));
  // Grid point after grid point (z, then y, then x outermost to innermost), along x, y, z.
  EXPECT_THAT(cube.edges,
              ElementsAre(Edge{0, 1}, Edge{0, 2}, Edge{0, 4}, Edge{1, 3}, Edge{1, 5}, Edge{2, 3},
                          Edge{2, 6}, Edge{3, 7}, Edge{4, 5}, Edge{4, 6}, Edge{5, 7}, Edge{6, 7}));
}

TEST_F(CubeTopologyTest, ThreeCubedHasEveryGridPointButTheCentreOnce) {
  // 27 grid points less the centre: 9 + 9 on the end layers, a ring of 8 in the middle layer
  // (y = 0 row, y = 2 row, x = 0 and x = 2 between).
  const Topology cube = Cube(R"(nx="3" ny="3" nz="3" min="0 0 0" max="2 2 2")");
  ASSERT_EQ(cube.points.size(), 26u);
  EXPECT_THAT(std::vector<Point>(cube.points.begin() + 18, cube.points.end()),
              ElementsAre(Point{0, 0, 1}, Point{1, 0, 1}, Point{2, 0, 1}, Point{0, 2, 1},
                          Point{1, 2, 1}, Point{2, 2, 1}, Point{0, 1, 1}, Point{2, 1, 1}));
  EXPECT_EQ(std::set<Point>(cube.points.begin(), cube.points.end()).size(), 26u);
  // 6 faces of 2×2 quads; 12 cube edges of 2 segments and 6 face middle lines of 2·2 segments.
  EXPECT_EQ(cube.quads.size(), 24u);
  EXPECT_EQ(cube.edges.size(), 12u * 2 + 6 * 4);
  // With internalPoints, every grid point x + 3(y + 3z).
  const Topology full = Cube(R"(nx="3" ny="3" nz="3" internalPoints="1")");
  ASSERT_EQ(full.points.size(), 27u);
  EXPECT_EQ(full.points[13], (Point{0.5, 0.5, 0.5}));
}

TEST_F(CubeTopologyTest, SplitNormalsGivesEachFaceItsOwnPoints) {
  // 6 faces × 4 points: every point belongs to exactly one quad, whose four points share the
  // face's coordinate.
  const Topology cube = Cube(R"(nx="2" ny="2" nz="2" splitNormals="1")");
  ASSERT_EQ(cube.points.size(), 24u);
  ASSERT_EQ(cube.quads.size(), 6u);
  std::map<Index, int> uses;
  for (const Quad& quad : cube.quads) {
    for (const Index v : quad) ++uses[v];
    int shared_axes = 0;
    for (int axis = 0; axis < 3; ++axis) {
      bool same = true;
      for (const Index v : quad) same = same && cube.points[v][axis] == cube.points[quad[0]][axis];
      shared_axes += same ? 1 : 0;
    }
    EXPECT_EQ(shared_axes, 1);
  }
  EXPECT_EQ(uses.size(), 24u);
  for (const auto& [point, count] : uses) EXPECT_EQ(count, 1) << point;
  // The face x = 0 first (y + 2z), then y = 0, z = 0, then x = 1, …
  EXPECT_EQ(cube.quads[4], (Quad{0, 2, 3, 1}));  // x = 0: (0,0,0) (0,0,1) (0,1,1) (0,1,0)
  EXPECT_EQ(cube.points[3], (Point{0, 1, 1}));
}

TEST_F(CubeTopologyTest, SizesAndLegacyCorners) {
  // The legacy xmin … zmax (all six) times scale replace min and max.
  const Topology cube = Cube(
      R"(nx="2" ny="2" nz="2" xmin="0" ymin="0" zmin="0" xmax="1" ymax="2" zmax="3" scale="2")");
  EXPECT_EQ(cube.points.back(), (Point{2, 4, 6}));
  try {
    Cube(R"(nx="1" ny="2" nz="2")");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("CubeTopology has nx=1 ny=2 nz=2 (expected at least 2"));
  }
}

}  // namespace
}  // namespace fluxion
