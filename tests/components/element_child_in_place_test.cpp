// Removals from a quad sheet with a Quad2TriangleTopologicalMapping child and from a hexahedral
// bar with a Hexa2QuadTopologicalMapping child (SOFA's RemovingQuad2TriangleProcess.scn and
// RemovingHexa2QuadProcess.scn in small), followed in place (build/element_child_in_place.h)
// against the rebuild (build/topology_rebuild.cpp, FLUXION_TOPOLOGY_REBUILD=1), the reference.
//
// The quad sheet: nx × 3 unit quads in the plane z = 0, point (i, j) numbered i + (nx + 1) j,
// quad (i, j) numbered i + nx·j, held at the ends of its edge y = 3, under gravity −z, over a
// floor at z = −0.3; the child's triangles 2q = (q0, q1, q2) and 2q + 1 = (q0, q2, q3) carry a
// TriangularFEMForceField, TriangularBendingSprings and a TriangleCollisionModel. Removals:
// t = 0.02 quad nx + 2 (no point freed), t = 0.04 quad 0 (frees point 0), t = 0.06 quads 1 and nx
// (frees (1, 0) and (0, 1)): 11 quads, 22 triangles left.
// The hexahedral bar: n × 2 × 1 unit cubes, point (i, j, k) numbered i + (n + 1)(j + 3k),
// hexahedron (i, j) numbered i + n·j, held at its end x = n, under gravity −y, over a floor at
// y = −0.3; the child's quads (the bar's surface) carry QuadularBendingSprings and a
// TriangleCollisionModel. Removals: t = 0.02 hexahedron 2 ((2, 0)), t = 0.04 0 and n ((0, 0),
// (0, 1): the points at x = 0 freed), t = 0.06 1 ((1, 0)). For n = 5 the hexahedra (1…4, 1) and
// (3, 0), (4, 0) are left: 36 faces, 6 of them shared by two (three in the row j = 1, one in the
// row j = 0, two between the rows): 36 − 2·6 = 24 surface quads.
#include <gmock/gmock.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "conformance/allocation_counter.h"
#include "fluxion/node_topologies.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class ElementChild : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

void SetRebuild(bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
}

constexpr const char* kPipeline = R"(<CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.2" contactDistance="0.05"/>
  <CollisionResponse response="PenalityContactForceField"/>)";

// A static floor triangle through (-50, -50, c), (100, -50, c), (-50, 100, c) with axes permuted
// so that it is normal to `axis` (1: y, 2: z).
std::string Floor(int axis) {
  const auto point = [&](double u, double v) {
    return axis == 2 ? std::to_string(u) + " " + std::to_string(v) + " -0.3"
                     : std::to_string(u) + " -0.3 " + std::to_string(v);
  };
  return R"(<Node name="floor">
    <MeshTopology position=")" +
         point(-50, -50) + "  " + point(100, -50) + "  " + point(-50, 100) +
         R"(" triangles="0 1 2"/>
    <MechanicalObject/>
    <TriangleCollisionModel moving="0" simulated="0" contactStiffness="200"/>
  </Node>)";
}

constexpr const char* kSheetChild = R"(<Node name="T">
    <TriangleSetTopologyContainer name="tri"/>
    <TriangleSetTopologyModifier/>
    <TriangleSetGeometryAlgorithms/>
    <Quad2TriangleTopologicalMapping input="@../topo" output="@tri"/>
    <TriangularFEMForceField name="membrane" youngModulus="400" poissonRatio="0.3" method="large"/>
    <TriangularBendingSprings name="bending" stiffness="30" damping="0.5"/>
    <TriangleCollisionModel contactStiffness="200"/>
    <Node name="Visu">
      <OglModel name="Visual"/>
      <IdentityMapping input="@../../dofs" output="@Visual"/>
    </Node>
  </Node>)";

constexpr const char* kBarChild = R"(<Node name="Q">
    <QuadSetTopologyContainer name="quad"/>
    <QuadSetTopologyModifier/>
    <Hexa2QuadTopologicalMapping input="@../topo" output="@quad"/>
    <QuadularBendingSprings name="bending" stiffness="30" damping="0.5"/>
    <TriangleCollisionModel contactStiffness="200"/>
  </Node>)";

// The quad sheet of the file comment, nx quads wide, with the child `child`.
std::string Sheet(int nx, const std::string& child = kSheetChild) {
  constexpr int ny = 3;
  std::string points, quads;
  const auto p = [&](int i, int j) { return std::to_string(i + (nx + 1) * j); };
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) points += std::to_string(i) + " " + std::to_string(j) + " 0  ";
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      quads += p(i, j) + " " + p(i + 1, j) + " " + p(i + 1, j + 1) + " " + p(i, j + 1) + "  ";
  return R"(<Node name="root" dt="0.01" gravity="0 0 -9.81">
  )" + std::string(kPipeline) +
         R"(
  )" + Floor(2) +
         R"(
  <Node name="sheet">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="400" tolerance="1e-14" threshold="1e-30"/>
  <QuadSetTopologyContainer name="topo" position=")" +
         points + R"(" quads=")" + quads + R"("/>
  <QuadSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity="2"/>
  <QuadularBendingSprings name="quad_bending" stiffness="30" damping="0.5"/>
  <FixedProjectiveConstraint name="fix" indices=")" +
         p(0, ny) + " " + p(nx, ny) + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
  )" + child +
         R"(
  </Node>
</Node>)";
}

// The hexahedral bar of the file comment, n cubes long, with the child `child`.
std::string Bar(int n, const std::string& child = kBarChild) {
  std::string points, hexahedra, held;
  const auto p = [&](int i, int j, int k) { return std::to_string(i + (n + 1) * (j + 3 * k)); };
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= 2; ++j)
      for (int i = 0; i <= n; ++i)
        points += std::to_string(i) + " " + std::to_string(j) + " " + std::to_string(k) + "  ";
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < n; ++i)
      hexahedra += p(i, j, 0) + " " + p(i + 1, j, 0) + " " + p(i + 1, j + 1, 0) + " " +
                   p(i, j + 1, 0) + " " + p(i, j, 1) + " " + p(i + 1, j, 1) + " " +
                   p(i + 1, j + 1, 1) + " " + p(i, j + 1, 1) + "  ";
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= 2; ++j) held += p(n, j, k) + " ";
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  )" + std::string(kPipeline) +
         R"(
  )" + Floor(1) +
         R"(
  <Node name="bar">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="400" tolerance="1e-14" threshold="1e-30"/>
  <HexahedronSetTopologyContainer name="topo" position=")" +
         points + R"(" hexahedra=")" + hexahedra + R"("/>
  <HexahedronSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity="2"/>
  <HexahedralFEMForceField name="fem" youngModulus="300" poissonRatio="0.3"/>
  <FixedProjectiveConstraint name="fix" indices=")" +
         held + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
  )" + child +
         R"(
  </Node>
</Node>)";
}

std::string SheetRemovals(int nx) {
  return "T= 0.02\nREMOVE= 1\n" + std::to_string(nx + 2) + "\nT= 0.04\nREMOVE= 1\n0\n" +
         "T= 0.06\nREMOVE= 2\n1 " + std::to_string(nx) + "\n";
}

std::string BarRemovals(int n) {
  return "T= 0.02\nREMOVE= 1\n2\nT= 0.04\nREMOVE= 2\n0 " + std::to_string(n) +
         "\nT= 0.06\nREMOVE= 1\n1\n";
}

// Writes `process` and loads `xml` into a fresh folder named `name`, in place or rebuilt.
Simulation LoadWithProcess(const std::string& name, const std::string& xml,
                           const std::string& process, bool rebuild) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("fluxion_element_child_" + name);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << process;
  SetRebuild(rebuild);
  Simulation simulation = LoadScene(xml, (folder / "scene.scn").string());
  SetRebuild(false);
  std::filesystem::remove_all(folder);
  return simulation;
}

// The child node's topology as the simulation holds it now.
std::shared_ptr<const Topology> ChildTopology(const Simulation& simulation,
                                              const std::string& path) {
  for (const TopologyModel& model : NodeTopologies(simulation))
    if (model.node_path == path) return model.topology;
  return nullptr;
}

struct ChildCase {
  const char* name;
  bool bar;
};

void PrintTo(const ChildCase& c, std::ostream* out) { *out << c.name; }

class ElementChildRemoval : public ElementChild, public ::testing::WithParamInterface<ChildCase> {};

// x and v at every step, the parent's and the child's elements (the child's order is SOFA's
// mapping's), the stiffness of the child's fields: the bits of the rebuild; the three removals
// followed in place (the state's buffer kept); the counts of the file comment.
TEST_P(ElementChildRemoval, GivesTheBitsOfTheRebuildAtEveryStep) {
  const bool bar = GetParam().bar;
  const int n = 5;
  const std::string xml = bar ? Bar(n) : Sheet(n);
  const std::string process = bar ? BarRemovals(n) : SheetRemovals(n);
  const std::string name = GetParam().name;
  const std::string child = bar ? "root/bar/Q" : "root/sheet/T";
  Simulation rebuilt = LoadWithProcess(name + "_rebuilt", xml, process, true);
  Simulation in_place = LoadWithProcess(name + "_in_place", xml, process, false);
  const auto elements = [&](const Simulation& s) {
    const Topology& t = *s.model().objects[1].topology;
    return bar ? t.hexahedra.size() : t.quads.size();
  };
  const std::vector<std::string> fields =
      bar ? std::vector<std::string>{"root/bar/fem", child + "/bending"}
          : std::vector<std::string>{"root/sheet/quad_bending", child + "/membrane",
                                     child + "/bending"};
  EXPECT_EQ(ChildTopology(in_place, child)->triangles.size(), bar ? 0u : 30u);
  EXPECT_EQ(ChildTopology(in_place, child)->quads.size(), bar ? 6u * n + 4 : 0u);
  int changes = 0, changes_kept = 0;
  for (int k = 0; k < 40; ++k) {
    const double* before = in_place.position(1).data();
    const std::size_t count = elements(in_place);
    in_place.Step();
    rebuilt.Step();
    if (elements(in_place) != count) {
      ++changes;
      if (in_place.position(1).data() == before) ++changes_kept;
    }
    ASSERT_TRUE(in_place.position(1) == rebuilt.position(1)) << "step " << k + 1;
    ASSERT_TRUE(in_place.velocity(1) == rebuilt.velocity(1)) << "step " << k + 1;
    const std::shared_ptr<const Topology> a = ChildTopology(in_place, child),
                                          b = ChildTopology(rebuilt, child);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(a->triangles, b->triangles) << "step " << k + 1;
    ASSERT_EQ(a->quads, b->quads) << "step " << k + 1;
    ASSERT_EQ(a->edges, b->edges) << "step " << k + 1;
    for (const std::string& field : fields) {
      const SparseMatrix ka = in_place.ComponentMatrix(field, ComponentMatrixKind::kStiffness);
      const SparseMatrix kb = rebuilt.ComponentMatrix(field, ComponentMatrixKind::kStiffness);
      ASSERT_EQ(ka.rows(), kb.rows()) << field << " step " << k + 1;
      ASSERT_EQ((ka - kb).norm(), 0.0) << field << " step " << k + 1;
    }
  }
  EXPECT_EQ(changes, 3);
  EXPECT_EQ(changes_kept, 3);
  const std::shared_ptr<const Topology> surface = ChildTopology(in_place, child);
  if (bar) {
    EXPECT_EQ(elements(in_place), 6u);
    EXPECT_EQ(surface->quads.size(), 24u);
  } else {
    EXPECT_EQ(elements(in_place), 11u);
    EXPECT_EQ(surface->triangles.size(), 2 * 11u);
  }
  // The body reached the floor (the collision models were exercised).
  double lowest = 0.0;
  const Vector& x = in_place.position(1);
  for (Index p = 0; p < x.size() / 3; ++p) lowest = std::min(lowest, x[3 * p + (bar ? 1 : 2)]);
  EXPECT_LT(lowest, -0.2);
}

INSTANTIATE_TEST_SUITE_P(Children, ElementChildRemoval,
                         ::testing::Values(ChildCase{"quad2triangle", false},
                                           ChildCase{"hexa2quad", true}),
                         [](const ::testing::TestParamInfo<ChildCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

// Removals and additions (SOFA's ADD= Quads / Hexahedra) in turn, without the FEMs: in place and
// through the rebuild the same bits at every step, every change followed in place. The sheet: quad
// (2, 1) removed and added back, then quads (1, 0) and (3, 2); its child has two triangles per quad
// again (30). The bar: hexahedron (2, 0) removed and added back, then (3, 1);
// Hexa2QuadTopologicalMapping has no handler for added hexahedra, so the surface keeps the faces
// the removal uncovered: 6·5 + 4 = 34 quads after the first removal (3 faces gone, 3 uncovered),
// still 34 once it is back.
TEST_P(ElementChildRemoval, AdditionsGiveTheBitsOfTheRebuild) {
  const bool bar = GetParam().bar;
  const int n = 5;
  std::string xml = bar ? Bar(n) : Sheet(n);
  // Without the FEMs: their new elements' rest data go through the rebuild (the child's membrane
  // on the triangles of added quads, the bar's hexahedral FEM).
  const std::string membrane =
      R"(<TriangularFEMForceField name="membrane" youngModulus="400" poissonRatio="0.3" )"
      R"(method="large"/>)";
  if (!bar) xml.erase(xml.find(membrane), membrane.size());
  if (bar) {
    const std::string fem =
        R"(<HexahedralFEMForceField name="fem" youngModulus="300" poissonRatio="0.3"/>)";
    xml.erase(xml.find(fem), fem.size());
  }
  const auto p = [&](int i, int j, int k) { return std::to_string(i + (n + 1) * (j + 3 * k)); };
  const auto q = [&](int i, int j) { return std::to_string(i + (n + 1) * j); };
  const auto hexahedron = [&](int i, int j) {
    return p(i, j, 0) + " " + p(i + 1, j, 0) + " " + p(i + 1, j + 1, 0) + " " + p(i, j + 1, 0) +
           " " + p(i, j, 1) + " " + p(i + 1, j, 1) + " " + p(i + 1, j + 1, 1) + " " +
           p(i, j + 1, 1);
  };
  const auto quad = [&](int i, int j) {
    return q(i, j) + " " + q(i + 1, j) + " " + q(i + 1, j + 1) + " " + q(i, j + 1);
  };
  // The removed element's slot takes the last one; the addition appends it again.
  const std::string process =
      bar ? "T= 0.02\nREMOVE= 1\n2\nT= 0.04\nADD= Hexahedra 1\n" + hexahedron(2, 0) +
                "\nT= 0.06\nREMOVE= 1\n8\nT= 0.08\nADD= Hexahedra 1\n" + hexahedron(3, 1) + "\n"
          : "T= 0.02\nREMOVE= 1\n7\nT= 0.04\nADD= Quads 1\n" + quad(2, 1) +
                "\nT= 0.06\nREMOVE= 2\n1 13\nT= 0.08\nADD= Quads 2\n" + quad(1, 0) + "  " +
                quad(3, 2) + "\n";
  const std::string name = std::string(GetParam().name) + "_additions";
  const std::string child = bar ? "root/bar/Q" : "root/sheet/T";
  Simulation rebuilt = LoadWithProcess(name + "_rebuilt", xml, process, true);
  Simulation in_place = LoadWithProcess(name + "_in_place", xml, process, false);
  int changes = 0, changes_kept = 0;
  std::vector<std::size_t> surface_counts;
  for (int k = 0; k < 12; ++k) {
    const double* before = in_place.position(1).data();
    const Topology& t = *in_place.model().objects[1].topology;
    const std::size_t count = bar ? t.hexahedra.size() : t.quads.size();
    in_place.Step();
    rebuilt.Step();
    const Topology& after = *in_place.model().objects[1].topology;
    if ((bar ? after.hexahedra.size() : after.quads.size()) != count) {
      ++changes;
      if (in_place.position(1).data() == before) ++changes_kept;
      const std::shared_ptr<const Topology> surface = ChildTopology(in_place, child);
      surface_counts.push_back(bar ? surface->quads.size() : surface->triangles.size());
    }
    ASSERT_TRUE(in_place.position(1) == rebuilt.position(1)) << "step " << k + 1;
    ASSERT_TRUE(in_place.velocity(1) == rebuilt.velocity(1)) << "step " << k + 1;
    const Topology& b = *rebuilt.model().objects[1].topology;
    ASSERT_EQ(after.hexahedra, b.hexahedra) << "step " << k + 1;
    ASSERT_EQ(after.quads, b.quads) << "step " << k + 1;
    ASSERT_EQ(after.edges, b.edges) << "step " << k + 1;
    const std::shared_ptr<const Topology> sa = ChildTopology(in_place, child),
                                          sb = ChildTopology(rebuilt, child);
    ASSERT_EQ(sa->triangles, sb->triangles) << "step " << k + 1;
    ASSERT_EQ(sa->quads, sb->quads) << "step " << k + 1;
    ASSERT_EQ(sa->edges, sb->edges) << "step " << k + 1;
    for (const std::string field : {"/mass", "/bending"}) {
      const std::string path =
          (bar ? "root/bar" : "root/sheet") +
          (field == std::string("/mass") ? field
                                         : "/" + child.substr(child.rfind('/') + 1) + field);
      const ComponentMatrixKind kind = field == std::string("/mass")
                                           ? ComponentMatrixKind::kMass
                                           : ComponentMatrixKind::kStiffness;
      ASSERT_EQ((in_place.ComponentMatrix(path, kind) - rebuilt.ComponentMatrix(path, kind)).norm(),
                0.0)
          << path << " step " << k + 1;
    }
  }
  EXPECT_EQ(changes, 4);
  EXPECT_EQ(changes_kept, 4);
  if (bar) {
    EXPECT_EQ(surface_counts[0], 34u);
    EXPECT_EQ(surface_counts[1], 34u);
  } else {
    EXPECT_EQ(surface_counts, (std::vector<std::size_t>{28, 30, 26, 30}));
  }
}

// A membrane on the Quad2Triangle child would take elements on the triangles of added quads,
// whose rest data is not computed in place: the removal is followed in place, the addition goes
// through the rebuild (the state's buffer replaced), and the run keeps the rebuild's bits.
TEST_F(ElementChild, AMembraneOnAddedQuadsGoesThroughTheRebuild) {
  const std::string process = "T= 0.02\nREMOVE= 1\n7\nT= 0.04\nADD= Quads 1\n8 9 15 14\n";
  Simulation rebuilt = LoadWithProcess("membrane_rebuilt", Sheet(5), process, true);
  Simulation in_place = LoadWithProcess("membrane_in_place", Sheet(5), process, false);
  std::vector<bool> kept;
  for (int k = 0; k < 6; ++k) {
    const double* before = in_place.position(1).data();
    in_place.Step();
    rebuilt.Step();
    kept.push_back(in_place.position(1).data() == before);
    ASSERT_TRUE(in_place.position(1) == rebuilt.position(1)) << "step " << k + 1;
    ASSERT_TRUE(in_place.velocity(1) == rebuilt.velocity(1)) << "step " << k + 1;
  }
  // Steps 3 (t = 0.02: the removal) and 5 (t = 0.04: the addition).
  EXPECT_TRUE(kept[2]);
  EXPECT_FALSE(kept[4]);
  EXPECT_EQ(in_place.model().objects[1].topology->quads.size(), 15u);
  EXPECT_EQ(ChildTopology(in_place, "root/sheet/T")->triangles.size(), 30u);
}

// Allocations of the step that applies the second removal (the first makes the follow), less
// those of a plain step: the same for a body of 4 times the elements. The rebuild allocates far
// more.
TEST_F(ElementChild, ARemovalCostsTheSameWhateverTheSize) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const auto change_allocations = [&](bool bar, int n, bool rebuild) {
    // Without gravity and floor contact: the plain steps are alike.
    std::string xml = bar ? Bar(n) : Sheet(n);
    for (const char* gravity : {"0 -9.81 0", "0 0 -9.81"})
      if (const auto at = xml.find(gravity); at != std::string::npos)
        xml.replace(at, std::string(gravity).size(), "0 0 0");
    // The collision models re-read the whole output (as SOFA's updateFromTopology): their cost is
    // the model's size (build/in_place_collision.h), not counted here.
    const std::string model = R"(<TriangleCollisionModel contactStiffness="200"/>)";
    xml.erase(xml.find(model), model.size());
    Simulation simulation =
        LoadWithProcess(std::string("allocations_") + (bar ? "bar_" : "sheet_") + std::to_string(n),
                        xml, bar ? BarRemovals(n) : SheetRemovals(n), rebuild);
    for (int k = 0; k < 3; ++k) simulation.Step();  // the first removal at t = 0.02
    simulation.Step();                              // t = 0.03: plain
    const double* state = simulation.position(1).data();
    long before = conformance::AllocationCount();
    simulation.Step();  // t = 0.04: the second removal (freeing points), then the step
    EXPECT_EQ(simulation.position(1).data() == state, !rebuild);
    const long change = conformance::AllocationCount() - before;
    before = conformance::AllocationCount();
    simulation.Step();  // t = 0.05: plain
    const long plain = conformance::AllocationCount() - before;
    return change - plain;
  };
  for (const bool bar : {false, true}) {
    const long small = change_allocations(bar, 5, false);
    const long large = change_allocations(bar, 20, false);
    const long rebuilt = change_allocations(bar, 5, true);
    const std::string name = bar ? "bar" : "sheet";
    RecordProperty("in_place_5_" + name, std::to_string(small));
    RecordProperty("in_place_20_" + name, std::to_string(large));
    RecordProperty("rebuild_5_" + name, std::to_string(rebuilt));
    EXPECT_EQ(small, large) << name;
    EXPECT_GT(rebuilt, 10 * std::max(small, 1L)) << name;
  }
}

}  // namespace
}  // namespace fluxion
