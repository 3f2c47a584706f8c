// Removals and additions of triangles on a cloth whose border is a
// Triangle2EdgeTopologicalMapping's output in a child node carrying an EdgePressureForceField on
// its edges (SOFA's RemovingTriangle2EdgeProcess.scn), followed through the rebuild and in place
// (build/edge_child_in_place.h). The cloth is tests/support/cloth_grid.h's: point p = i + side·j
// at (i, j, 0), cell (i, j) cut into triangles 2c = (p, p+1, p+side+1) and
// 2c + 1 = (p, p+side+1, p+side), c = i + (side − 1)·j.
#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "conformance/allocation_counter.h"
#include "fluxion/node_topologies.h"
#include "support/cloth_grid.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class EdgeChild : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

void SetRebuild(bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
}

// A folder of its own for each test (ctest -j2 runs tests side by side), removed at the end.
class Folder {
 public:
  explicit Folder(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("fluxion_edge_child_" + name)) {
    std::filesystem::create_directories(path_);
  }
  ~Folder() { std::filesystem::remove_all(path_); }
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;
  void Process(const std::string& text) const { std::ofstream(path_ / "process.txt") << text; }
  std::string Scene() const { return (path_ / "cloth.scn").string(); }

 private:
  std::filesystem::path path_;
};

// RemovingTriangle2EdgeProcess.scn's components on a cloth of side × side points.
constexpr const char* kSofaFields =
    R"(<DiagonalMass name="mass" massDensity="1.0"/>
  <TriangularFEMForceField name="FEM" method="large" poissonRatio="0.3" youngModulus="60"/>
  <TriangularBendingSprings name="bend" stiffness="300" damping="1"/>)";

std::string Cloth(int side, const std::string& fields, const std::string& gravity = "0 0 -9") {
  const testing::ClothGridText grid = testing::ClothGrid(side);
  return R"(<Node name="root" dt="0.01" gravity=")" + gravity + R"(">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="25" tolerance="1e-5" threshold="1e-10"/>
  <TriangleSetTopologyContainer name="Triangle_topo" position=")" +
         grid.points + R"(" triangles=")" + grid.triangles + R"("/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  )" + fields +
         R"(
  <TopologicalChangeProcessor filename="process.txt"/>
  <Node name="Edge Mesh">
    <EdgeSetTopologyContainer name="Edge_topo"/>
    <EdgeSetTopologyModifier/>
    <EdgeSetGeometryAlgorithms template="Vec3"/>
    <Triangle2EdgeTopologicalMapping input="@../Triangle_topo" output="@Edge_topo"/>
    <EdgePressureForceField name="pressure" edges="@Edge_topo.edges" pressure="0 0 1" normal="0 0 1" mstate="@../dofs"/>
  </Node>
</Node>)";
}

// The child's edges as the simulation holds them now.
std::shared_ptr<const Topology> Border(const Simulation& simulation) {
  for (const TopologyModel& model : NodeTopologies(simulation))
    if (model.node_path == "root/Edge Mesh") return model.topology;
  return nullptr;
}

// Removals on a 6 × 6 cloth (50 triangles): a corner triangle (0: the border gains its diagonal
// and side (1, 7)), an interior hole (cell 12), a whole cell freeing its corner point 5
// (triangles 8 and 9), a strip freeing points, three triangles here and there.
constexpr const char* kRemovals =
    "T= 0.02\nREMOVE= 1\n0\n"
    "T= 0.04\nREMOVE= 2\n24 25\n"
    "T= 0.06\nREMOVE= 2\n8 9\n"
    "T= 0.08\nREMOVE= 4\n2 3 4 5\n"
    "T= 0.10\nREMOVE= 3\n40 10 33\n";
// Removals and additions: the hole of cell 12 and the corner put back (the border loses the
// sides they cover), then removals after them.
constexpr const char* kAdditions =
    "T= 0.02\nREMOVE= 1\n0\n"
    "T= 0.04\nREMOVE= 2\n24 25\n"
    "T= 0.06\nADD= Triangles 2\n14 15 21 14 21 20\n"
    "T= 0.08\nADD= Triangles 1\n0 1 7\n"
    "T= 0.10\nREMOVE= 2\n8 9\n"
    "T= 0.12\nREMOVE= 3\n40 10 33\n";
// SOFA's AddingTriangle2EdgeProcess.scn's kind of fields: additions follow a membrane and a
// density mass in place (not bending springs: build/addition_in_place.h).
constexpr const char* kMembrane =
    R"(<DiagonalMass name="mass" massDensity="1.0"/>
  <TriangularFEMForceField name="FEM" method="large" poissonRatio="0.3" youngModulus="60"/>)";

// In place (the object's state never reallocated: no rebuild) and through the rebuild, the same
// bits every step — positions, velocities, the border's edges.
void ExpectTheRebuildsBits(const std::string& name, const std::string& fields,
                           const std::string& changes) {
  const Folder folder(name);
  folder.Process(changes);
  SetRebuild(true);
  Simulation rebuilt = LoadScene(Cloth(6, fields), folder.Scene());
  SetRebuild(false);
  Simulation in_place = LoadScene(Cloth(6, fields), folder.Scene());
  in_place.Step();
  const double* state = in_place.position(0).data();
  rebuilt.Step();
  for (int k = 1; k < 20; ++k) {
    in_place.Step();
    rebuilt.Step();
    ASSERT_EQ(Border(in_place)->edges, Border(rebuilt)->edges) << name << ", step " << k + 1;
    ASSERT_TRUE(in_place.position(0) == rebuilt.position(0)) << name << ", step " << k + 1;
    ASSERT_TRUE(in_place.velocity(0) == rebuilt.velocity(0)) << name << ", step " << k + 1;
  }
  EXPECT_EQ(in_place.position(0).data(), state) << name << ": a change went through the rebuild";
  EXPECT_EQ(in_place.model().objects[0].topology->triangles,
            rebuilt.model().objects[0].topology->triangles)
      << name;
}

TEST_F(EdgeChild, RemovalsInPlaceGiveTheRebuildsBitsEveryStep) {
  ExpectTheRebuildsBits("removals", kSofaFields, kRemovals);
}

TEST_F(EdgeChild, AdditionsInPlaceGiveTheRebuildsBitsEveryStep) {
  ExpectTheRebuildsBits("additions", kMembrane, kAdditions);
}

// A container of points only (SOFA's AddingTriangle2EdgeProcess.scn: its membrane built without
// elements, build/empty_element_fields.h) grows by additions, its border with it: every addition
// followed in place, the rebuild's bits every step, and the border of the whole 4 × 4 cloth at the
// end (its 12 outer sides).
TEST_F(EdgeChild, AnEmptyContainerGrowsInPlace) {
  const Folder folder("empty");
  folder.Process(
      "T= 0.02\nADD= Triangles 2\n0 1 5 0 5 4\n"
      "T= 0.04\nADD= Triangles 4\n1 2 6 1 6 5 2 3 7 2 7 6\n"
      "T= 0.06\nADD= Triangles 6\n4 5 9 4 9 8 5 6 10 5 10 9 6 7 11 6 11 10\n"
      "T= 0.08\nADD= Triangles 6\n8 9 13 8 13 12 9 10 14 9 14 13 10 11 15 10 15 14\n");
  std::string xml = Cloth(4, R"(<UniformMass name="mass" totalMass="1"/>
  <FixedProjectiveConstraint indices="0 3"/>
  <TriangularFEMForceField name="FEM" method="large" poissonRatio="0.3" youngModulus="60"/>)");
  // The container given the points alone.
  const std::size_t from = xml.find(R"(" triangles=")");
  xml.erase(from + 1, xml.find('"', from + 13) - from);
  ASSERT_EQ(xml.find("triangles="), std::string::npos);
  SetRebuild(true);
  Simulation rebuilt = LoadScene(xml, folder.Scene());
  SetRebuild(false);
  Simulation in_place = LoadScene(xml, folder.Scene());
  ASSERT_TRUE(in_place.model().objects[0].topology->triangles.empty());
  const double* state = in_place.position(0).data();
  for (int k = 0; k < 12; ++k) {
    in_place.Step();
    rebuilt.Step();
    ASSERT_EQ(Border(in_place)->edges, Border(rebuilt)->edges) << "step " << k + 1;
    ASSERT_TRUE(in_place.position(0) == rebuilt.position(0)) << "step " << k + 1;
    ASSERT_TRUE(in_place.velocity(0) == rebuilt.velocity(0)) << "step " << k + 1;
  }
  EXPECT_EQ(in_place.position(0).data(), state) << "an addition went through the rebuild";
  EXPECT_EQ(in_place.model().objects[0].topology->triangles.size(), 18u);
  EXPECT_EQ(Border(in_place)->edges.size(), 12u);
}

// −F·x of the pressure with the cloth lifted to z = 1, at rest otherwise (no gravity, a uniform
// mass: the pressure is the only load): each border edge of rest length L gives its two ends
// (0, 0, L/2), so −(the border's length).
double LiftedEnergy(Simulation& simulation) {
  const Topology& topology = *simulation.model().objects[0].topology;
  Vector x(static_cast<Index>(3 * topology.points.size()));
  for (std::size_t p = 0; p < topology.points.size(); ++p)
    for (std::size_t a = 0; a < 3; ++a)
      x[static_cast<Index>(3 * p + a)] = a == 2 ? 1.0 : topology.points[p][a];
  simulation.SetPosition(0, x);
  simulation.SetVelocity(0, Vector::Zero(x.size()));
  return simulation.PotentialEnergy();
}

// By hand on the 6 × 6 cloth: the border is 20 unit edges (length 20); removing corner triangle
// 0 = (0, 1, 7) takes side (0, 1) and uncovers (1, 7) and the diagonal (0, 7): 21 edges,
// 20 + √2; the hole of cell 12 (triangles 24 and 25, points 14 15 21 20) adds its four sides:
// 25 edges, 24 + √2; then cell 4's two triangles (8, 9: points 4 5 11 10) free corner point 5:
// sides (4, 5) and (5, 11) go, (4, 10) and (10, 11) come: still 25 edges, 24 + √2.
TEST_F(EdgeChild, TheBorderAndItsPressureFollowTheRemovalsByHand) {
  const Folder folder("hand");
  folder.Process(kRemovals);
  const std::string xml = Cloth(6, R"(<UniformMass name="mass" vertexMass="1"/>)", "0 0 0");
  for (const bool rebuild : {true, false}) {
    SetRebuild(rebuild);
    for (const auto& [steps, edges, length] :
         {std::tuple{1, 20u, 20.0}, std::tuple{3, 21u, 20 + std::sqrt(2.0)},
          std::tuple{5, 25u, 24 + std::sqrt(2.0)}, std::tuple{7, 25u, 24 + std::sqrt(2.0)}}) {
      Simulation simulation = LoadScene(xml, folder.Scene());
      for (int k = 0; k < steps; ++k) simulation.Step();
      EXPECT_EQ(Border(simulation)->edges.size(), edges)
          << (rebuild ? "rebuild" : "in place") << ", " << steps << " steps";
      EXPECT_NEAR(LiftedEnergy(simulation), -length, 1e-12)
          << (rebuild ? "rebuild" : "in place") << ", " << steps << " steps";
    }
  }
}

// Allocations of the step that applies the second change (the first makes the follow), less those
// of a plain step: the same on a 7 × 7 and a 13 × 13 cloth (a membrane and a density mass), for a
// removal and an addition. The rebuild allocates far more.
TEST_F(EdgeChild, AChangeCostsTheSameWhateverTheClothSize) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const Folder folder("allocations");
  const auto change_allocations = [&](int side, const std::string& second, bool rebuild) {
    folder.Process("T= 0.02\nREMOVE= 1\n0\nT= 0.04\n" + second + "\n");
    SetRebuild(rebuild);
    Simulation simulation = LoadScene(Cloth(side, kMembrane), folder.Scene());
    for (int k = 0; k < 3; ++k) simulation.Step();  // the first removal at t = 0.02
    simulation.Step();                              // t = 0.03: plain
    const double* state = simulation.position(0).data();
    long before = conformance::AllocationCount();
    simulation.Step();  // t = 0.04: the second change, then the step
    EXPECT_EQ(simulation.position(0).data() == state, !rebuild);
    const long change = conformance::AllocationCount() - before;
    before = conformance::AllocationCount();
    simulation.Step();  // t = 0.05: plain
    const long plain = conformance::AllocationCount() - before;
    return change - plain;
  };
  // Cell (2, 1), interior on both sizes: its two triangles removed, or corner triangle 0 put
  // back.
  for (const bool removal : {true, false}) {
    const auto second = [&](int side) {
      const int cell = 2 + (side - 1);
      const std::string hole =
          "REMOVE= 2\n" + std::to_string(2 * cell) + " " + std::to_string(2 * cell + 1);
      return removal ? hole : "ADD= Triangles 1\n0 1 " + std::to_string(side + 1);
    };
    const std::string name = removal ? "removal" : "addition";
    const long small = change_allocations(7, second(7), false);
    const long large = change_allocations(13, second(13), false);
    const long rebuilt = change_allocations(7, second(7), true);
    RecordProperty(std::string("in_place_7_") + name, std::to_string(small));
    RecordProperty(std::string("in_place_13_") + name, std::to_string(large));
    RecordProperty(std::string("rebuild_7_") + name, std::to_string(rebuilt));
    EXPECT_EQ(small, large) << name;
    EXPECT_GT(rebuilt, 10 * std::max(small, 1L)) << name;
  }
}

// The edge pressure given its edges as a list of its own is not read again by a build: such a
// child goes through the rebuild (the same bits, no follow).
TEST_F(EdgeChild, APressureOnListedEdgesGoesThroughTheRebuild) {
  const Folder folder("listed");
  folder.Process("T= 0.02\nREMOVE= 1\n30\n");
  std::string xml = Cloth(6, kSofaFields);
  const std::string link = R"(edges="@Edge_topo.edges")";
  xml.replace(xml.find(link), link.size(), R"(edges="0 1 1 2")");
  Simulation simulation = LoadScene(xml, folder.Scene());
  simulation.Step();
  const double* state = simulation.position(0).data();
  for (int k = 0; k < 3; ++k) simulation.Step();
  EXPECT_NE(simulation.position(0).data(), state);
}

}  // namespace
}  // namespace fluxion
