// The mechanics on a Tetra2TriangleTopologicalMapping's surface followed in place
// (build/mapped_child_in_place.h): a TriangularFEMForceField, TriangularBendingSprings and a
// TriangleCollisionModel in the child node, acting on the parent's MechanicalObject with the
// child's triangles (SOFA's RemovingTetra2TriangleProcess*.scn, AddingTetra2TriangleProcess.scn).
// The body is tests/support/tetra_bar.h's bar of unit cubes along x (point (i, j, k) numbered
// i + (cubes + 1)(j + 2k), cube c holding tetrahedra 6c … 6c + 5); its surface is the boundary
// of the cubes left, two triangles per unit square.
#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "conformance/allocation_counter.h"
#include "fluxion/node_topologies.h"
#include "support/test_support.h"
#include "support/tetra_bar.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class MappedChildMechanics : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

void SetRebuild(bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
}

constexpr const char* kCorotational =
    R"(<TetrahedralCorotationalFEMForceField name="fem" youngModulus="2000" poissonRatio="0.3" method="large"/>)";
constexpr const char* kMembrane =
    R"(<TriangularFEMForceField name="membrane" youngModulus="60" poissonRatio="0.3" method="large"/>)";
constexpr const char* kBending =
    R"(<TriangularBendingSprings name="bending" stiffness="300" damping="1"/>)";
constexpr const char* kCollision =
    R"(<TriangleCollisionModel name="skin" contactStiffness="200"/>)";

// The bar of `cubes` cubes (node "bar", its end x = cubes held) with `field` on the tetrahedra,
// gravity `gravity`, a child node "surface" holding the mapping's output (the mapping given
// `mapping`) and `surface`; with `floor`, a collision pipeline and static points under the bar's
// bottom (y = −0.03, one under each cube) that the surface's triangles meet. Process file
// process.txt.
std::string Bar(int cubes, const std::string& field, const std::string& surface,
                const std::string& gravity, const std::string& mapping = "", bool floor = false) {
  const auto [points, tetrahedra] = testing::TetraBar(cubes);
  std::string fixed;
  for (const int k : {0, 1})
    for (const int j : {0, 1})
      fixed += std::to_string(testing::TetraBarPoint(cubes, cubes, j, k)) + " ";
  std::string pipeline, studs;
  if (floor) {
    pipeline = R"(<CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.1" contactDistance="0.05"/>
  <CollisionResponse response="PenalityContactForceField"/>)";
    std::string positions;
    for (int c = 0; c < cubes; ++c) positions += std::to_string(c) + ".4 -0.03 0.6  ";
    studs = R"(<Node name="studs">
    <MechanicalObject position=")" +
            positions + R"("/>
    <PointCollisionModel moving="0" simulated="0" contactStiffness="200"/>
  </Node>)";
  }
  return R"(<Node name="root" dt="0.01" gravity=")" + gravity + R"(">
  )" + pipeline +
         R"(
  <Node name="bar">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="300" tolerance="1e-14" threshold="1e-30"/>
  <TetrahedronSetTopologyContainer name="topo" position=")" +
         points + R"(" tetrahedra=")" + tetrahedra + R"("/>
  <TetrahedronSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity="2"/>
  )" + field +
         R"(
  <FixedProjectiveConstraint name="fix" indices=")" +
         fixed + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
  <Node name="surface">
    <TriangleSetTopologyContainer name="tri"/>
    <TriangleSetTopologyModifier/>
    <Tetra2TriangleTopologicalMapping input="@../topo" output="@tri" )" +
         mapping + R"(/>
    )" + surface +
         R"(
  </Node>
  </Node>
  )" + studs +
         R"(
</Node>)";
}

// Tetrahedra 13 and 14 of cube 2, then cube 0 (freeing its points at x = 0), then cube 1.
constexpr const char* kRemovals =
    "T= 0.02\nREMOVE= 2\n13 14\n"
    "T= 0.04\nREMOVE= 6\n0 1 2 3 4 5\n"
    "T= 0.06\nREMOVE= 6\n6 7 8 9 10 11\n";

// The vertices of tetrahedron `t` of the bar of `cubes` cubes, as an ADD= line lists them.
std::string TetrahedronText(int cubes, int t) {
  std::istringstream words(testing::TetraBar(cubes).tetrahedra);
  std::vector<std::string> all{std::istream_iterator<std::string>(words), {}};
  std::string text;
  for (int a = 0; a < 4; ++a) text += all[static_cast<std::size_t>(4 * t + a)] + " ";
  return text;
}

// The surface node's topology as the simulation holds it now.
std::shared_ptr<const Topology> Surface(const Simulation& simulation) {
  for (const TopologyModel& model : NodeTopologies(simulation))
    if (model.node_path == "root/bar/surface") return model.topology;
  return nullptr;
}

struct BarRun {
  std::vector<Vector> x, v;
  std::vector<std::size_t> contacts, surface_triangles;
  int changes = 0, changes_kept = 0;  // steps whose topology changed; of those, state buffer kept
};

// `steps` steps of `xml` (process file `process`) in place or through the rebuild.
BarRun RunBar(const std::string& xml, const std::string& process, const std::string& folder_name,
              int steps, bool rebuild) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / folder_name;
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << process;
  SetRebuild(rebuild);
  Simulation simulation = LoadScene(xml, (folder / "bar.scn").string());
  std::filesystem::remove_all(folder);
  BarRun run;
  for (int k = 0; k < steps; ++k) {
    const double* before = simulation.position(0).data();
    const std::vector<std::array<Index, 4>> tetrahedra =
        simulation.model().objects[0].topology->tetrahedra;
    simulation.Step();
    if (simulation.model().objects[0].topology->tetrahedra != tetrahedra) {
      ++run.changes;
      run.changes_kept += simulation.position(0).data() == before;
    }
    run.x.push_back(simulation.position(0));
    run.v.push_back(simulation.velocity(0));
    run.contacts.push_back(simulation.contacts().size());
    run.surface_triangles.push_back(Surface(simulation)->triangles.size());
  }
  return run;
}

void ExpectTheRebuildsBits(const BarRun& in_place, const BarRun& rebuilt) {
  ASSERT_EQ(in_place.x.size(), rebuilt.x.size());
  for (std::size_t k = 0; k < in_place.x.size(); ++k) {
    ASSERT_TRUE(in_place.x[k] == rebuilt.x[k]) << "step " << k + 1;
    ASSERT_TRUE(in_place.v[k] == rebuilt.v[k]) << "step " << k + 1;
    ASSERT_EQ(in_place.contacts[k], rebuilt.contacts[k]) << "step " << k + 1;
    ASSERT_EQ(in_place.surface_triangles[k], rebuilt.surface_triangles[k]) << "step " << k + 1;
  }
  EXPECT_EQ(in_place.changes, rebuilt.changes);
  EXPECT_EQ(in_place.changes_kept, in_place.changes);  // every change in place
  EXPECT_EQ(rebuilt.changes_kept, 0);
}

struct SurfaceCase {
  const char* name;
  const char* mapping;  // extra attributes of the mapping
  std::string surface;  // the child's components
  bool floor;
};

void PrintTo(const SurfaceCase& c, std::ostream* out) { *out << c.name; }

class SurfaceRemovals : public MappedChildMechanics,
                        public ::testing::WithParamInterface<SurfaceCase> {};

// Three removals (one uncovering faces without freeing points, two freeing points): x and v are
// the rebuild's bits at every step, and every change is followed in place.
TEST_P(SurfaceRemovals, GiveTheRebuildsBitsAtEveryStep) {
  const SurfaceCase& c = GetParam();
  const std::string xml = Bar(5, kCorotational, c.surface, "0 -9.81 0", c.mapping, c.floor);
  const std::string folder = std::string("fluxion_mapped_mechanics_") + c.name;
  const BarRun in_place = RunBar(xml, kRemovals, folder, 10, false);
  const BarRun rebuilt = RunBar(xml, kRemovals, folder, 10, true);
  ExpectTheRebuildsBits(in_place, rebuilt);
  EXPECT_EQ(in_place.changes, 3);
  if (c.floor) {
    EXPECT_GT(in_place.contacts.back(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Surfaces, SurfaceRemovals,
    ::testing::Values(
        SurfaceCase{"membrane_bending", "", std::string(kMembrane) + kBending, false},
        SurfaceCase{"flipped", R"(flipNormals="1")", std::string(kMembrane) + kBending, false},
        SurfaceCase{"no_new_triangles", R"(noNewTriangles="1")", std::string(kMembrane) + kBending,
                    false},
        SurfaceCase{
            "optim", "",
            R"(<TriangularFEMForceFieldOptim name="membrane" youngModulus="60" poissonRatio="0.3" restScale="0.97"/>)",
            false},
        SurfaceCase{"collision", "", std::string(kMembrane) + kBending + kCollision, true}),
    [](const ::testing::TestParamInfo<SurfaceCase>& param_info) {
      return std::string(param_info.param.name);
    });

// The membrane's energy with every point at λ times its rest position: each element's strain is
// uniform, ε = (e, e, 0) with e = (1 − λ)/λ (the gradients are the current triangle's, the
// displacement rest − current = −e·current … up to the sign), so its energy is
// ½·A·E/(1 − ν²)·(2 + 2ν)·e² = A·E·e²/(1 − ν) and the membrane's is S·E·e²/(1 − ν), S the surface's
// rest area. The bar of 5 cubes has S = 4·5 + 2 = 22 m²; without cube 0 18 m² — 17 with
// noNewTriangles, where the uncovered face x = 1 takes no triangle (and the membrane no element).
// No other field stores energy (no gravity, no volume FEM).
TEST_F(MappedChildMechanics, TheMembranesEnergyIsTheSurfaceAreasByHand) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_mechanics_energy";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 6\n0 1 2 3 4 5\n";
  const double lambda = 1.1, e = (1.0 - lambda) / lambda, young = 60.0, poisson = 0.3;
  for (const bool rebuild : {true, false})
    for (const auto& [mapping, area_after] :
         {std::pair{"", 18.0}, std::pair{R"(noNewTriangles="1")", 17.0}}) {
      SetRebuild(rebuild);
      Simulation simulation =
          LoadScene(Bar(5, "", kMembrane, "0 0 0", mapping), (folder / "bar.scn").string());
      for (const auto& [steps, area] : {std::pair{0, 22.0}, std::pair{2, area_after}}) {
        for (int k = 0; k < steps; ++k) simulation.Step();
        const Topology& topology = *simulation.model().objects[0].topology;
        Vector x(static_cast<Index>(3 * topology.points.size()));
        for (std::size_t p = 0; p < topology.points.size(); ++p)
          for (std::size_t a = 0; a < 3; ++a)
            x[static_cast<Index>(3 * p + a)] = lambda * topology.points[p][a];
        simulation.SetPosition(0, x);
        simulation.SetVelocity(0, Vector::Zero(x.size()));
        const double expected = area * young * e * e / (1.0 - poisson);
        EXPECT_NEAR(simulation.PotentialEnergy(), expected, 1e-12 * expected)
            << (rebuild ? "rebuild" : "in place") << ", " << steps << " steps, " << mapping;
        EXPECT_EQ(Surface(simulation)->triangles.size(), static_cast<std::size_t>(2 * area));
      }
    }
  std::filesystem::remove_all(folder);
}

// Additions (SOFA's AddingTetra2TriangleProcess): tetrahedra 13 and 14 removed, then added back
// one at a time (their faces inside the bar leave the surface, their bottom faces join it again):
// the rebuild's bits at every step, each change in place, the surface back to the bar's 44
// triangles.
TEST_F(MappedChildMechanics, AdditionsGiveTheRebuildsBits) {
  const int cubes = 5;
  const std::string process = "T= 0.02\nREMOVE= 2\n13 14\nT= 0.04\nADD= Tetrahedra 1\n" +
                              TetrahedronText(cubes, 13) + "\nT= 0.06\nADD= Tetrahedra 1\n" +
                              TetrahedronText(cubes, 14) + "\n";
  for (const bool floor : {false, true}) {
    const std::string surface =
        std::string(kMembrane) + kBending + (floor ? std::string(kCollision) : std::string());
    const std::string xml = Bar(cubes, kCorotational, surface, "0 -9.81 0", "", floor);
    const std::string folder =
        std::string("fluxion_mapped_mechanics_additions_") + (floor ? "floor" : "free");
    const BarRun in_place = RunBar(xml, process, folder, 9, false);
    const BarRun rebuilt = RunBar(xml, process, folder, 9, true);
    ExpectTheRebuildsBits(in_place, rebuilt);
    EXPECT_EQ(in_place.changes, 3);
    EXPECT_EQ(in_place.surface_triangles.front(), 44u);
    EXPECT_EQ(in_place.surface_triangles.back(), 44u);
    if (floor) {
      EXPECT_GT(in_place.contacts.back(), 0u);
    }
  }
}

// The membrane's per-element output in ParaView files (scene-runner --vtk): in place, the bytes
// of the rebuild's (FLUXION_TOPOLOGY_REBUILD=1) at every step. Tetrahedra 14 and 15 of cube 2
// (c = 2) are the paths y, x, z and y, z, x from (c,0,0) to (c+1,1,1). Removing 14 swaps its two
// surface triangles (z = 0 and y = 1) for its two faces on the cube's diagonals, and adds the
// edge (c,0,0)–(c+1,1,1). Removing 15 then takes its y = 1 triangle and 14's face it shares, and
// uncovers its face x = c (shared with cube 1, its diagonal a new surface edge) and the diagonal
// face it shares with 16, freeing the edge (c,1,0)–(c+1,1,1): the surface keeps 44 triangles and
// as many edges, other ones — a writer that took the cells again only when the sizes changed
// kept the old ones.
TEST_F(MappedChildMechanics, TheMembranesParaViewFilesAreTheRebuilds) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_mechanics_runner";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt")
      << "T= 0.02\nREMOVE= 1\n14\nT= 0.04\nREMOVE= 1\n15\nT= 0.06\nREMOVE= 6\n0 1 2 3 4 5\n";
  std::ofstream(folder / "bar.scn")
      << Bar(5, kCorotational, std::string(kMembrane) + kBending, "0 -9.81 0");
  const auto files = [&](const std::string& run, const char* environment) {
    const testing::CommandResult result = testing::RunCommand(
        std::string(environment) + " " + testing::SceneRunner() + " " +
        (folder / "bar.scn").string() + " --steps 8 --no-rows --every 1 --output-dir " +
        folder.string() + " --vtk " + (folder / run).string());
    EXPECT_EQ(result.status, 0) << result.err;
    std::vector<std::string> bytes;
    for (int step = 0; step <= 8; ++step) {
      std::ifstream vtu(
          folder / run / ("bar_root_bar_surface_membrane_00000" + std::to_string(step) + ".vtu"),
          std::ios::binary);
      bytes.emplace_back(std::istreambuf_iterator<char>(vtu), std::istreambuf_iterator<char>());
    }
    return bytes;
  };
  const std::vector<std::string> in_place = files("in_place", "env -u FLUXION_TOPOLOGY_REBUILD");
  const std::vector<std::string> rebuilt = files("rebuilt", "env FLUXION_TOPOLOGY_REBUILD=1");
  std::filesystem::remove_all(folder);
  const auto cells = [](const std::string& text) {
    const auto at = text.find("NumberOfCells=\"");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('"', at + 15) - at);
  };
  ASSERT_EQ(in_place.size(), 9u);
  for (std::size_t step = 0; step < in_place.size(); ++step) {
    EXPECT_FALSE(in_place[step].empty()) << "step " << step;
    EXPECT_TRUE(in_place[step] == rebuilt[step]) << "step " << step;
  }
  // 44 triangles through the first two removals (t = 0.02, 0.04), the cells changed by each;
  // 44 − 10 + 2 = 36 after the third (t = 0.06: cube 0's five outer squares go, the face x = 1
  // comes).
  int changes = 0;
  for (std::size_t step = 1; step < 6; ++step) {
    EXPECT_EQ(cells(in_place[step]), "NumberOfCells=\"44") << "step " << step;
    changes += in_place[step] != in_place[step - 1];
  }
  EXPECT_GE(changes, 2);
  EXPECT_EQ(cells(in_place.back()), "NumberOfCells=\"36");
}

// Allocations of the step that applies the second change (the first makes the follow), less
// those of a plain step: the same for a bar of 4 times the tetrahedra, for a removal of no point,
// one that frees points and an addition. (Renaming a membrane's elements one by one once
// allocated a partition per element: more at the longer bar, whose last point has more
// triangles.)
TEST_F(MappedChildMechanics, AChangeCostsTheSameWhateverTheBarLength) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_mechanics_allocations";
  std::filesystem::create_directories(folder);
  struct Changes {
    const char *name, *first, *second;  // second: null for an addition of tetrahedron 13
  };
  const auto change_allocations = [&](int cubes, const Changes& changes) {
    const std::string second = changes.second != nullptr
                                   ? std::string(changes.second)
                                   : "ADD= Tetrahedra 1\n" + TetrahedronText(cubes, 13);
    std::ofstream(folder / "process.txt") << "T= 0.02\n"
                                          << changes.first << "\nT= 0.04\n"
                                          << second << "\n";
    SetRebuild(false);
    Simulation simulation =
        LoadScene(Bar(cubes, kCorotational, std::string(kMembrane) + kBending, "0 0 0"),
                  (folder / "bar.scn").string());
    for (int k = 0; k < 3; ++k) simulation.Step();  // the first change at t = 0.02
    simulation.Step();                              // t = 0.03: plain
    const double* state = simulation.position(0).data();
    long before = conformance::AllocationCount();
    simulation.Step();  // t = 0.04: the second change, then the step
    EXPECT_EQ(simulation.position(0).data(), state) << changes.name;
    const long change = conformance::AllocationCount() - before;
    before = conformance::AllocationCount();
    simulation.Step();  // t = 0.05: plain
    return change - (conformance::AllocationCount() - before);
  };
  for (const Changes& changes :
       {Changes{"no_point", "REMOVE= 2\n13 14", "REMOVE= 2\n15 16"},
        Changes{"freeing", "REMOVE= 6\n0 1 2 3 4 5", "REMOVE= 6\n6 7 8 9 10 11"},
        Changes{"addition", "REMOVE= 2\n13 14", nullptr}}) {
    const long small = change_allocations(5, changes);
    const long large = change_allocations(20, changes);
    RecordProperty(std::string("in_place_5_") + changes.name, std::to_string(small));
    RecordProperty(std::string("in_place_20_") + changes.name, std::to_string(large));
    EXPECT_EQ(small, large) << changes.name;
  }
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace fluxion
