// SOFA's SparseGridTopology as a scene component (components/sparse_grid_topology.cpp): SOFA's
// point and hexahedron numbering worked by hand, nbVirtualFinerLevels, the sparse-grid mapper of
// BarycentricMapping, the filling coefficients in HexahedronFEMForceField(AndMass), the mesh file
// (cellWidth, the default box, onlyInsideCells) and each bad input as one error line.
#include <gmock/gmock.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fluxion/errors.h"
#include "mechanics/barycentric_weights.h"
#include "mechanics/sparse_grid.h"
#include "sparse_grid_test_meshes.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using sparse_grid_test::Cube;
using sparse_grid_test::Mesh;
using sparse_grid_test::Point;
using sparse_grid_test::Triangle;
using ::testing::ElementsAre;
using testing::ExpectSceneError;
using ::testing::HasSubstr;
using testing::LoadScene;

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

// --- The mesh file -----------------------------------------------------------------------------

// A scene in a fresh folder with the box [lo, hi]³ as `cube.obj`: 8 vertices (bit 0: x, bit 1: y,
// bit 2: z) and 6 quad faces (SOFA fans each into two triangles), plus a line element, which
// SOFA's voxelization skips.
class SparseGridFiles : public testing::QuietTest {
 protected:
  void SetUp() override {
    testing::QuietTest::SetUp();
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    folder_ =
        std::filesystem::path(::testing::TempDir()) /
        ("fluxion_sparse_grid_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override {
    testing::QuietTest::TearDown();
    if (!HasFailure()) std::filesystem::remove_all(folder_);
  }
  void WriteCube(double lo, double hi, bool open = false) {
    std::ofstream obj(folder_ / "cube.obj");
    for (int v = 0; v < 8; ++v)
      obj << "v " << (v & 1 ? hi : lo) << " " << (v & 2 ? hi : lo) << " " << (v & 4 ? hi : lo)
          << "\n";
    obj << "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\n"
        << (open ? "" : "f 2 4 8 6\n") << "l 1 8\n";
  }
  Simulation Load(const std::string& grid) {
    std::ofstream(folder_ / "scene.scn") << R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <SparseGridTopology fileTopology="cube.obj" )" +
                                                grid + R"(/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
</Node>
)";
    return testing::TestHost().LoadFile((folder_ / "scene.scn").string());
  }
  std::filesystem::path folder_;
};

TEST_F(SparseGridFiles, CellWidthSetsTheGridAndQuadsAreFanned) {
  // cellWidth 1 over the box [0, 4]³: n = ⌈4/1⌉ + 1 = 5 per axis, the case worked by hand above.
  WriteCube(0.5, 3.5);
  const Simulation simulation = Load(R"(min="0 0 0" max="4 4 4" cellWidth="1")");
  const Topology& topology = *simulation.objects().at(0).topology;
  EXPECT_EQ(topology.points.size(), 125u);
  ASSERT_EQ(topology.hexahedra.size(), 64u);
  EXPECT_THAT(topology.hexahedra[56], ElementsAre(31, 56, 61, 36, 32, 57, 62, 37));
  // onlyInsideCells keeps the 8 inside cells, their 27 corners.
  const Simulation inside = Load(R"(min="0 0 0" max="4 4 4" cellWidth="1" onlyInsideCells="1")");
  EXPECT_EQ(inside.objects().at(0).topology->hexahedra.size(), 8u);
  EXPECT_EQ(inside.objects().at(0).num_points, 27);
}

TEST_F(SparseGridFiles, DefaultBoxIsTheMeshBoxGrownByOnePercent) {
  // The unit cube's box grown by 0.01 per side: [−0.01, 1.01]³, cells of 0.51 for n = 3; each of
  // the 8 cells holds a corner of the cube, so all are boundary and all 27 points are used, the
  // first at (−0.01, −0.01, −0.01) and the last at (1.01, 1.01, 1.01).
  WriteCube(0.0, 1.0);
  const Simulation simulation = Load(R"(n="3 3 3")");
  const ObjectModel& object = simulation.objects().at(0);
  ASSERT_EQ(object.num_points, 27);
  EXPECT_EQ(object.topology->hexahedra.size(), 8u);
  for (int c = 0; c < 3; ++c) {
    EXPECT_DOUBLE_EQ(object.position[c], -0.01);
    EXPECT_DOUBLE_EQ(object.position[3 * 26 + c], 1.01);
  }
}

TEST_F(SparseGridFiles, OpenMeshFileIsVoxelizedAsSofaWithAWarning) {
  // The cube [0.5, 3.5]³ without its face x = 3.5, on cells of 1 from 0 to 4: the 4 cells
  // (3, 1…2, 1…2) that face crossed are no longer boundary, and the flood from the border enters
  // through them to the 8 inside cells. Kept: the 56 boundary cells less those 4, with a warning
  // (SOFA voxelizes open surfaces so, e.g. its own c.obj).
  WriteCube(0.5, 3.5, /*open=*/true);
  ExpectWarnings(1);
  const Simulation simulation = Load(R"(n="5 5 5" min="0 0 0" max="4 4 4")");
  EXPECT_EQ(simulation.objects().at(0).topology->hexahedra.size(), 52u);
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
