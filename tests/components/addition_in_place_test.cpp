// Additions of triangles and tetrahedra followed in place (build/addition_in_place.h) against the
// rebuild of the scene (build/topology_rebuild.cpp), the reference: FLUXION_TOPOLOGY_REBUILD=1
// makes every change a rebuild.
//
// The cloth is tests/support/cloth_grid.h's on a 7 × 7 grid (point i + 7j at (i, j, 0), cell
// (i, j) cut into (p, p+1, p+8) and (p, p+8, p+7), p = i + 7j) with only the first triangle of
// each cell at the load: every point but 42 (a held corner) is on one. The additions give cells
// their second triangle back: its sides (p+8, p+7), (p+7, p), (p, p+8) are already edges inside
// the cloth, except the left side (p+7, p) of a cell at i = 0 and the top (p+8, p+7) of one at
// j = 5, which SOFA's addTrianglesProcess creates (appended, in the triangle's side order).
//
// The bar is tests/support/tetra_bar.h's of 5 unit cubes (cube c holding tetrahedra 6c … 6c + 5)
// without tetrahedra 13 … 16 of cube 2 at the load (every point still on a tetrahedron: cube 2
// keeps its first and last); the additions put them back, creating the faces and edges they need.
#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "conformance/allocation_counter.h"
#include "support/cloth_grid.h"
#include "support/test_support.h"
#include "support/tetra_bar.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class AdditionInPlace : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

void SetRebuild(bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
}

constexpr const char* kImplicit =
    R"(<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="300" tolerance="1e-14" threshold="1e-30"/>)";
constexpr const char* kDensityMass = R"(<DiagonalMass name="mass" massDensity="2"/>)";
constexpr const char* kMembrane =
    R"(<TriangularFEMForceField name="fem" youngModulus="2000" poissonRatio="0.3" method="large"/>)";

// The cloth of `side` points per side with the first triangle of each cell, hanging from its top
// corners, and the triangles of the cells (i, j) listed, as text.
// With `jitter`, each point moved off the grid by a few centimetres (deterministically), so that
// the elements' areas differ and the order of the masses' sums shows in their bits.
std::string Cloth(int side, const std::string& mass, const std::string& field, bool jitter = false,
                  const std::string& solver = kImplicit) {
  std::string points, triangles;
  for (int p = 0; p < side * side; ++p) {
    const double dx = jitter ? 0.03 * ((p * 7) % 5) : 0.0, dy = jitter ? 0.02 * ((p * 3) % 7) : 0.0;
    const double dz = jitter ? 0.05 * ((p * 5) % 3) : 0.0;
    points += std::to_string(p % side + dx) + " " + std::to_string(p / side + dy) + " " +
              std::to_string(dz) + "  ";
  }
  for (int j = 0; j + 1 < side; ++j)
    for (int i = 0; i + 1 < side; ++i) {
      const int p = i + side * j;
      for (const int v : {p, p + 1, p + side + 1}) triangles += std::to_string(v) + " ";
    }
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  )" + solver +
         R"(
  <TriangleSetTopologyContainer name="topo" position=")" +
         points + R"(" triangles=")" + triangles + R"("/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  )" + mass +
         "\n  " + field + R"(
  <FixedProjectiveConstraint name="fix" indices=")" +
         std::to_string(side * side - side) + " " + std::to_string(side * side - 1) + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
}

// The second triangle (p, p+side+1, p+side) of each cell (i, j) listed, as an ADD= line's
// indices.
std::string SecondTriangles(int side, std::initializer_list<std::pair<int, int>> cells) {
  std::string text;
  for (const auto& [i, j] : cells) {
    const int p = i + side * j;
    for (const int v : {p, p + side + 1, p + side}) text += std::to_string(v) + " ";
  }
  return text;
}

// The bar of `cubes` cubes without tetrahedra `missing` (ascending), with `mass` and `field`, its
// end x = cubes held; and the vertices of the missing ones, in order.
struct Bar {
  std::string xml, missing_vertices;
};
Bar TetraBarWithout(int cubes, const std::vector<int>& missing, const std::string& mass,
                    const std::string& field) {
  const auto [grid, tetrahedra] = testing::TetraBar(cubes);
  // Each point moved off the grid by a few centimetres (deterministically), so that the
  // tetrahedra's volumes differ and the order of the masses' sums shows in their bits.
  std::istringstream coordinates(grid);
  std::string points;
  int n = 0;
  for (double c = 0.0; coordinates >> c; ++n)
    points += std::to_string(c + 0.02 * ((n * 7) % 5)) + (n % 3 == 2 ? "  " : " ");
  std::istringstream all(tetrahedra);
  std::string kept, removed;
  int index = 0;
  for (std::array<int, 4> t{}; all >> t[0] >> t[1] >> t[2] >> t[3]; ++index) {
    std::string& into =
        std::find(missing.begin(), missing.end(), index) != missing.end() ? removed : kept;
    for (const int v : t) into += std::to_string(v) + " ";
  }
  std::string fixed;
  for (const int k : {0, 1})
    for (const int j : {0, 1})
      fixed += std::to_string(testing::TetraBarPoint(cubes, cubes, j, k)) + " ";
  return {R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  )" + std::string(kImplicit) +
              R"(
  <TetrahedronSetTopologyContainer name="topo" position=")" +
              points + R"(" tetrahedra=")" + kept + R"("/>
  <TetrahedronSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  )" + mass + "\n  " +
              field + R"(
  <FixedProjectiveConstraint name="fix" indices=")" +
              fixed + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)",
          removed};
}

// The first `n` elements' worth of `vertices` words, and the rest.
std::pair<std::string, std::string> SplitWordsAt(const std::string& vertices, int words) {
  std::istringstream in(vertices);
  std::string first, rest, word;
  for (int k = 0; in >> word; ++k) (k < words ? first : rest) += word + " ";
  return {first, rest};
}

struct BothRuns {
  Simulation in_place, rebuilt;
  std::filesystem::path folder;
};

// Both runs of `xml` with process file `process`.
BothRuns LoadBoth(const std::string& name, const std::string& xml, const std::string& process) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("fluxion_addition_in_place_" + name);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << process;
  const std::string file = (folder / "scene.scn").string();
  SetRebuild(true);
  Simulation rebuilt = LoadScene(xml, file);
  SetRebuild(false);
  Simulation in_place = LoadScene(xml, file);
  std::filesystem::remove_all(folder);
  return {std::move(in_place), std::move(rebuilt), folder};
}

// Steps both runs `steps` times, comparing x, v, the topology and the components' M and K bit
// for bit after every step; returns how many steps changed the element count in place with the
// state's buffer kept (no rebuild).
int StepBoth(BothRuns& run, int steps, const std::vector<std::string>& stiffness_components) {
  int kept = 0;
  for (int k = 0; k < steps; ++k) {
    const double* before = run.in_place.position(0).data();
    const Topology& t0 = *run.in_place.model().objects[0].topology;
    const std::size_t elements = t0.triangles.size() + t0.tetrahedra.size();
    run.in_place.Step();
    run.rebuilt.Step();
    const Topology& a = *run.in_place.model().objects[0].topology;
    const Topology& b = *run.rebuilt.model().objects[0].topology;
    if (a.triangles.size() + a.tetrahedra.size() != elements &&
        run.in_place.position(0).data() == before)
      ++kept;
    EXPECT_TRUE(run.in_place.position(0) == run.rebuilt.position(0)) << "step " << k + 1;
    EXPECT_TRUE(run.in_place.velocity(0) == run.rebuilt.velocity(0)) << "step " << k + 1;
    EXPECT_EQ(a.points, b.points) << "step " << k + 1;
    EXPECT_EQ(a.edges, b.edges) << "step " << k + 1;
    EXPECT_EQ(a.triangles, b.triangles) << "step " << k + 1;
    EXPECT_EQ(a.tetrahedra, b.tetrahedra) << "step " << k + 1;
    std::vector<std::pair<std::string, ComponentMatrixKind>> matrices = {
        {"root/mass", ComponentMatrixKind::kMass}};
    for (const std::string& c : stiffness_components)
      matrices.emplace_back(c, ComponentMatrixKind::kStiffness);
    for (const auto& [component, kind] : matrices) {
      const SparseMatrix ma = run.in_place.ComponentMatrix(component, kind);
      const SparseMatrix mb = run.rebuilt.ComponentMatrix(component, kind);
      EXPECT_EQ(ma.rows(), mb.rows()) << component << " step " << k + 1;
      if (ma.rows() == mb.rows()) {
        EXPECT_EQ((ma - mb).norm(), 0.0) << component << " step " << k + 1;
      }
    }
    if (::testing::Test::HasFailure()) break;
  }
  return kept;
}

// --- Triangles -----------------------------------------------------------------------------------

struct TriangleCase {
  const char* name;
  const char* mass;
  const char* field;
};

void PrintTo(const TriangleCase& c, std::ostream* out) { *out << c.name; }

class TriangleAddition : public AdditionInPlace,
                         public ::testing::WithParamInterface<TriangleCase> {};

TEST_P(TriangleAddition, GivesTheBitsOfTheRebuildAtEveryStep) {
  constexpr int side = 7;
  const std::string process =
      "T= 0.02\nADD= Triangles 3\n" + SecondTriangles(side, {{2, 2}, {0, 1}, {3, 5}}) +
      "\nT= 0.04\nADD= Triangles 2\n" + SecondTriangles(side, {{0, 2}, {4, 0}}) +
      "\nT= 0.06\nADD= Triangles 1\n" + SecondTriangles(side, {{5, 5}}) + "\n";
  BothRuns run =
      LoadBoth(GetParam().name, Cloth(side, GetParam().mass, GetParam().field, true), process);
  ASSERT_EQ(run.in_place.model().objects[0].topology->triangles.size(), 36u);
  const std::size_t edges = run.in_place.model().objects[0].topology->edges.size();
  EXPECT_EQ(StepBoth(run, 12, {"root/fem"}), 3);  // the three additions, in place
  const Topology& topology = *run.in_place.model().objects[0].topology;
  EXPECT_EQ(topology.triangles.size(), 42u);
  // Created: the left sides of cells (0, 1) and (0, 2), the tops of cells (3, 5) and (5, 5).
  EXPECT_EQ(topology.edges.size(), edges + 4);
  // Cell (0, 1)'s second triangle (7, 15, 14): side j = 1 (14, 7) created (SOFA's orientation).
  EXPECT_EQ(topology.triangles[37], (std::array<Index, 3>{7, 15, 14}));
  EXPECT_THAT(topology.edges, ::testing::Contains(std::array<Index, 2>{14, 7}));
}

INSTANTIATE_TEST_SUITE_P(
    Fields, TriangleAddition,
    ::testing::Values(TriangleCase{"membrane_large", kDensityMass, kMembrane},
                      TriangleCase{"membrane_small_uniform_mass",
                                   R"(<UniformMass name="mass" vertexMass="0.3"/>)",
                                   R"(<TriangularFEMForceField name="fem" youngModulus="2000"
                                        poissonRatio="0.45" method="small"/>)"},
                      TriangleCase{"membrane_optim", kDensityMass,
                                   R"(<TriangularFEMForceFieldOptim name="fem" youngModulus="2000"
                                        poissonRatio="0.3" restScale="0.97"/>)"}),
    [](const ::testing::TestParamInfo<TriangleCase>& param_info) {
      return std::string(param_info.param.name);
    });

// Additions and removals in one run go through the same live shells: an addition, a removal that
// takes an added triangle and frees point 0 (on triangle 0 alone; the last point, 48, held, takes
// its number), then an addition again — all in place, with the rebuild's bits.
TEST_F(AdditionInPlace, AdditionsAndRemovalsFollowEachOther) {
  constexpr int side = 7;
  const std::string process = "T= 0.02\nADD= Triangles 2\n" +
                              SecondTriangles(side, {{2, 2}, {0, 1}}) +
                              "\nT= 0.04\nREMOVE= 2\n0 37\nT= 0.06\nADD= Triangles 2\n" +
                              SecondTriangles(side, {{3, 3}, {1, 0}}) + "\n";
  BothRuns run = LoadBoth("mixed", Cloth(side, kDensityMass, kMembrane, true), process);
  EXPECT_EQ(StepBoth(run, 10, {"root/fem"}), 3);
  const Topology& topology = *run.in_place.model().objects[0].topology;
  EXPECT_EQ(topology.triangles.size(), 36u + 2 - 2 + 2);
  EXPECT_EQ(topology.points.size(), 48u);
  // Cell (1, 0)'s second triangle (1, 9, 8) was added after the removal: point numbers as they
  // were (only point 48 was renamed, to 0).
  EXPECT_EQ(topology.triangles.back(), (std::array<Index, 3>{1, 9, 8}));
}

// DiagonalMass by density 2 kg/m²: each triangle of area 1/2 m² gives 1/3 kg to each of its
// vertices. Point 7 = (0, 1) is on one triangle at the load (cell (0, 1)'s first) and on three
// after cells (0, 0) and (0, 1) get their second: 1/3 kg, then 1 kg; the total goes from
// 2 × 36 / 2 = 36 kg to 2 × 38 / 2 = 38 kg.
TEST_F(AdditionInPlace, TheMassOfANewTriangleIsItsDensityTimesItsArea) {
  constexpr int side = 7;
  BothRuns run =
      LoadBoth("mass", Cloth(side, kDensityMass, kMembrane),
               "T= 0.02\nADD= Triangles 2\n" + SecondTriangles(side, {{0, 0}, {0, 1}}) + "\n");
  const SparseMatrix before = run.in_place.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  EXPECT_NEAR(before.sum() / 3.0, 36.0, 1e-12);
  EXPECT_DOUBLE_EQ(before.coeff(3 * 7, 3 * 7), 1.0 / 3.0);
  const double* state = run.in_place.position(0).data();
  for (int k = 0; k < 4; ++k) run.in_place.Step();
  EXPECT_EQ(run.in_place.position(0).data(), state);  // in place
  const SparseMatrix after = run.in_place.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  EXPECT_NEAR(after.sum() / 3.0, 38.0, 1e-12);
  EXPECT_DOUBLE_EQ(after.coeff(3 * 7, 3 * 7), 1.0);
  EXPECT_DOUBLE_EQ(after.coeff(3 * 7 + 2, 3 * 7 + 2), 1.0);
}

// A component that does not follow an addition in place (MeshSpringForceField: springs on the
// created edges) sends it through the rebuild: the state's buffer is replaced.
TEST_F(AdditionInPlace, MeshSpringsGoThroughTheRebuild) {
  constexpr int side = 5;
  BothRuns run = LoadBoth(
      "springs",
      Cloth(side, kDensityMass, R"(<MeshSpringForceField name="springs" stiffness="100"/>)"),
      "T= 0.01\nADD= Triangles 1\n" + SecondTriangles(side, {{0, 0}}) + "\n");
  const double* before = run.in_place.position(0).data();
  run.in_place.Step();
  run.in_place.Step();
  EXPECT_EQ(run.in_place.model().objects[0].topology->triangles.size(), 17u);
  EXPECT_NE(run.in_place.position(0).data(), before);
}

// A direct solver builds the system's matrix pattern, which an addition does not grow in place
// (each new coupling an insertion into compressed storage, and the analysis redone): the
// addition goes through the rebuild (the state's buffer replaced), which gives the new triangle.
TEST_F(AdditionInPlace, ADirectSolversPatternGoesThroughTheRebuild) {
  constexpr int side = 5;
  BothRuns run = LoadBoth(
      "direct",
      Cloth(
          side, kDensityMass, kMembrane, false,
          R"(<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/><SparseLDLSolver/>)"),
      "T= 0.01\nADD= Triangles 1\n" + SecondTriangles(side, {{1, 1}}) + "\n");
  run.in_place.Step();
  const double* before = run.in_place.position(0).data();
  run.in_place.Step();
  EXPECT_EQ(run.in_place.model().objects[0].topology->triangles.size(), 17u);
  EXPECT_NE(run.in_place.position(0).data(), before);
}

// --- Tetrahedra ----------------------------------------------------------------------------------

constexpr const char* kCorotational =
    R"(<TetrahedralCorotationalFEMForceField name="fem" youngModulus="2000" poissonRatio="0.3" method="large"/>)";

struct TetrahedronCase {
  const char* name;
  const char* mass;
  const char* field;
};

void PrintTo(const TetrahedronCase& c, std::ostream* out) { *out << c.name; }

class TetrahedronAddition : public AdditionInPlace,
                            public ::testing::WithParamInterface<TetrahedronCase> {};

TEST_P(TetrahedronAddition, GivesTheBitsOfTheRebuildAtEveryStep) {
  const Bar bar = TetraBarWithout(5, {13, 14, 15, 16}, GetParam().mass, GetParam().field);
  const auto [first, second] = SplitWordsAt(bar.missing_vertices, 8);
  BothRuns run = LoadBoth(
      GetParam().name, bar.xml,
      "T= 0.02\nADD= Tetrahedra 2\n" + first + "\nT= 0.04\nADD= Tetrahedra 2\n" + second + "\n");
  const Topology& start = *run.in_place.model().objects[0].topology;
  ASSERT_EQ(start.tetrahedra.size(), 26u);
  const std::size_t triangles = start.triangles.size(), edges = start.edges.size();
  EXPECT_EQ(StepBoth(run, 8, {"root/fem"}), 2);
  const Topology& topology = *run.in_place.model().objects[0].topology;
  EXPECT_EQ(topology.tetrahedra.size(), 30u);
  // Kuhn's cube has 18 faces inside or on it and 19 edges; the bar at the load lacks the inner
  // faces and edges only tetrahedra 13 … 16 held: all came back.
  EXPECT_GT(topology.triangles.size(), triangles);
  EXPECT_GE(topology.edges.size(), edges);
}

INSTANTIATE_TEST_SUITE_P(
    Fields, TetrahedronAddition,
    ::testing::Values(TetrahedronCase{"corotational_large", kDensityMass, kCorotational},
                      TetrahedronCase{"tetrahedron_fem_polar", kDensityMass,
                                      R"(<TetrahedronFEMForceField name="fem" youngModulus="2000"
                                           poissonRatio="0.45" method="polar"/>)"},
                      TetrahedronCase{"tetrahedron_fem_small_uniform_mass",
                                      R"(<UniformMass name="mass" vertexMass="0.3"/>)",
                                      R"(<TetrahedronFEMForceField name="fem" youngModulus="2000"
                                           poissonRatio="0.3" method="small"/>)"}),
    [](const ::testing::TestParamInfo<TetrahedronCase>& param_info) {
      return std::string(param_info.param.name);
    });

// The same on the bar: an addition, the removal of cube 0 (its points at x = 0 freed, the last
// points 23, 22, 21, 20 taking numbers 18, 12, 6, 0), then the addition of two tetrahedra of cube
// 2 written with the new numbers.
TEST_F(AdditionInPlace, TetrahedronAdditionsAndRemovalsFollowEachOther) {
  const Bar bar = TetraBarWithout(5, {13, 14, 15, 16}, kDensityMass, kCorotational);
  auto [first, second] = SplitWordsAt(bar.missing_vertices, 8);
  std::istringstream words(second);
  std::string renamed;
  for (int v = 0; words >> v;)
    renamed += std::to_string(v == 20 ? 0 : v == 21 ? 6 : v == 22 ? 12 : v == 23 ? 18 : v) + " ";
  BothRuns run = LoadBoth("mixed_tetrahedra", bar.xml,
                          "T= 0.02\nADD= Tetrahedra 2\n" + first +
                              "\nT= 0.04\nREMOVE= 6\n0 1 2 3 4 5\nT= 0.06\nADD= Tetrahedra 2\n" +
                              renamed + "\n");
  EXPECT_EQ(StepBoth(run, 8, {"root/fem"}), 3);
  const Topology& topology = *run.in_place.model().objects[0].topology;
  EXPECT_EQ(topology.tetrahedra.size(), 26u + 2 - 6 + 2);
  EXPECT_EQ(topology.points.size(), 20u);
}

// A removal that frees points, on the irregular bar: the vertices of the tetrahedra moved into
// the removed slots are numbered as after the removal, those of the removed ones as before it,
// so the points' renaming must come between the two (a vertex moved into a freed point's number,
// whose tetrahedra changed order, once lost its new mass sum: 22 → 12 here, one ulp off).
TEST_F(AdditionInPlace, ARemovalFreeingPointsOnAnIrregularBarGivesTheRebuildsBits) {
  const Bar bar = TetraBarWithout(5, {13, 14, 15, 16}, kDensityMass, kCorotational);
  BothRuns run = LoadBoth("freeing", bar.xml, "T= 0.04\nREMOVE= 6\n0 1 2 3 4 5\n");
  EXPECT_EQ(StepBoth(run, 7, {"root/fem"}), 1);
  EXPECT_EQ(run.in_place.model().objects[0].topology->points.size(), 20u);
}

// The same on the irregular cloth: triangles 0, 1 and 7 (the first of cells (0, 0), (1, 0) and
// (1, 1)) free points 1 and 0, the last points 48 and 47 taking their numbers.
TEST_F(AdditionInPlace, ARemovalFreeingPointsOnAnIrregularClothGivesTheRebuildsBits) {
  BothRuns run = LoadBoth("freeing_cloth", Cloth(7, kDensityMass, kMembrane, true),
                          "T= 0.04\nREMOVE= 3\n0 1 7\n");
  EXPECT_EQ(StepBoth(run, 7, {"root/fem"}), 1);
  EXPECT_EQ(run.in_place.model().objects[0].topology->points.size(), 47u);
}

// EulerImplicit with CG stays stable after the additions: 150 steps later the bar hangs, every
// coordinate finite and within the bar's length (5 m) of the held end, its free end sagging.
TEST_F(AdditionInPlace, AnImplicitRunStaysStableAfterTheAdditions) {
  const Bar bar = TetraBarWithout(5, {13, 14, 15, 16}, kDensityMass, kCorotational);
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_addition_in_place_stable";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.02\nADD= Tetrahedra 4\n"
                                        << bar.missing_vertices << "\n";
  Simulation simulation = LoadScene(bar.xml, (folder / "bar.scn").string());
  std::filesystem::remove_all(folder);
  const double* state = simulation.position(0).data();
  for (int k = 0; k < 150; ++k) simulation.Step();
  EXPECT_EQ(simulation.position(0).data(), state);
  EXPECT_EQ(simulation.model().objects[0].topology->tetrahedra.size(), 30u);
  const Vector& x = simulation.position(0);
  for (Index p = 0; p < x.size() / 3; ++p) {
    ASSERT_TRUE(x.segment<3>(3 * p).allFinite());
    EXPECT_LE((x.segment<3>(3 * p) - Eigen::Vector3d(5, 0.5, 0.5)).norm(), 5.0 + std::sqrt(0.5));
  }
  EXPECT_LT(x[1], 0.0);  // point 0, (0, 0, 0) at rest, sags
}

// Allocations of the step that applies the second addition (the first makes the follower),
// less those of a plain step: the same for a body of about 4 times the elements, and far fewer
// than the rebuild's. The additions are the same few elements at the same place of the body.
TEST_F(AdditionInPlace, AnAdditionCostsTheSameWhateverTheBodySize) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_addition_in_place_allocations";
  std::filesystem::create_directories(folder);
  const auto change_allocations = [&](const std::string& xml, const std::string& process,
                                      bool rebuild) {
    std::ofstream(folder / "process.txt") << process;
    SetRebuild(rebuild);
    Simulation simulation = LoadScene(xml, (folder / "scene.scn").string());
    for (int k = 0; k < 3; ++k) simulation.Step();  // the first addition at t = 0.02
    simulation.Step();                              // t = 0.03: plain
    const double* state = simulation.position(0).data();
    long before = conformance::AllocationCount();
    simulation.Step();  // t = 0.04: the second addition, then the step
    EXPECT_EQ(simulation.position(0).data() == state, !rebuild);
    const long change = conformance::AllocationCount() - before;
    before = conformance::AllocationCount();
    simulation.Step();  // t = 0.05: plain
    const long plain = conformance::AllocationCount() - before;
    return change - plain;
  };
  const auto cloth = [&](int side, bool rebuild) {
    return change_allocations(Cloth(side, kDensityMass, kMembrane),
                              "T= 0.02\nADD= Triangles 1\n" + SecondTriangles(side, {{1, 1}}) +
                                  "\nT= 0.04\nADD= Triangles 1\n" +
                                  SecondTriangles(side, {{2, 1}}) + "\n",
                              rebuild);
  };
  const auto bar = [&](int cubes, bool rebuild) {
    const Bar b = TetraBarWithout(cubes, {13, 14, 15, 16}, kDensityMass, kCorotational);
    const auto [first, second] = SplitWordsAt(b.missing_vertices, 8);
    return change_allocations(
        b.xml,
        "T= 0.02\nADD= Tetrahedra 2\n" + first + "\nT= 0.04\nADD= Tetrahedra 2\n" + second + "\n",
        rebuild);
  };
  const long cloth_small = cloth(7, false), cloth_large = cloth(13, false);
  const long cloth_rebuilt = cloth(7, true);
  const long bar_small = bar(5, false), bar_large = bar(20, false), bar_rebuilt = bar(5, true);
  std::filesystem::remove_all(folder);
  RecordProperty("cloth_in_place_7", std::to_string(cloth_small));
  RecordProperty("cloth_in_place_13", std::to_string(cloth_large));
  RecordProperty("cloth_rebuild_7", std::to_string(cloth_rebuilt));
  RecordProperty("bar_in_place_5", std::to_string(bar_small));
  RecordProperty("bar_in_place_20", std::to_string(bar_large));
  RecordProperty("bar_rebuild_5", std::to_string(bar_rebuilt));
  EXPECT_EQ(cloth_small, cloth_large);
  EXPECT_EQ(bar_small, bar_large);
  EXPECT_LT(cloth_small, 60);
  EXPECT_LT(bar_small, 60);
  EXPECT_GT(cloth_rebuilt, 10 * std::max(cloth_small, 1L));
  EXPECT_GT(bar_rebuilt, 10 * std::max(bar_small, 1L));
}

}  // namespace
}  // namespace fluxion
