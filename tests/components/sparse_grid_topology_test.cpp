// SOFA's SparseGridTopology (components/sparse_grid_topology, mechanics/sparse_grid.cpp) and its
// barycentric mapper: the voxelization of closed surfaces against closed forms (a cube: exact
// cell counts and volumes; an inscribed sphere polyhedron: the inside cells bound its volume from
// below, inside + boundary from above, and the gap shrinks as the cell size), SOFA's point and
// hexahedron numbering worked by hand, the triangle–cell test, and bad input.
#include <gmock/gmock.h>

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fluxion/errors.h"
#include "mechanics/barycentric_weights.h"
#include "mechanics/sparse_grid.h"
#include "mechanics/triangle_box_overlap.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using internal::CellKind;
using internal::VoxelGrid;
using ::testing::ElementsAre;
using testing::ExpectSceneError;
using ::testing::HasSubstr;
using testing::LoadScene;
using Point = std::array<double, 3>;
using Triangle = std::array<Index, 3>;

// The closed surface of the box [lo, hi]³: 8 vertices (bit 0: x, bit 1: y, bit 2: z), 12
// triangles oriented outwards.
struct Mesh {
  std::vector<Point> vertices;
  std::vector<Triangle> triangles;
};

Mesh Cube(double lo, double hi) {
  Mesh mesh;
  for (int v = 0; v < 8; ++v)
    mesh.vertices.push_back({v & 1 ? hi : lo, v & 2 ? hi : lo, v & 4 ? hi : lo});
  const std::array<std::array<Index, 4>, 6> faces = {
      {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}};
  for (const auto& f : faces) {
    mesh.triangles.push_back({f[0], f[1], f[2]});
    mesh.triangles.push_back({f[0], f[2], f[3]});
  }
  return mesh;
}

// An icosahedron subdivided `levels` times, its vertices pushed onto the sphere of radius r
// centred at c: a closed polyhedron inscribed in the ball.
Mesh Icosphere(int levels, double r, const Point& c) {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Point> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                          {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                          {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  std::vector<Triangle> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                             {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                             {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                             {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<Index, Index>, Index> middle;
    const auto mid = [&](Index a, Index b) {
      const auto key = std::minmax(a, b);
      const auto found = middle.find(key);
      if (found != middle.end()) return found->second;
      const auto& p = v[static_cast<std::size_t>(a)];
      const auto& q = v[static_cast<std::size_t>(b)];
      v.push_back({(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2});
      return middle[key] = static_cast<Index>(v.size() - 1);
    };
    std::vector<Triangle> finer;
    for (const auto& tri : f) {
      const Index ab = mid(tri[0], tri[1]), bc = mid(tri[1], tri[2]), ca = mid(tri[2], tri[0]);
      finer.push_back({tri[0], ab, ca});
      finer.push_back({tri[1], bc, ab});
      finer.push_back({tri[2], ca, bc});
      finer.push_back({ab, bc, ca});
    }
    f = std::move(finer);
  }
  for (auto& p : v) {
    const double norm = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (int a = 0; a < 3; ++a) p[a] = c[a] + r * p[a] / norm;
  }
  return {v, f};
}

// The volume a closed, outward-oriented triangle surface encloses (divergence theorem: the sum
// of the signed tetrahedra from the origin).
double EnclosedVolume(const Mesh& mesh) {
  double volume = 0.0;
  for (const auto& t : mesh.triangles) {
    const Point& a = mesh.vertices[static_cast<std::size_t>(t[0])];
    const Point& b = mesh.vertices[static_cast<std::size_t>(t[1])];
    const Point& c = mesh.vertices[static_cast<std::size_t>(t[2])];
    volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0])) /
              6.0;
  }
  return volume;
}

struct Counts {
  long boundary = 0, inside = 0;
};
Counts Count(const std::vector<CellKind>& kinds) {
  Counts counts;
  for (const CellKind kind : kinds) {
    counts.boundary += kind == CellKind::kBoundary;
    counts.inside += kind == CellKind::kInside;
  }
  return counts;
}

// --- The triangle–cell test ---------------------------------------------------------------------

TEST(TriangleMeetsCentredBox, SeparatedByEachKindOfAxisAndTouchingMeets) {
  using internal::TriangleMeetsCentredBox;
  // Inside, and a large triangle through the box with no vertex in it.
  EXPECT_TRUE(TriangleMeetsCentredBox({0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0}, 0.5));
  EXPECT_TRUE(TriangleMeetsCentredBox({-5, -5, 0}, {5, -5, 0}, {0, 5, 0}, 0.5));
  // A face normal separates; touching the face x = ½ meets.
  EXPECT_FALSE(TriangleMeetsCentredBox({0.6, 0, 0}, {1, 0, 0}, {1, 1, 0}, 0.5));
  EXPECT_TRUE(TriangleMeetsCentredBox({0.5, 0, 0}, {1, 0, 0}, {1, 1, 0}, 0.5));
  // The triangle's plane x + y + z = 1.6 separates (the corner reaches 1.5); 1.5 touches it.
  EXPECT_FALSE(TriangleMeetsCentredBox({1.6, 0, 0}, {0, 1.6, 0}, {0, 0, 1.6}, 0.5));
  EXPECT_TRUE(TriangleMeetsCentredBox({1.5, 0, 0}, {0, 1.5, 0}, {0, 0, 1.5}, 0.5));
  // An edge axis: the triangle x + y = 1.1 (standing along z) misses the edge x = y = ½ while
  // its bounding box and plane tests cannot tell (its plane contains the z direction).
  EXPECT_FALSE(TriangleMeetsCentredBox({1.1, 0, -1}, {0, 1.1, -1}, {0.55, 0.55, 1}, 0.5));
  EXPECT_TRUE(TriangleMeetsCentredBox({1.0, 0, -1}, {0, 1.0, -1}, {0.5, 0.5, 1}, 0.5));
  // A degenerate triangle (a segment) through the box, and one beside it.
  EXPECT_TRUE(TriangleMeetsCentredBox({-1, 0, 0}, {1, 0, 0}, {0, 0, 0}, 0.5));
  EXPECT_FALSE(TriangleMeetsCentredBox({-1, 0.6, 0}, {1, 0.6, 0}, {0, 0.6, 0}, 0.5));
}

// --- Voxelization against closed forms ----------------------------------------------------------

TEST(SparseGridVoxelization, CubeCellsAndVolumeAreExact) {
  // The cube [0.2, 0.8]³ in the grid [0, 1]³ of n points per axis (cell h = 1/(n − 1)); no face
  // lies on a grid plane for these n. The surface crosses the cells whose index range along each
  // axis reaches a face: m = ⌊0.8/h⌋ − ⌊0.2/h⌋ + 1 cells per axis are kept, the (m − 2)³ of the
  // middle inside, so the kept volume is m³h³ ≥ 0.216 ≥ (m − 2)³h³.
  const Mesh cube = Cube(0.2, 0.8);
  for (const Index n : {4, 6, 9, 12, 23, 47}) {
    const double h = 1.0 / static_cast<double>(n - 1);
    const VoxelGrid grid{.n = {n, n, n}, .min = {0, 0, 0}, .max = {1, 1, 1}};
    const Counts counts = Count(internal::VoxelizeSurface(grid, cube.vertices, cube.triangles));
    const long m = static_cast<long>(std::floor(0.8 / h) - std::floor(0.2 / h)) + 1;
    EXPECT_EQ(counts.boundary + counts.inside, m * m * m) << n;
    EXPECT_EQ(counts.inside, (m - 2) * (m - 2) * (m - 2)) << n;
    const double cell = h * h * h;
    EXPECT_GE(static_cast<double>(counts.boundary + counts.inside) * cell, 0.216) << n;
    EXPECT_LE(static_cast<double>(counts.inside) * cell, 0.216) << n;
  }
}

TEST(SparseGridVoxelization, SphereVolumeIsBoundedAndTheBoundGapHalvesWithTheCell) {
  // An icosphere of radius 1 (5 subdivisions, 20480 triangles) inscribed in the unit ball: its
  // volume V lies between the inside cells' volume and the kept (inside + boundary) cells'. The
  // gap is the boundary cells' volume ≈ (surface area)·h·c, first order in the cell size h: it
  // must halve (ratio 2, ±15 % for the cell count's discreteness) each time h halves. V itself
  // is 4/3·π·(1 − O(edge²)): within 0.2 % of the ball's for this subdivision.
  const Mesh sphere = Icosphere(5, 1.0, {0.1, -0.2, 0.3});
  const double volume = EnclosedVolume(sphere);
  EXPECT_NEAR(volume, 4.0 / 3.0 * M_PI, 2e-3 * 4.0 / 3.0 * M_PI);
  double previous_gap = 0.0;
  for (const Index cells : {8, 16, 32, 64}) {
    // The grid: SOFA's default box, the mesh's bounding box grown by 1 % per side.
    VoxelGrid grid{.n = {cells + 1, cells + 1, cells + 1}, .min = {}, .max = {}};
    for (int a = 0; a < 3; ++a) {
      double lo = 1e9, hi = -1e9;
      for (const Point& p : sphere.vertices) {
        lo = std::min(lo, p[a]);
        hi = std::max(hi, p[a]);
      }
      grid.min[a] = lo - (hi - lo) / 100;
      grid.max[a] = hi + (hi - lo) / 100;
    }
    double cell = 1.0;
    for (int a = 0; a < 3; ++a) cell *= (grid.max[a] - grid.min[a]) / static_cast<double>(cells);
    const Counts counts = Count(internal::VoxelizeSurface(grid, sphere.vertices, sphere.triangles));
    const double lower = static_cast<double>(counts.inside) * cell;
    const double upper = static_cast<double>(counts.inside + counts.boundary) * cell;
    std::printf("[ info ] %ld³ cells: %ld boundary, %ld inside; %.5f <= V = %.5f <= %.5f\n",
                static_cast<long>(cells), counts.boundary, counts.inside, lower, volume, upper);
    EXPECT_LE(lower, volume) << cells;
    EXPECT_GE(upper, volume) << cells;
    if (previous_gap > 0.0) {
      EXPECT_GT(previous_gap / (upper - lower), 1.7) << cells;
      EXPECT_LT(previous_gap / (upper - lower), 2.3) << cells;
    }
    previous_gap = upper - lower;
  }
}

TEST(SparseGridVoxelization, OpenSurfaceLeaksAndVertexOnlyInputMarksItsCells) {
  // Without its top face the cube's inside is reached by the flood: only the shell is kept.
  Mesh open = Cube(0.2, 0.8);
  open.triangles.resize(10);
  const VoxelGrid grid{.n = {7, 7, 7}, .min = {0, 0, 0}, .max = {1, 1, 1}};
  EXPECT_EQ(Count(internal::VoxelizeSurface(grid, open.vertices, open.triangles)).inside, 0);
  // Points alone (SOFA's position input without elements) mark the cells holding them.
  const Counts points =
      Count(internal::VoxelizeSurface(grid, {{0.1, 0.1, 0.1}, {0.9, 0.5, 0.5}}, {}));
  EXPECT_EQ(points.boundary, 2);
  EXPECT_EQ(points.inside, 0);
}

// --- SOFA's numbering, by hand -----------------------------------------------------------------

// A surface given by data: the box [lo, hi]³.
std::string CubeScene(double lo, double hi, const std::string& grid) {
  const Mesh cube = Cube(lo, hi);
  std::string position, triangles;
  for (const Point& p : cube.vertices)
    for (const double x : p) position += std::to_string(x) + " ";
  for (const Triangle& t : cube.triangles)
    for (const Index v : t) triangles += std::to_string(v) + " ";
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <SparseGridTopology name="grid" )" +
         grid + R"( position=")" + position + R"(" triangles=")" + triangles + R"("/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
</Node>)";
}

class SparseGridScenes : public testing::QuietTest {};

TEST_F(SparseGridScenes, PointsAndHexahedraInSofasOrder) {
  // The cube [0.5, 3.5]³ in the grid [0, 4]³ of 5 points per axis (unit cells): every cell with
  // an index 0 or 3 on some axis is crossed (56), the 8 cells (1..2)³ are inside. All 125 grid
  // points are used, numbered by x, then y, then z: (i, j, k) → 25i + 5j + k (not the regular
  // grid's i + 5j + 25k). Hexahedra: the boundary cells by cell index, then the inside ones.
  const Simulation simulation =
      LoadScene(CubeScene(0.5, 3.5, R"(n="5 5 5" min="0 0 0" max="4 4 4")"));
  const ObjectModel& object = simulation.objects().at(0);
  ASSERT_EQ(object.num_points, 125);
  const Topology& topology = *object.topology;
  ASSERT_EQ(topology.hexahedra.size(), 64u);
  EXPECT_TRUE(topology.edges.empty() && topology.quads.empty() && topology.triangles.empty());
  const auto at = [&](Index i) {
    return Point{object.position[3 * i], object.position[3 * i + 1], object.position[3 * i + 2]};
  };
  EXPECT_EQ(at(31), (Point{1, 1, 1}));
  EXPECT_EQ(at(1), (Point{0, 0, 1}));
  EXPECT_EQ(at(25), (Point{1, 0, 0}));
  // Cell (0, 0, 0), the first boundary cell: corners (0,0,0) (1,0,0) (1,1,0) (0,1,0), then z = 1.
  EXPECT_THAT(topology.hexahedra[0], ElementsAre(0, 25, 30, 5, 1, 26, 31, 6));
  // Cell (1, 0, 0), the second.
  EXPECT_THAT(topology.hexahedra[1], ElementsAre(25, 50, 55, 30, 26, 51, 56, 31));
  // Cell (1, 1, 1), the first inside cell, after the 56 boundary ones.
  EXPECT_THAT(topology.hexahedra[56], ElementsAre(31, 56, 61, 36, 32, 57, 62, 37));
  // SOFA's coefficients (fillWeighted): 0.5 for the boundary cells, 1 inside.
  const SparseGridCells& cells = *topology.sparse_grid;
  EXPECT_EQ(cells.stiffness_coefficients[55], 0.5f);
  EXPECT_EQ(cells.mass_coefficients[56], 1.0f);
}

TEST_F(SparseGridScenes, OnlyTheUsedCornersAreNumbered) {
  // Two separate small cubes in cells 0 and 2 of a 3 × 1 × 1 row of unit cells: cell 1 is
  // outside, so the 16 points are x = 0, 1, then x = 2, 3, each (y, z) = (0,0) (0,1) (1,0) (1,1).
  std::string xml = CubeScene(0.2, 0.8, R"(n="4 2 2" min="0 0 0" max="3 1 1")");
  // The second cube: the same 12 triangles on 8 more vertices shifted by 2 along x.
  const Mesh cube = Cube(0.2, 0.8);
  std::string position, triangles;
  for (int copy = 0; copy < 2; ++copy) {
    for (Point p : cube.vertices) {
      p[0] += 2.0 * copy;
      for (const double x : p) position += std::to_string(x) + " ";
    }
    for (const Triangle& t : cube.triangles)
      for (const Index v : t) triangles += std::to_string(v + 8 * copy) + " ";
  }
  xml.replace(xml.find("position=\""), xml.find("\"/>\n  <Mech") - xml.find("position=\""),
              "position=\"" + position + "\" triangles=\"" + triangles);
  const Simulation simulation = LoadScene(xml);
  const ObjectModel& object = simulation.objects().at(0);
  ASSERT_EQ(object.num_points, 16);
  const Topology& topology = *object.topology;
  ASSERT_EQ(topology.hexahedra.size(), 2u);
  EXPECT_THAT(topology.hexahedra[0], ElementsAre(0, 4, 6, 2, 1, 5, 7, 3));
  EXPECT_THAT(topology.hexahedra[1], ElementsAre(8, 12, 14, 10, 9, 13, 15, 11));
  EXPECT_EQ(object.position[3 * 8], 2.0);

  // SOFA's sparse-grid mapper: a point in a kept cell gets its fractional coordinates there; one
  // in cell 1 (outside) the boundary cell of nearest centre — both centres are 1 away, the first
  // (hexahedron 0) wins — extrapolated: f = (1.5, 0.5, 0.5), so corner 0 weighs
  // (1 − 1.5)(1 − 0.5)(1 − 0.5) = −0.125.
  const std::vector<internal::PointStencil> stencils =
      internal::SparseGridWeights(topology, {{2.25, 0.5, 0.75}, {1.5, 0.5, 0.5}});
  const auto weight = [&](std::size_t point, Index parent) {
    double sum = 0.0;
    for (const auto& [p, w] : stencils[point])
      if (p == parent) sum += w;
    return sum;
  };
  EXPECT_DOUBLE_EQ(weight(0, 8), 0.75 * 0.5 * 0.25);   // corner (2,0,0): (1−fx)(1−fy)(1−fz)
  EXPECT_DOUBLE_EQ(weight(0, 15), 0.25 * 0.5 * 0.75);  // corner (3,1,1): fx·fy·fz
  EXPECT_DOUBLE_EQ(weight(1, 0), -0.125);
  EXPECT_DOUBLE_EQ(weight(1, 4), 1.5 * 0.5 * 0.5);  // corner (1,0,0): fx(1−fy)(1−fz)
}

TEST_F(SparseGridScenes, MapperEqualsTheHexahedronMapperInsideTheCells) {
  // Inside a kept cell the sparse-grid mapper and the hexahedron one (parallelepiped cells) give
  // the same weights (to round-off); they differ only for points outside every cell.
  const Simulation simulation =
      LoadScene(CubeScene(0.5, 3.5, R"(n="5 5 5" min="0 0 0" max="4 4 4")"));
  const Topology& topology = *simulation.objects().at(0).topology;
  std::vector<internal::Point3> points;
  for (int i = 0; i < 40; ++i)
    points.push_back({0.05 + 0.097 * i, 3.9 - 0.093 * i, 0.3 + 0.083 * i});
  const auto sparse = internal::SparseGridWeights(topology, points);
  const auto hexahedra = internal::HexahedronWeights(topology.hexahedra, topology.points, points);
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::map<Index, double> a, b;
    for (const auto& [p, w] : sparse[i]) a[p] += w;
    for (const auto& [p, w] : hexahedra[i]) b[p] += w;
    for (const auto& [p, w] : a) EXPECT_NEAR(w, b[p], 1e-12) << "point " << i << " parent " << p;
  }
}

TEST_F(SparseGridScenes, VirtualFinerLevelsCoarsenAsSofa) {
  // The cube [0.6, 3.4]³ voxelized on 9 points per axis (cells ½), then coarsened once to 5: a
  // coarse cell is kept when any of its 8 children is, inside when all 8 are inside. The fine
  // surface lies in the fine cells 1 and 6 per axis, the fine cells 2..5 are inside, so every
  // coarse cell (0..3 per axis) is kept and the 8 of (1..2)³ are inside: the same 56 + 8 cells as
  // voxelizing on 5 points directly, in the coarsened order (i slowest, k fastest): hexahedron 1
  // is cell (0, 0, 1). Coefficients: the corner cell (0, 0, 0) has one kept child, a boundary
  // one (0.5), of 8 → 0.5/8.
  const Simulation simulation = LoadScene(
      CubeScene(0.6, 3.4, R"(n="5 5 5" min="0 0 0" max="4 4 4" nbVirtualFinerLevels="1")"));
  const Topology& topology = *simulation.objects().at(0).topology;
  ASSERT_EQ(topology.hexahedra.size(), 64u);
  EXPECT_THAT(topology.hexahedra[1], ElementsAre(1, 26, 31, 6, 2, 27, 32, 7));
  EXPECT_FLOAT_EQ(topology.sparse_grid->stiffness_coefficients[0], 0.5f / 8.0f);
  long inside = 0;
  for (const std::uint8_t boundary : topology.sparse_grid->boundary) inside += boundary == 0;
  EXPECT_EQ(inside, 8);
}

// --- Filling coefficients in the hexahedron FEM
// ---------------------------------------------------

// The positions of the single unit cell's 8 corners after 5 implicit steps, keyed by their rest
// coordinates (the sparse grid and the regular grid number them differently): the face z = 0
// fixed, a force along x on the corner (1, 1, 1), gravity along −y.
std::map<std::array<int, 3>, Point> PullOneCell(const std::string& topology,
                                                const std::string& fem) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>
  )" + topology + R"(
  <MechanicalObject name="cell"/>
  )" + fem + R"(
  <BoxROI name="base" box="-0.1 -0.1 -0.1 1.1 1.1 0.1"/>
  <FixedProjectiveConstraint indices="@base.indices"/>
  <BoxROI name="tip" box="0.9 0.9 0.9 1.1 1.1 1.1"/>
  <ConstantForceField indices="@tip.indices" forces="50 0 0"/>
</Node>)");
  for (int step = 0; step < 5; ++step) simulation.Step();
  const ObjectModel& object = simulation.objects().at(0);
  const auto x = simulation.position(0);
  std::map<std::array<int, 3>, Point> corners;
  for (Index i = 0; i < object.num_points; ++i)
    corners[{static_cast<int>(object.rest_position[3 * i]),
             static_cast<int>(object.rest_position[3 * i + 1]),
             static_cast<int>(object.rest_position[3 * i + 2])}] = {x[3 * i], x[3 * i + 1],
                                                                    x[3 * i + 2]};
  return corners;
}

void ExpectSameMotion(const std::map<std::array<int, 3>, Point>& a,
                      const std::map<std::array<int, 3>, Point>& b, double tolerance) {
  ASSERT_EQ(a.size(), 8u);
  ASSERT_EQ(b.size(), 8u);
  for (const auto& [corner, x] : a)
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(x[c], b.at(corner)[c], tolerance) << corner[0] << corner[1] << corner[2];
}

TEST_F(SparseGridScenes, HexahedronFemScalesABoundaryCellByItsFilling) {
  // The cube [0.2, 0.8]³ in a grid of one unit cell: one boundary cell. SOFA scales its element
  // stiffness by getStiffnessCoef (½ with fillWeighted, the default) and, with
  // HexahedronFEMForceFieldAndMass, its mass and weight by getMassCoef (½): the same motion as
  // the regular grid's cell with E/2 (and density/2), and with fillWeighted=0 as the full
  // cell's. Tolerance: both runs solve the same equations to CG's 1e-14, up to round-off.
  const Mesh cube = Cube(0.2, 0.8);
  std::string surface, triangles;
  for (const Point& p : cube.vertices)
    for (const double x : p) surface += std::to_string(x) + " ";
  for (const Triangle& t : cube.triangles)
    for (const Index v : t) triangles += std::to_string(v) + " ";
  const auto grid = [&](const std::string& options) {
    return R"(<SparseGridTopology n="2 2 2" min="0 0 0" max="1 1 1" position=")" + surface +
           R"(" triangles=")" + triangles + "\" " + options + "/>";
  };
  const std::string regular = R"(<RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>)";
  const auto fem = [](const std::string& young) {
    return R"(<UniformMass vertexMass="0.1"/><HexahedronFEMForceField poissonRatio="0.3" youngModulus=")" +
           young + R"("/>)";
  };
  ExpectSameMotion(PullOneCell(grid(""), fem("1000")), PullOneCell(regular, fem("500")), 1e-12);
  ExpectSameMotion(PullOneCell(grid(R"(fillWeighted="0")"), fem("1000")),
                   PullOneCell(regular, fem("1000")), 1e-12);
  const auto and_mass = [](const std::string& young, const std::string& density) {
    return R"(<HexahedronFEMForceFieldAndMass poissonRatio="0.3" youngModulus=")" + young +
           R"(" density=")" + density + R"("/>)";
  };
  ExpectSameMotion(PullOneCell(grid(""), and_mass("1000", "4")),
                   PullOneCell(regular, and_mass("500", "2")), 1e-12);
  // And the coefficient matters: the full cell moves differently.
  const auto full = PullOneCell(regular, fem("1000"));
  const auto half = PullOneCell(grid(""), fem("1000"));
  EXPECT_GT(std::abs(full.at({1, 1, 1})[0] - half.at({1, 1, 1})[0]), 1e-4);
}

// --- Bad input
// ------------------------------------------------------------------------------------

TEST_F(SparseGridScenes, BadInputIsOneClearError) {
  ExpectSceneError(CubeScene(0.5, 3.5, R"(n="1 5 5")"),
                   "expected at least 2 points along each axis");
  ExpectSceneError(
      R"(<Node name="root"><SparseGridTopology fileTopology="no/such/mesh.obj" n="3 3 3"/><MechanicalObject/></Node>)",
      "no/such/mesh.obj");
  ExpectSceneError(
      R"(<Node name="root"><SparseGridTopology fileTopology="mesh/dragon.voxel"/><MechanicalObject/></Node>)",
      "expected a .obj surface mesh");
  ExpectSceneError(R"(<Node name="root"><SparseGridTopology n="3 3 3"/><MechanicalObject/></Node>)",
                   "has neither 'fileTopology' nor 'position'");
  // One triangle: open.
  ExpectSceneError(
      R"(<Node name="root"><SparseGridTopology position="0 0 0 1 0 0 0 1 1" triangles="0 1 2"/><MechanicalObject/></Node>)",
      "is open: its edge 0-1 borders an odd number of faces");
  ExpectSceneError(CubeScene(0.5, 3.5, R"(n="100000 100000 100000")"),
                   "is too large (expected at most");
  ExpectSceneError(CubeScene(0.5, 3.5, R"(n="5 5 5" nbVirtualFinerLevels="14")"), "is too large");
  // The surface lies outside the given box: every vertex is moved into a border cell, which the
  // flood from the border then empties — no cell kept.
  ExpectSceneError(CubeScene(0.5, 3.5, R"(n="5 5 5" min="10 10 10" max="11 11 11")"),
                   "keeps no cell");
  ExpectSceneError(CubeScene(0.5, 3.5, R"(n="5 5 5" min="0 0 0" max="4 0 4")"), "flat along y");
}

}  // namespace
}  // namespace fluxion
