// Removals of tetrahedra followed in place (build/tetrahedron_in_place.h) against the rebuild of
// the scene (build/topology_rebuild.cpp), the reference: FLUXION_TOPOLOGY_REBUILD=1 makes every
// change a rebuild. The body is tests/support/tetra_bar.h's bar of 5 unit cubes along x (point
// (i, j, k) numbered i + 6(j + 2k), cube c holding tetrahedra 6c … 6c + 5), hanging from its end
// x = 5 (points 5, 11, 17, 23) under gravity −y, EulerImplicitSolver with CGLinearSolver run to
// round-off (as SOFA's RemovingTetraProcess.scn runs).
//
// The removals (ids as each line is read: each removed slot takes the tetrahedron then last):
//  t = 0.02: tetrahedra 13 and 14 of cube 2: no point freed (each corner keeps a tetrahedron);
//  t = 0.04: cube 0 (0 … 5) frees its points at x = 0, 18, 12, 6, 0 (descending); the last
//            points take their slots: 23 (fixed, (5, 1, 1)) → 18, 22 → 12, 21 → 6, 20 → 0;
//  t = 0.06: cube 1 (still 6 … 11) frees 19, 13, 7, 1: 19 is then last; 18 (fixed, (5, 1, 1))
//            → 13, 17 (fixed, (5, 0, 1)) → 7, 16 → 1.
// 16 points and 16 tetrahedra remain; the fixed points are then 5, 11, 7 and 13.
#include <gmock/gmock.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "conformance/allocation_counter.h"
#include "fluxion/errors.h"
#include "support/test_support.h"
#include "support/tetra_bar.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class TetrahedronInPlace : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

constexpr const char* kDensityMass = R"(<DiagonalMass name="mass" massDensity="2"/>)";
constexpr const char* kCorotational =
    R"(<TetrahedralCorotationalFEMForceField name="fem" youngModulus="2000" poissonRatio="0.3" method="large"/>)";

// The bar of `cubes` cubes with `mass` and `field`, its end x = cubes held, the process file
// process.txt of the scene's folder.
std::string Bar(int cubes, const std::string& mass, const std::string& field) {
  const auto [points, tetrahedra] = testing::TetraBar(cubes);
  std::string fixed;
  for (const int k : {0, 1})
    for (const int j : {0, 1})
      fixed += std::to_string(testing::TetraBarPoint(cubes, cubes, j, k)) + " ";
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="300" tolerance="1e-14" threshold="1e-30"/>
  <TetrahedronSetTopologyContainer name="topo" position=")" +
         points + R"(" tetrahedra=")" + tetrahedra + R"("/>
  <TetrahedronSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  )" + mass +
         "\n  " + field + R"(
  <FixedProjectiveConstraint name="fix" indices=")" +
         fixed + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
}

void SetRebuild(bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
}

struct RemovalCase {
  const char* name;
  const char* mass;
  const char* field;
  const char* component;  // the field's path, for its stiffness matrix
};

void PrintTo(const RemovalCase& c, std::ostream* out) { *out << c.name; }

class TetrahedronRemoval : public TetrahedronInPlace,
                           public ::testing::WithParamInterface<RemovalCase> {};

TEST_P(TetrahedronRemoval, GivesTheBitsOfTheRebuildAtEveryStep) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() /
      (std::string("fluxion_tetrahedron_in_place_") + GetParam().name);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.02\nREMOVE= 2\n13 14\n"
                                        << "T= 0.04\nREMOVE= 6\n0 1 2 3 4 5\n"
                                        << "T= 0.06\nREMOVE= 6\n6 7 8 9 10 11\n";
  const std::string xml = Bar(5, GetParam().mass, GetParam().field);
  const std::string file = (folder / "bar.scn").string();
  SetRebuild(true);
  Simulation rebuilt = LoadScene(xml, file);
  SetRebuild(false);
  Simulation in_place = LoadScene(xml, file);
  std::filesystem::remove_all(folder);
  int changes = 0, changes_kept = 0;
  constexpr int steps = 15;
  for (int k = 0; k < steps; ++k) {
    const double* before = in_place.position(0).data();
    const std::size_t tetrahedra = in_place.model().objects[0].topology->tetrahedra.size();
    in_place.Step();
    rebuilt.Step();
    if (in_place.model().objects[0].topology->tetrahedra.size() != tetrahedra) {
      ++changes;
      if (in_place.position(0).data() == before) ++changes_kept;
    }
    ASSERT_TRUE(in_place.position(0) == rebuilt.position(0)) << "step " << k + 1;
    ASSERT_TRUE(in_place.velocity(0) == rebuilt.velocity(0)) << "step " << k + 1;
    const Topology& a = *in_place.model().objects[0].topology;
    const Topology& b = *rebuilt.model().objects[0].topology;
    ASSERT_EQ(a.points, b.points) << "step " << k + 1;
    ASSERT_EQ(a.tetrahedra, b.tetrahedra) << "step " << k + 1;
    ASSERT_EQ(a.triangles, b.triangles) << "step " << k + 1;
    ASSERT_EQ(a.edges, b.edges) << "step " << k + 1;
    for (const auto& [component, kind] :
         {std::pair{"root/mass", ComponentMatrixKind::kMass},
          std::pair{GetParam().component, ComponentMatrixKind::kStiffness}}) {
      const SparseMatrix ma = in_place.ComponentMatrix(component, kind);
      const SparseMatrix mb = rebuilt.ComponentMatrix(component, kind);
      ASSERT_EQ(ma.rows(), mb.rows()) << component << " step " << k + 1;
      ASSERT_EQ((ma - mb).norm(), 0.0) << component << " step " << k + 1;
    }
  }
  // The three removals were followed in place: the state kept its buffer (it shrank in place
  // when points went).
  EXPECT_EQ(changes, 3);
  EXPECT_EQ(changes_kept, 3);
  const Topology& topology = *in_place.model().objects[0].topology;
  EXPECT_EQ(topology.tetrahedra.size(), 16u);
  ASSERT_EQ(in_place.position(0).size(), 16 * 3);
  // The held points, renumbered twice (the file comment), are still where they were put.
  const Vector& x = in_place.position(0);
  for (const auto& [point, at] :
       {std::pair{5, Eigen::Vector3d(5, 0, 0)}, std::pair{11, Eigen::Vector3d(5, 1, 0)},
        std::pair{7, Eigen::Vector3d(5, 0, 1)}, std::pair{13, Eigen::Vector3d(5, 1, 1)}})
    EXPECT_TRUE(x.segment<3>(3 * point) == at) << "point " << point;
}

// With the density mass, the mass left is ρ × the volume left: 2 kg/m³ × 16 tetrahedra of 1/6 m³.
TEST_F(TetrahedronInPlace, TheMassLeftIsTheDensityTimesTheVolumeLeft) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_tetrahedron_in_place_mass";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.02\nREMOVE= 2\n13 14\n"
                                        << "T= 0.04\nREMOVE= 6\n0 1 2 3 4 5\n"
                                        << "T= 0.06\nREMOVE= 6\n6 7 8 9 10 11\n";
  Simulation simulation =
      LoadScene(Bar(5, kDensityMass, kCorotational), (folder / "bar.scn").string());
  std::filesystem::remove_all(folder);
  const SparseMatrix before = simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  // Round-off of sums of ~100 terms of size ~0.1: far below 1e-12.
  EXPECT_NEAR(before.sum() / 3.0, 2.0 * 30.0 / 6.0, 1e-12);
  const double* state = simulation.position(0).data();
  for (int k = 0; k < 8; ++k) simulation.Step();
  EXPECT_EQ(simulation.position(0).data(), state);  // in place
  const SparseMatrix after = simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  EXPECT_NEAR(after.sum() / 3.0, 2.0 * 16.0 / 6.0, 1e-12);
  // A vertex of cube 3 at x = 3 (point 3) keeps the tetrahedra of cubes 2 (four of six left)
  // and 3 around it: by hand, Kuhn's six tetrahedra all share the diagonal (0,0,0)–(1,1,1) of
  // their cube and each other corner is in two of them; (3, 0, 0) is cube 3's corner p (in six)
  // and cube 2's corner p + e_x (in the two with a = x: 12 and 13, 13 removed).
  EXPECT_DOUBLE_EQ(after.coeff(3 * 3, 3 * 3), 2.0 * (6.0 + 1.0) / 6.0 / 4.0);
}

// EulerImplicit with CG stays stable after the removals: 150 steps later the bar hangs, every
// coordinate finite and within the bar's length (5 m) of the held end.
TEST_F(TetrahedronInPlace, AnImplicitRunStaysStableAfterTheRemovals) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_tetrahedron_in_place_stable";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.02\nREMOVE= 2\n13 14\n"
                                        << "T= 0.04\nREMOVE= 6\n0 1 2 3 4 5\n";
  Simulation simulation =
      LoadScene(Bar(5, kDensityMass, kCorotational), (folder / "bar.scn").string());
  std::filesystem::remove_all(folder);
  const double* state = simulation.position(0).data();
  for (int k = 0; k < 150; ++k) simulation.Step();
  EXPECT_EQ(simulation.position(0).data(), state);
  const Vector& x = simulation.position(0);
  ASSERT_EQ(x.size(), 20 * 3);
  for (Index p = 0; p < 20; ++p) {
    ASSERT_TRUE(x.segment<3>(3 * p).allFinite());
    EXPECT_LE((x.segment<3>(3 * p) - Eigen::Vector3d(5, 0.5, 0.5)).norm(), 5.0 + std::sqrt(0.5));
  }
  // It sags: the free end (point 0 is (2, 1, 1) since the removal) is below its rest height.
  EXPECT_LT(x[1], 1.0);
}

// A Young's modulus given per tetrahedron stays with its tetrahedron in SOFA and with its index
// in a build: the change goes through the rebuild (the state's buffer replaced).
TEST_F(TetrahedronInPlace, AYoungModulusPerTetrahedronGoesThroughTheRebuild) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_tetrahedron_in_place_per_element";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 2\n7 8\n";
  std::string young;
  for (int t = 0; t < 12; ++t) young += t < 11 ? "2000 " : "3000";
  Simulation simulation =
      LoadScene(Bar(2, kDensityMass,
                    "<TetrahedronFEMForceField name=\"fem\" youngModulus=\"" + young + "\"/>"),
                (folder / "bar.scn").string());
  const double* before = simulation.position(0).data();
  simulation.Step();
  simulation.Step();
  std::filesystem::remove_all(folder);
  EXPECT_EQ(simulation.model().objects[0].topology->tetrahedra.size(), 10u);
  EXPECT_NE(simulation.position(0).data(), before);
}

INSTANTIATE_TEST_SUITE_P(
    Fields, TetrahedronRemoval,
    ::testing::Values(RemovalCase{"corotational_large", kDensityMass, kCorotational, "root/fem"},
                      RemovalCase{"tetrahedron_fem_polar", kDensityMass,
                                  R"(<TetrahedronFEMForceField name="fem" youngModulus="2000"
                                       poissonRatio="0.45" method="polar"/>)",
                                  "root/fem"},
                      RemovalCase{"tetrahedron_fem_small_uniform_mass",
                                  R"(<UniformMass name="mass" vertexMass="0.3"/>)",
                                  R"(<TetrahedronFEMForceField name="fem" youngModulus="2000"
                                       method="small"/>)",
                                  "root/fem"},
                      RemovalCase{"mesh_springs", kDensityMass,
                                  R"(<MeshSpringForceField name="springs" stiffness="500"
                                       damping="0.5"/>)",
                                  "root/springs"}),
    [](const ::testing::TestParamInfo<RemovalCase>& param_info) {
      return std::string(param_info.param.name);
    });

// The ParaView files (scene-runner --vtk) show each removal followed in place: one that frees no
// point changes the topology where it is (no new model), and the files still take their cells
// again — the same counts as the rebuild's files, step by step, falling at each removal.
TEST_F(TetrahedronInPlace, TheParaViewFilesShowEachRemoval) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_tetrahedron_in_place_vtk";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.02\nREMOVE= 2\n13 14\n"
                                        << "T= 0.04\nREMOVE= 2\n15 16\n";
  std::ofstream(folder / "bar.scn") << Bar(5, kDensityMass, kCorotational);
  const auto cells = [&](const std::string& run, const char* environment) {
    const testing::CommandResult result = testing::RunCommand(
        std::string(environment) + " " + testing::SceneRunner() + " " +
        (folder / "bar.scn").string() + " --steps 6 --no-rows --every 1 --output-dir " +
        folder.string() + " --vtk " + (folder / run).string());
    EXPECT_EQ(result.status, 0) << result.err;
    std::vector<std::string> counts;
    for (int step = 0; step <= 6; ++step) {
      std::ifstream vtu(folder / run / ("bar_root_dofs_00000" + std::to_string(step) + ".vtu"));
      std::string line;
      while (std::getline(vtu, line))
        if (const auto at = line.find("NumberOfCells=\""); at != std::string::npos) {
          counts.push_back(line.substr(at, line.find('"', at + 15) - at));
          break;
        }
    }
    return counts;
  };
  const std::vector<std::string> in_place = cells("in_place", "env -u FLUXION_TOPOLOGY_REBUILD");
  const std::vector<std::string> rebuilt = cells("rebuilt", "env FLUXION_TOPOLOGY_REBUILD=1");
  std::filesystem::remove_all(folder);
  ASSERT_EQ(in_place.size(), 7u);
  EXPECT_EQ(in_place, rebuilt);
  // Two removals, two changes of the cells.
  int changes = 0;
  for (std::size_t k = 1; k < in_place.size(); ++k) changes += in_place[k] != in_place[k - 1];
  EXPECT_EQ(changes, 2);
}

// A force field on a topological mapping's output (its own ParaView part) whose last elements go:
// the surface of the bar (Tetra2TriangleTopologicalMapping) carries a TriangularFEMForceField;
// cube 1 goes at 0.02, cube 0 at 0.04. The skin's files go on, with the surface's triangles:
// 20 (a 1 × 1 × 2 box, two per unit square), 12 (one cube), then none — the scene rebuilt without
// elements has no such field, which the writer once took for another scene and stopped.
TEST_F(TetrahedronInPlace, TheParaViewFilesOutliveAMappedFieldsLastElement) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_tetrahedron_mapped_vtk";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.02\nREMOVE= 6\n6 7 8 9 10 11\n"
                                        << "T= 0.04\nREMOVE= 6\n0 1 2 3 4 5\n";
  std::ofstream(folder / "bar.scn") << Bar(2, kDensityMass, std::string(kCorotational) + R"(
  <Node name="surface">
    <TriangleSetTopologyContainer name="Container"/>
    <TriangleSetTopologyModifier/>
    <Tetra2TriangleTopologicalMapping input="@../topo" output="@Container"/>
    <TriangularFEMForceField name="skin" youngModulus="100" poissonRatio="0.3"/>
  </Node>)");
  const testing::CommandResult result =
      testing::RunCommand(testing::SceneRunner() + " " + (folder / "bar.scn").string() +
                          " --steps 6 --no-rows --every 1 --output-dir " + folder.string() +
                          " --vtk " + (folder / "vtk").string());
  EXPECT_EQ(result.status, 0) << result.err;
  std::vector<std::string> cells;
  for (int step = 0; step <= 6; ++step) {
    std::ifstream vtu(folder / "vtk" /
                      ("bar_root_surface_skin_00000" + std::to_string(step) + ".vtu"));
    std::string line;
    while (std::getline(vtu, line))
      if (const auto at = line.find("NumberOfCells=\""); at != std::string::npos) {
        cells.push_back(line.substr(at + 15, line.find('"', at + 15) - at - 15));
        break;
      }
  }
  std::filesystem::remove_all(folder);
  EXPECT_THAT(cells, ::testing::ElementsAre("20", "20", "20", "12", "12", "0", "0"));
}

// Allocations of the step that applies the second removal (the first makes the follow), less
// those of a plain step: the same for a bar of 4 times the tetrahedra, for removals of no point
// (tetrahedra 13 14, then 15 16 of cube 2: each corner keeps a tetrahedron) and for removals
// that free points (cube 0, then cube 1: four points each). The rebuild allocates far more.
TEST_F(TetrahedronInPlace, ARemovalCostsTheSameWhateverTheBarLength) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_tetrahedron_in_place_allocations";
  std::filesystem::create_directories(folder);
  struct Removals {
    const char *name, *first, *second;
    long bound;  // at most this many allocations more than a plain step
  };
  const auto change_allocations = [&](int cubes, const Removals& removals, bool rebuild) {
    std::ofstream(folder / "process.txt") << "T= 0.02\n"
                                          << removals.first << "\nT= 0.04\n"
                                          << removals.second << "\n";
    SetRebuild(rebuild);
    Simulation simulation =
        LoadScene(Bar(cubes, kDensityMass, kCorotational), (folder / "bar.scn").string());
    for (int k = 0; k < 3; ++k) simulation.Step();  // the first removal at t = 0.02
    simulation.Step();                              // t = 0.03: plain
    const double* state = simulation.position(0).data();
    long before = conformance::AllocationCount();
    simulation.Step();  // t = 0.04: the second removal, then the step
    EXPECT_EQ(simulation.position(0).data() == state, !rebuild);
    const long change = conformance::AllocationCount() - before;
    before = conformance::AllocationCount();
    simulation.Step();  // t = 0.05: plain
    const long plain = conformance::AllocationCount() - before;
    return change - plain;
  };
  for (const Removals& removals :
       {Removals{"no_point", "REMOVE= 2\n13 14", "REMOVE= 2\n15 16", 30},
        Removals{"freeing", "REMOVE= 6\n0 1 2 3 4 5", "REMOVE= 6\n6 7 8 9 10 11", 100}}) {
    const long small = change_allocations(5, removals, false);
    const long large = change_allocations(20, removals, false);
    const long rebuilt = change_allocations(5, removals, true);
    RecordProperty(std::string("in_place_5_") + removals.name, std::to_string(small));
    RecordProperty(std::string("in_place_20_") + removals.name, std::to_string(large));
    RecordProperty(std::string("rebuild_5_") + removals.name, std::to_string(rebuilt));
    EXPECT_EQ(small, large) << removals.name;
    EXPECT_LT(small, removals.bound) << removals.name;
    EXPECT_GT(rebuilt, 10 * std::max(small, 1L)) << removals.name;
  }
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace fluxion
