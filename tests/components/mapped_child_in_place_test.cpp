// Removals of tetrahedra from a body whose surface is a Tetra2TriangleTopologicalMapping's output
// in a child node (SOFA's RemovingTetra2TriangleProcess*.scn), followed through the rebuild and in
// place (build/mapped_child_in_place.h). The body is tests/support/tetra_bar.h's bar of 5 unit
// cubes along x (point (i, j, k) numbered i + 6(j + 2k), cube c holding tetrahedra 6c … 6c + 5);
// the child's components act on the bar's MechanicalObject with the child's triangles, as in
// SOFA's scenes.
//
// The bottom face y = 0 of cube c is two surface triangles of area 1/2, the faces of its
// tetrahedra 6c + 1 = (p, p + e_x, p + (1,1,1), p + e_x + e_z) and 6c + 4 = (p, p + e_z,
// p + e_x + e_z, p + (1,1,1)) (p = (c, 0, 0)) whose vertices all have y = 0. The removals:
//  t = 0.02: tetrahedra 13 and 14 of cube 2: one bottom triangle goes (13's), the faces they
//            uncover join the surface (the mapping's TETRAHEDRAREMOVED), no point is freed;
//  t = 0.04: cube 0 (0 … 5): its two bottom triangles go, its points at x = 0 are freed.
#include <gmock/gmock.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "conformance/allocation_counter.h"
#include "fluxion/errors.h"
#include "fluxion/node_topologies.h"
#include "support/test_support.h"
#include "support/tetra_bar.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class MappedChild : public testing::QuietTest {
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
// The pressure on the bottom triangles, picked as SOFA's performanceTest picks its own: a BoxROI
// on the child's triangles.
constexpr const char* kBottomPressure =
    R"(<BoxROI name="box" position="@../dofs.position" triangles="@tri.triangles" box="-0.1 -0.1 -0.1 5.1 0.1 1.1"/>
    <TrianglePressureForceField name="pressure" triangleList="@box.triangleIndices" pressure="0 3 0"/>)";
constexpr const char* kMembrane =
    R"(<TriangularFEMForceField name="membrane" youngModulus="60" poissonRatio="0.3" method="large"/>
    <TriangularBendingSprings name="bending" stiffness="300" damping="1"/>)";

// The bar of `cubes` cubes (its end x = cubes held) with `field`, gravity `gravity`, and a child
// node "surface" holding the mapping's output and `surface`; the process file process.txt of the
// scene's folder.
std::string Bar(int cubes, const std::string& field, const std::string& surface,
                const std::string& gravity = "0 -9.81 0") {
  const auto [points, tetrahedra] = testing::TetraBar(cubes);
  std::string fixed;
  for (const int k : {0, 1})
    for (const int j : {0, 1})
      fixed += std::to_string(testing::TetraBarPoint(cubes, cubes, j, k)) + " ";
  return R"(<Node name="root" dt="0.01" gravity=")" + gravity + R"(">
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
    <Tetra2TriangleTopologicalMapping input="@../topo" output="@tri"/>
    )" + surface +
         R"(
  </Node>
</Node>)";
}

constexpr const char* kProcess =
    "T= 0.02\nREMOVE= 2\n13 14\n"
    "T= 0.04\nREMOVE= 6\n0 1 2 3 4 5\n";

// −F·x of the pressure with every point at its rest position but y = 1 + x (the bar's other loads
// are 0 without gravity; the elastic energies are not counted: the field is absent): each pressed
// triangle gives each of its vertices pressure·A/3 = (0, 0.5, 0), so a triangle whose vertices
// are at x_v gives −0.5·Σ(1 + x_v) — which triangles are pressed, not only how many, counts. The
// bottom triangle of tetrahedron 6c + 1 has x = c, c + 1, c + 1 (−0.5·(3c + 5)), that of 6c + 4
// x = c, c, c + 1 (−0.5·(3c + 4)): −0.5·(6c + 9) per cube, −52.5 for the bar; −47 once 13's
// (c = 2: 11) is gone, −42.5 once cube 0's (9) are.
double LiftedEnergy(Simulation& simulation) {
  const Topology& topology = *simulation.model().objects[0].topology;
  Vector x(static_cast<Index>(3 * topology.points.size()));
  for (std::size_t p = 0; p < topology.points.size(); ++p)
    for (std::size_t a = 0; a < 3; ++a)
      x[static_cast<Index>(3 * p + a)] =
          a == 1 ? 1.0 + topology.points[p][0] : topology.points[p][a];
  simulation.SetPosition(0, x);
  simulation.SetVelocity(0, Vector::Zero(x.size()));
  return simulation.PotentialEnergy();
}

// The surface node's topology as the simulation holds it now.
std::shared_ptr<const Topology> Surface(const Simulation& simulation) {
  for (const TopologyModel& model : NodeTopologies(simulation))
    if (model.node_path == "root/surface") return model.topology;
  return nullptr;
}

// The pressure on the child's bottom triangles follows the mapping's changes as SOFA's
// TopologySubsetData does (the removed triangle's entry dropped, the uncovered faces never
// joining it): through the rebuild and in place, the load is on the bottom triangles left —
// pressure × their area, 3 × 5, 4.5, then 3.5 m², weighted by where they are (LiftedEnergy).
TEST_F(MappedChild, APressureOnTheSurfaceFollowsTheRemovalsByHand) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_child_pressure";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << kProcess;
  const std::string xml = Bar(5, "", kBottomPressure, "0 0 0");
  const std::string file = (folder / "bar.scn").string();
  for (const bool rebuild : {true, false}) {
    SetRebuild(rebuild);
    for (const auto& [steps, energy] : {std::pair{0, -52.5}, {3, -47.0}, {5, -42.5}}) {
      Simulation simulation = LoadScene(xml, file);
      for (int k = 0; k < steps; ++k) simulation.Step();
      EXPECT_DOUBLE_EQ(LiftedEnergy(simulation), energy)
          << (rebuild ? "rebuild" : "in place") << ", " << steps << " steps";
    }
  }
  std::filesystem::remove_all(folder);
}

// An addition of tetrahedra (always through the rebuild) covers faces of the surface, which the
// mapping removes: the list follows them (MappedTopology::element_map of FollowAddition).
// Tetrahedron 13 = (2, 3, 21, 15) removed at t = 0.02 and added back at t = 0.04: its bottom
// face comes back as a new surface triangle, which joins no list — the load stays −47.
TEST_F(MappedChild, APressureOnTheSurfaceFollowsAnAddition) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_child_addition";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt")
      << "T= 0.02\nREMOVE= 1\n13\nT= 0.04\nADD= Tetrahedra 1\n2 3 21 15\n";
  const std::string xml = Bar(5, "", kBottomPressure, "0 0 0");
  for (const auto& [steps, energy, tetrahedra] :
       {std::tuple{3, -47.0, 29u}, std::tuple{5, -47.0, 30u}}) {
    Simulation simulation = LoadScene(xml, (folder / "bar.scn").string());
    for (int k = 0; k < steps; ++k) simulation.Step();
    EXPECT_EQ(simulation.model().objects[0].topology->tetrahedra.size(), tetrahedra);
    EXPECT_DOUBLE_EQ(LiftedEnergy(simulation), energy) << steps << " steps";
  }
  // The removal followed in place, the addition through the rebuild (the surface would have to
  // follow it): the surface is the rebuild's.
  SetRebuild(true);
  Simulation rebuilt = LoadScene(xml, (folder / "bar.scn").string());
  SetRebuild(false);
  Simulation in_place = LoadScene(xml, (folder / "bar.scn").string());
  for (int k = 0; k < 5; ++k) {
    in_place.Step();
    rebuilt.Step();
    ASSERT_EQ(Surface(in_place)->triangles, Surface(rebuilt)->triangles) << "step " << k + 1;
    ASSERT_EQ(Surface(in_place)->edges, Surface(rebuilt)->edges) << "step " << k + 1;
    ASSERT_TRUE(in_place.position(0) == rebuilt.position(0)) << "step " << k + 1;
  }
  std::filesystem::remove_all(folder);
}

// The same through a Quad2TriangleTopologicalMapping (a removal of quads always rebuilds): three
// unit quads in a row, q = (i, i+1, i+5, i+4) on points i + 4j at (i, j, 0); the child's
// triangles 2q = (q0, q1, q2) and 2q + 1 = (q0, q2, q3). The list "0 1 4 5" presses quads 0 and
// 2. Removing quad 0 removes its two triangles, quad 2's take their slots (SOFA's QUADSREMOVED,
// the output's swaps): "0 1", still quad 2's. With z = 1 + x, each vertex of a pressed triangle
// (area 1/2, pressure 6: (0, 0, 1) per vertex) gives −(1 + x): triangles 0 = (0, 1, 5) and
// 1 = (0, 5, 4) give −5 and −4, 4 = (2, 3, 7) and 5 = (2, 7, 6) −11 and −10: −30, then −21
// (quad 1's triangles, pressed by a wrong renaming, would give −15).
TEST_F(MappedChild, APressureOnAQuad2TriangleChildFollowsTheRemovalByHand) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_child_quads";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 1\n0\n";
  const std::string xml = R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="100" tolerance="1e-12" threshold="1e-30"/>
  <QuadSetTopologyContainer name="quads" position="0 0 0 1 0 0 2 0 0 3 0 0 0 1 0 1 1 0 2 1 0 3 1 0"
                            quads="0 1 5 4  1 2 6 5  2 3 7 6"/>
  <QuadSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <UniformMass name="mass" vertexMass="1"/>
  <TopologicalChangeProcessor filename="process.txt"/>
  <Node name="surface">
    <TriangleSetTopologyContainer name="tri"/>
    <TriangleSetTopologyModifier/>
    <Quad2TriangleTopologicalMapping input="@../quads" output="@tri"/>
    <TrianglePressureForceField name="pressure" triangleList="0 1 4 5" pressure="0 0 6"/>
  </Node>
</Node>)";
  for (const auto& [steps, energy] : {std::pair{0, -30.0}, {2, -21.0}}) {
    Simulation simulation = LoadScene(xml, (folder / "quads.scn").string());
    for (int k = 0; k < steps; ++k) simulation.Step();
    const Topology& topology = *simulation.model().objects[0].topology;
    EXPECT_EQ(topology.points.size(), steps == 0 ? 8u : 6u);
    Vector x(static_cast<Index>(3 * topology.points.size()));
    for (std::size_t p = 0; p < topology.points.size(); ++p)
      for (std::size_t a = 0; a < 3; ++a)
        x[static_cast<Index>(3 * p + a)] =
            a == 2 ? 1.0 + topology.points[p][0] : topology.points[p][a];
    simulation.SetPosition(0, x);
    EXPECT_DOUBLE_EQ(simulation.PotentialEnergy(), energy) << steps << " steps";
  }
  std::filesystem::remove_all(folder);
}

// The scene runs in scene-runner (SOFA's performanceTest stopped at its pressure), and its
// ParaView files are the bytes of the rebuild's (FLUXION_TOPOLOGY_REBUILD=1), step by step: the
// bar's cells fall at each removal.
TEST_F(MappedChild, TheSceneRunsAndItsParaViewFilesAreTheRebuilds) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_child_runner";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << kProcess;
  std::ofstream(folder / "bar.scn") << Bar(5, kCorotational, kBottomPressure);
  const auto files = [&](const std::string& run, const char* environment) {
    const testing::CommandResult result = testing::RunCommand(
        std::string(environment) + " " + testing::SceneRunner() + " " +
        (folder / "bar.scn").string() + " --steps 6 --no-rows --every 1 --output-dir " +
        folder.string() + " --vtk " + (folder / run).string());
    EXPECT_EQ(result.status, 0) << result.err;
    std::vector<std::string> bytes;
    for (int step = 0; step <= 6; ++step) {
      std::ifstream vtu(folder / run / ("bar_root_dofs_00000" + std::to_string(step) + ".vtu"),
                        std::ios::binary);
      bytes.emplace_back(std::istreambuf_iterator<char>(vtu), std::istreambuf_iterator<char>());
    }
    return bytes;
  };
  const std::vector<std::string> in_place = files("in_place", "env -u FLUXION_TOPOLOGY_REBUILD");
  const std::vector<std::string> rebuilt = files("rebuilt", "env FLUXION_TOPOLOGY_REBUILD=1");
  std::filesystem::remove_all(folder);
  ASSERT_EQ(in_place.size(), 7u);
  for (std::size_t step = 0; step < in_place.size(); ++step) {
    EXPECT_FALSE(in_place[step].empty()) << "step " << step;
    EXPECT_TRUE(in_place[step] == rebuilt[step]) << "step " << step;
  }
  // Two removals, two changes of the cells.
  const auto cells = [](const std::string& text) {
    const auto at = text.find("NumberOfCells=\"");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('"', at + 15) - at);
  };
  int changes = 0;
  for (std::size_t k = 1; k < in_place.size(); ++k)
    changes += cells(in_place[k]) != cells(in_place[k - 1]);
  EXPECT_EQ(changes, 2);
}

struct ChildCase {
  const char* name;
  const char* mapping;  // extra attributes of the mapping
  const char* surface;  // the child's components
};

void PrintTo(const ChildCase& c, std::ostream* out) { *out << c.name; }

class MappedChildRemoval : public MappedChild, public ::testing::WithParamInterface<ChildCase> {};

// In place and through the rebuild, the same bits at every step: the bar's x and v, the bar's
// and the surface's elements (the surface's order is SOFA's mapping's: later removals index into
// it), the mass; and the changes were followed in place (the state kept its buffer).
TEST_P(MappedChildRemoval, GivesTheBitsOfTheRebuildAtEveryStep) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() /
      (std::string("fluxion_mapped_child_removal_") + GetParam().name);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << kProcess << "T= 0.06\nREMOVE= 6\n6 7 8 9 10 11\n";
  std::string xml = Bar(5, kCorotational, GetParam().surface);
  const std::string output = R"(output="@tri")";
  xml.replace(xml.find(output), output.size(), output + " " + GetParam().mapping);
  const std::string file = (folder / "bar.scn").string();
  SetRebuild(true);
  Simulation rebuilt = LoadScene(xml, file);
  SetRebuild(false);
  Simulation in_place = LoadScene(xml, file);
  std::filesystem::remove_all(folder);
  int changes = 0, changes_kept = 0;
  for (int k = 0; k < 10; ++k) {
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
    ASSERT_EQ(a.tetrahedra, b.tetrahedra) << "step " << k + 1;
    ASSERT_EQ(a.triangles, b.triangles) << "step " << k + 1;
    const std::shared_ptr<const Topology> sa = Surface(in_place), sb = Surface(rebuilt);
    ASSERT_TRUE(sa && sb);
    ASSERT_EQ(sa->triangles, sb->triangles) << "step " << k + 1;
    ASSERT_EQ(sa->edges, sb->edges) << "step " << k + 1;
    ASSERT_EQ(sa->points.size(), sb->points.size()) << "step " << k + 1;
    const SparseMatrix ma = in_place.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
    const SparseMatrix mb = rebuilt.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
    ASSERT_EQ((ma - mb).norm(), 0.0) << "step " << k + 1;
  }
  EXPECT_EQ(changes, 3);
  EXPECT_EQ(changes_kept, 3);
  // 30 − 2 − 6 − 6 tetrahedra; the surface is the boundary of what is left: cube 2's four
  // tetrahedra and cubes 3 and 4.
  EXPECT_EQ(in_place.model().objects[0].topology->tetrahedra.size(), 16u);
}

INSTANTIATE_TEST_SUITE_P(
    Children, MappedChildRemoval,
    ::testing::Values(ChildCase{"pressure", "", kBottomPressure},
                      ChildCase{"flipped_pressure", R"(flipNormals="1")", kBottomPressure},
                      ChildCase{"no_new_triangles", R"(noNewTriangles="1")", kBottomPressure},
                      ChildCase{"visual", "",
                                R"(<Node name="Visu">
      <OglModel name="Visual"/>
      <IdentityMapping input="@../../dofs" output="@Visual"/>
    </Node>)"}),
    [](const ::testing::TestParamInfo<ChildCase>& param_info) {
      return std::string(param_info.param.name);
    });

// Random removals (a fixed seed): one to three tetrahedra at each step from a bar of 6 cubes (36
// tetrahedra) until 6 are left, freeing points or not as they fall; the surface's elements, the
// bar's and the state are the rebuild's at every step, each change followed in place.
TEST_F(MappedChild, RandomRemovalsGiveTheRebuildsSurface) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_child_random";
  std::filesystem::create_directories(folder);
  std::mt19937 random(20261207);
  std::ofstream process(folder / "process.txt");
  int left = 36, removals = 0;
  for (int step = 1; step <= 20 && left > 6; ++step, ++removals) {
    const int count = std::min(left - 6, 1 + static_cast<int>(random() % 3));
    process << "T= " << 0.01 * step << "\nREMOVE= " << count << "\n";
    std::vector<int> ids(static_cast<std::size_t>(left));
    for (int t = 0; t < left; ++t) ids[static_cast<std::size_t>(t)] = t;
    std::shuffle(ids.begin(), ids.end(), random);
    for (int k = 0; k < count; ++k) process << ids[static_cast<std::size_t>(k)] << " ";
    process << "\n";
    left -= count;
  }
  process.close();
  const std::string xml = Bar(6, kCorotational, kBottomPressure);
  const std::string file = (folder / "bar.scn").string();
  SetRebuild(true);
  Simulation rebuilt = LoadScene(xml, file);
  SetRebuild(false);
  Simulation in_place = LoadScene(xml, file);
  std::filesystem::remove_all(folder);
  int changes = 0, changes_kept = 0;
  for (int k = 0; k < 22; ++k) {
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
    ASSERT_EQ(in_place.model().objects[0].topology->tetrahedra,
              rebuilt.model().objects[0].topology->tetrahedra)
        << "step " << k + 1;
    const std::shared_ptr<const Topology> sa = Surface(in_place), sb = Surface(rebuilt);
    ASSERT_TRUE(sa && sb);
    ASSERT_EQ(sa->triangles, sb->triangles) << "step " << k + 1;
    ASSERT_EQ(sa->edges, sb->edges) << "step " << k + 1;
  }
  EXPECT_GE(removals, 12);
  EXPECT_EQ(changes, removals);
  EXPECT_EQ(changes_kept, removals);
}

// A container given only its tetrahedra takes its points from the object (SOFA's scenes link
// tetrahedra="@../loader.tetrahedra"): the first change is followed in place too, with the
// rebuild's bits (SOFA's RemovingTetra2TriangleProcess.scn).
TEST_F(MappedChild, AContainerGivenOnlyItsTetrahedraFollowsInPlace) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_child_object_points";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << kProcess;
  std::string xml = Bar(5, kCorotational, kBottomPressure);
  // The points move from the container to the MechanicalObject.
  const std::size_t from = xml.find(" position=\""), to = xml.find('"', from + 11) + 1;
  const std::string position = xml.substr(from, to - from);
  xml.erase(from, to - from);
  const std::string object = "<MechanicalObject name=\"dofs\"";
  xml.replace(xml.find(object), object.size(), object + position);
  const std::string file = (folder / "bar.scn").string();
  SetRebuild(true);
  Simulation rebuilt = LoadScene(xml, file);
  SetRebuild(false);
  Simulation in_place = LoadScene(xml, file);
  std::filesystem::remove_all(folder);
  const double* state = in_place.position(0).data();
  for (int k = 0; k < 6; ++k) {
    in_place.Step();
    rebuilt.Step();
    ASSERT_TRUE(in_place.position(0) == rebuilt.position(0)) << "step " << k + 1;
    ASSERT_TRUE(in_place.velocity(0) == rebuilt.velocity(0)) << "step " << k + 1;
  }
  EXPECT_EQ(in_place.model().objects[0].topology->tetrahedra.size(), 22u);
  EXPECT_EQ(in_place.position(0).data(), state);  // both changes in place
}

// A TriangularFEMForceField on the surface follows in place with a matrix-free solver
// (tests/components/mapped_child_mechanics_in_place_test.cpp); with a direct solver, whose built
// matrix pattern holds the membrane's entries, the change goes through the rebuild (the state's
// buffer replaced) and the run goes on.
TEST_F(MappedChild, AMembraneOnTheSurfaceWithADirectSolverGoesThroughTheRebuild) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_child_membrane";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << kProcess;
  // No volume FEM: the membrane alone holds entries of the pattern.
  std::string xml = Bar(5, "", kMembrane);
  const std::size_t cg = xml.find("<CGLinearSolver"), end = xml.find("/>", cg) + 2;
  xml.replace(cg, end - cg, "<SparseLDLSolver/>");
  Simulation simulation = LoadScene(xml, (folder / "bar.scn").string());
  std::filesystem::remove_all(folder);
  for (int k = 0; k < 2; ++k) simulation.Step();
  const double* before = simulation.position(0).data();
  simulation.Step();  // t = 0.02: the first removal
  EXPECT_EQ(simulation.model().objects[0].topology->tetrahedra.size(), 28u);
  EXPECT_NE(simulation.position(0).data(), before);
}

// A removal of every tetrahedron (SOFA's performanceTest's second change) leaves the mesh's stray
// point (in no tetrahedron, held still since the load): through the rebuild and in place, the
// run goes on with that one point, still where it was.
TEST_F(MappedChild, RemovingEveryTetrahedronLeavesTheStrayPoint) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_child_emptied";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 6\n0 1 2 3 4 5\n";
  std::string xml = Bar(1, kCorotational, kBottomPressure);
  const std::string points = R"(" tetrahedra=)";
  xml.replace(xml.find(points), points.size(), " 7 7 7" + points);
  for (const bool rebuild : {true, false}) {
    SetRebuild(rebuild);
    Simulation simulation = LoadScene(xml, (folder / "bar.scn").string());
    for (int k = 0; k < 3; ++k) simulation.Step();
    ASSERT_EQ(simulation.position(0).size(), 3) << (rebuild ? "rebuild" : "in place");
    EXPECT_TRUE(simulation.position(0) == Eigen::Vector3d(7, 7, 7));
    EXPECT_TRUE(simulation.model().objects[0].topology->tetrahedra.empty());
  }
  std::filesystem::remove_all(folder);
}

// Allocations of the step that applies the second removal (the first makes the follow), less
// those of a plain step: the same for a bar of 4 times the tetrahedra, for a removal of no point
// (tetrahedra 15 16 after 13 14) and one that frees points (cube 1 after cube 0). The rebuild
// allocates far more.
TEST_F(MappedChild, ARemovalCostsTheSameWhateverTheBarLength) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_mapped_child_allocations";
  std::filesystem::create_directories(folder);
  struct Removals {
    const char *name, *first, *second;
  };
  const auto change_allocations = [&](int cubes, const Removals& removals, bool rebuild) {
    std::ofstream(folder / "process.txt") << "T= 0.02\n"
                                          << removals.first << "\nT= 0.04\n"
                                          << removals.second << "\n";
    SetRebuild(rebuild);
    Simulation simulation = LoadScene(Bar(cubes, kCorotational, kBottomPressure, "0 0 0"),
                                      (folder / "bar.scn").string());
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
       {Removals{"no_point", "REMOVE= 2\n13 14", "REMOVE= 2\n15 16"},
        Removals{"freeing", "REMOVE= 6\n0 1 2 3 4 5", "REMOVE= 6\n6 7 8 9 10 11"}}) {
    const long small = change_allocations(5, removals, false);
    const long large = change_allocations(20, removals, false);
    const long rebuilt = change_allocations(5, removals, true);
    RecordProperty(std::string("in_place_5_") + removals.name, std::to_string(small));
    RecordProperty(std::string("in_place_20_") + removals.name, std::to_string(large));
    RecordProperty(std::string("rebuild_5_") + removals.name, std::to_string(rebuilt));
    EXPECT_EQ(small, large) << removals.name;
    EXPECT_GT(rebuilt, 10 * std::max(small, 1L)) << removals.name;
  }
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace fluxion
