// Removals of quads and hexahedra followed in place (build/quad_hexahedron_in_place.h) against
// the rebuild of the scene (build/topology_rebuild.cpp), the reference: FLUXION_TOPOLOGY_REBUILD=1
// makes every change a rebuild.
//
// The hexahedral bar: n × 2 × 1 unit cubes, point (i, j, k) numbered i + (n + 1)(j + 3k),
// hexahedron (i, j) numbered i + n·j, held at its end x = n (the six points there) under gravity
// −y; EulerImplicitSolver with CGLinearSolver run to round-off. The removals (ids as each line is
// read: each removed slot takes the hexahedron then last):
//  t = 0.02: hexahedron 2 ((2, 0)): no point freed (each of its corners is in a neighbour);
//            the last, (n − 1, 1), takes slot 2;
//  t = 0.04: 0 and n ((0, 0), (0, 1)): the six points at x = 0 are freed, the last points (the
//            held ones among them) moved into their slots;
//  t = 0.06: 1 ((1, 0)): its points (1, 0, k) and, (2, 0) gone, (2, 0, k) are left without a
//            hexahedron.
// 6 hexahedra and 26 points remain, joined through the row j = 1.
// The quad sheet: nx × 3 unit quads in the plane z = 0, point (i, j) numbered i + (nx + 1) j,
// quad (i, j) numbered i + nx·j, held along its edge y = 3 (the last points), under gravity −z.
// Removals: t = 0.02 quad nx + 2 ((2, 1): no point freed), t = 0.04 quad 0 (frees point 0, the
// last point moved into it), t = 0.06 quads 1 and nx ((1, 0) and (0, 1): the points (1, 0) and
// (0, 1) go). 11 quads and 21 points remain.
#include <gmock/gmock.h>

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
#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class QuadHexahedronInPlace : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

void SetRebuild(bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
}

constexpr const char* kDensityMass = R"(<DiagonalMass name="mass" massDensity="2"/>)";
constexpr const char* kLargeFem =
    R"(<HexahedronFEMForceField name="fem" youngModulus="2000" poissonRatio="0.3" method="large"/>)";

constexpr const char* kHexahedronRemovals =
    "T= 0.02\nREMOVE= 1\n2\nT= 0.04\nREMOVE= 2\n0 {n}\nT= 0.06\nREMOVE= 1\n1\n";

// `text` with {n}, {n2}, {2n2} replaced by n, n + 2, 2n + 2.
std::string WithN(std::string text, int n) {
  for (const auto& [key, value] :
       {std::pair{"{n}", n}, std::pair{"{n2}", n + 2}, std::pair{"{2n2}", 2 * n + 2}})
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key))
      text.replace(at, std::string(key).size(), std::to_string(value));
  return text;
}

// The hexahedral bar of the file comment, n cubes long, with `mass` and `field`, the process
// file process.txt of the scene's folder.
std::string HexahedralBar(int n, const std::string& mass, const std::string& field,
                          double spacing = 1.0) {
  std::string points, hexahedra, held;
  const auto at = [&](int i) {
    std::ostringstream text;
    text << i * spacing;
    return text.str();
  };
  const auto p = [&](int i, int j, int k) { return std::to_string(i + (n + 1) * (j + 3 * k)); };
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= 2; ++j)
      for (int i = 0; i <= n; ++i) points += at(i) + " " + at(j) + " " + at(k) + "  ";
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < n; ++i)
      hexahedra += p(i, j, 0) + " " + p(i + 1, j, 0) + " " + p(i + 1, j + 1, 0) + " " +
                   p(i, j + 1, 0) + " " + p(i, j, 1) + " " + p(i + 1, j, 1) + " " +
                   p(i + 1, j + 1, 1) + " " + p(i, j + 1, 1) + "  ";
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= 2; ++j) held += p(n, j, k) + " ";
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="400" tolerance="1e-14" threshold="1e-30"/>
  <HexahedronSetTopologyContainer name="topo" position=")" +
         points + R"(" hexahedra=")" + hexahedra + R"("/>
  <HexahedronSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  )" + mass +
         "\n  " + field + R"(
  <FixedProjectiveConstraint name="fix" indices=")" +
         held + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
}

// The quad sheet of the file comment, nx quads wide, with `mass` and `fields`.
// `held_row`: the whole edge y = 3 held, else its two first and two last points (as many
// whatever nx).
std::string QuadSheet(int nx, const std::string& mass, const std::string& fields,
                      bool held_row = true) {
  constexpr int ny = 3;
  std::string points, quads, held;
  const auto p = [&](int i, int j) { return std::to_string(i + (nx + 1) * j); };
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) points += std::to_string(i) + " " + std::to_string(j) + " 0  ";
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      quads += p(i, j) + " " + p(i + 1, j) + " " + p(i + 1, j + 1) + " " + p(i, j + 1) + "  ";
  for (int i = 0; i <= nx; ++i)
    if (held_row || i < 2 || i > nx - 2) held += p(i, ny) + " ";
  return R"(<Node name="root" dt="0.01" gravity="0 0 -9.81">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="400" tolerance="1e-14" threshold="1e-30"/>
  <QuadSetTopologyContainer name="topo" position=")" +
         points + R"(" quads=")" + quads + R"("/>
  <QuadSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  )" + mass +
         "\n  " + fields + R"(
  <FixedProjectiveConstraint name="fix" indices=")" +
         held + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
}

constexpr const char* kQuadRemovals =
    "T= 0.02\nREMOVE= 1\n{n2}\nT= 0.04\nREMOVE= 1\n0\nT= 0.06\nREMOVE= 2\n1 {n}\n";

std::string QuadRemovals(int nx) { return WithN(kQuadRemovals, nx); }

// Writes `process` and loads `xml` into a fresh folder named `name`, in place or rebuilt.
Simulation LoadWithProcess(const std::string& name, const std::string& xml,
                           const std::string& process, bool rebuild) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("fluxion_quad_hexahedron_in_place_" + name);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << process;
  SetRebuild(rebuild);
  Simulation simulation = LoadScene(xml, (folder / "scene.scn").string());
  SetRebuild(false);
  std::filesystem::remove_all(folder);
  return simulation;
}

struct RemovalCase {
  const char* name;
  bool hexahedra;
  const char* mass;
  const char* fields;
  std::vector<const char*> components;  // compared matrices (stiffness), besides the mass
};

void PrintTo(const RemovalCase& c, std::ostream* out) { *out << c.name; }

class QuadHexahedronRemoval : public QuadHexahedronInPlace,
                              public ::testing::WithParamInterface<RemovalCase> {};

// x and v at every step, the topology, M and K of each component after every step: the bits of
// the rebuild; the three removals followed in place (the state's buffer kept).
TEST_P(QuadHexahedronRemoval, GivesTheBitsOfTheRebuildAtEveryStep) {
  const RemovalCase& c = GetParam();
  const int n = 5;
  const std::string xml =
      c.hexahedra ? HexahedralBar(n, c.mass, c.fields) : QuadSheet(n, c.mass, c.fields);
  const std::string process = c.hexahedra ? WithN(kHexahedronRemovals, n) : QuadRemovals(n);
  Simulation rebuilt = LoadWithProcess(std::string(c.name) + "_rebuilt", xml, process, true);
  Simulation in_place = LoadWithProcess(std::string(c.name) + "_in_place", xml, process, false);
  const auto elements = [&](const Simulation& s) {
    const Topology& t = *s.model().objects[0].topology;
    return c.hexahedra ? t.hexahedra.size() : t.quads.size();
  };
  int changes = 0, changes_kept = 0;
  for (int k = 0; k < 12; ++k) {
    const double* before = in_place.position(0).data();
    const std::size_t count = elements(in_place);
    in_place.Step();
    rebuilt.Step();
    if (elements(in_place) != count) {
      ++changes;
      if (in_place.position(0).data() == before) ++changes_kept;
    }
    ASSERT_TRUE(in_place.position(0) == rebuilt.position(0)) << "step " << k + 1;
    ASSERT_TRUE(in_place.velocity(0) == rebuilt.velocity(0)) << "step " << k + 1;
    const Topology& a = *in_place.model().objects[0].topology;
    const Topology& b = *rebuilt.model().objects[0].topology;
    ASSERT_EQ(a.points, b.points) << "step " << k + 1;
    ASSERT_EQ(a.hexahedra, b.hexahedra) << "step " << k + 1;
    ASSERT_EQ(a.quads, b.quads) << "step " << k + 1;
    ASSERT_EQ(a.edges, b.edges) << "step " << k + 1;
    std::vector<std::pair<std::string, ComponentMatrixKind>> matrices = {
        {"root/mass", ComponentMatrixKind::kMass}};
    for (const char* component : c.components)
      matrices.emplace_back(component, ComponentMatrixKind::kStiffness);
    for (const auto& [component, kind] : matrices) {
      const SparseMatrix ma = in_place.ComponentMatrix(component, kind);
      const SparseMatrix mb = rebuilt.ComponentMatrix(component, kind);
      ASSERT_EQ(ma.rows(), mb.rows()) << component << " step " << k + 1;
      ASSERT_EQ((ma - mb).norm(), 0.0) << component << " step " << k + 1;
    }
  }
  EXPECT_EQ(changes, 3);
  EXPECT_EQ(changes_kept, 3);
  // What the file comment counts.
  EXPECT_EQ(elements(in_place), c.hexahedra ? 6u : 11u);
  EXPECT_EQ(in_place.position(0).size(), (c.hexahedra ? 26 : 21) * 3);
}

INSTANTIATE_TEST_SUITE_P(
    Fields, QuadHexahedronRemoval,
    ::testing::Values(
        RemovalCase{"hexahedron_fem_large", true, kDensityMass, kLargeFem, {"root/fem"}},
        RemovalCase{"hexahedron_fem_polar_uniform_mass",
                    true,
                    R"(<UniformMass name="mass" vertexMass="0.3"/>)",
                    R"(<HexahedronFEMForceField name="fem" youngModulus="2000" poissonRatio="0.45"
                         method="polar"/>)",
                    {"root/fem"}},
        RemovalCase{"hexahedron_fem_small_springs",
                    true,
                    kDensityMass,
                    R"(<HexahedronFEMForceField name="fem" youngModulus="2000" method="small"/>
                       <MeshSpringForceField name="springs" linesStiffness="300" linesDamping="0.5"/>)",
                    {"root/fem", "root/springs"}},
        RemovalCase{
            "hexahedral_fem",
            true,
            kDensityMass,
            R"(<HexahedralFEMForceField name="fem" youngModulus="2000" poissonRatio="0.3"/>)",
            {"root/fem"}},
        RemovalCase{
            "quad_bending_springs",
            false,
            kDensityMass,
            R"(<MeshSpringForceField name="springs" linesStiffness="500" linesDamping="0.5"/>
                       <QuadularBendingSprings name="bending" stiffness="300" damping="1"/>)",
            {"root/springs", "root/bending"}},
        RemovalCase{
            "quad_springs_uniform_mass",
            false,
            R"(<UniformMass name="mass" vertexMass="0.2"/>)",
            R"(<MeshSpringForceField name="springs" linesStiffness="500" linesDamping="0.5"/>)",
            {"root/springs"}}),
    [](const ::testing::TestParamInfo<RemovalCase>& param_info) {
      return std::string(param_info.param.name);
    });

// With the density mass, the mass left is ρ × the measure left: 2 kg/m³ × 6 unit cubes of the
// bar; 2 kg/m² × 11 unit quads of the sheet. And the held points stay where they were put (they
// are the last points: the removals move them into lower numbers).
TEST_F(QuadHexahedronInPlace, TheMassLeftIsTheDensityTimesTheMeasureLeftAndHeldPointsStay) {
  for (const bool hexahedra : {true, false}) {
    const std::string xml =
        hexahedra
            ? HexahedralBar(5, kDensityMass, kLargeFem)
            : QuadSheet(
                  5, kDensityMass,
                  R"(<MeshSpringForceField name="springs" linesStiffness="500" linesDamping="0.5"/>)");
    Simulation simulation =
        LoadWithProcess(hexahedra ? "mass_hexahedra" : "mass_quads", xml,
                        hexahedra ? WithN(kHexahedronRemovals, 5) : QuadRemovals(5), false);
    const double* state = simulation.position(0).data();
    const double before =
        simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass).sum() / 3.0;
    EXPECT_NEAR(before, hexahedra ? 2.0 * 10.0 : 2.0 * 15.0, 1e-12);
    for (int k = 0; k < 8; ++k) simulation.Step();
    EXPECT_EQ(simulation.position(0).data(), state);  // in place
    const double after =
        simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass).sum() / 3.0;
    EXPECT_NEAR(after, hexahedra ? 2.0 * 6.0 : 2.0 * 11.0, 1e-12);
    // The held points: those whose rest position is on the held edge (x = 5 or y = 3), at it.
    const Topology& topology = *simulation.model().objects[0].topology;
    const Vector& x = simulation.position(0);
    int held = 0;
    for (std::size_t p = 0; p < topology.points.size(); ++p) {
      const auto& rest = topology.points[p];
      if ((hexahedra ? rest[0] : rest[1]) != (hexahedra ? 5.0 : 3.0)) continue;
      ++held;
      EXPECT_TRUE(x.segment<3>(3 * static_cast<Index>(p)) ==
                  Eigen::Vector3d(rest[0], rest[1], rest[2]))
          << "point " << p;
    }
    EXPECT_EQ(held, 6);
  }
}

// EulerImplicit with CG stays stable after the removals: 150 steps later the bar hangs, every
// coordinate finite and within the bar's length of the held end.
TEST_F(QuadHexahedronInPlace, AnImplicitRunStaysStableAfterTheRemovals) {
  Simulation simulation =
      LoadWithProcess("stable", HexahedralBar(5, kDensityMass, kLargeFem),
                      "T= 0.02\nREMOVE= 1\n2\nT= 0.04\nREMOVE= 2\n0 5\n", false);
  const double* state = simulation.position(0).data();
  for (int k = 0; k < 150; ++k) simulation.Step();
  EXPECT_EQ(simulation.position(0).data(), state);
  const Topology& topology = *simulation.model().objects[0].topology;
  const Vector& x = simulation.position(0);
  ASSERT_EQ(x.size(), static_cast<Index>(topology.points.size()) * 3);
  ASSERT_EQ(topology.points.size(), 30u);
  double lowest = 2.0;
  for (Index p = 0; p < 30; ++p) {
    ASSERT_TRUE(x.segment<3>(3 * p).allFinite());
    EXPECT_LE((x.segment<3>(3 * p) - Eigen::Vector3d(5, 1, 0.5)).norm(), 5.0 + std::sqrt(1.25));
    lowest = std::min(lowest, x[3 * p + 1] - topology.points[static_cast<std::size_t>(p)][1]);
  }
  EXPECT_LT(lowest, 0.0);  // it sags
}

// What is not followed goes through the rebuild (the state's buffer replaced): a Young's modulus
// per hexahedron (it stays with its hexahedron in SOFA, with its index in a build); hexahedra
// sharing a stiffness matrix whose shapes differ in round-off (a 0.1 m grid: 0.3 − 0.2 is not
// 0.2 − 0.1), where a build from the reduced mesh may take another element's matrix.
TEST_F(QuadHexahedronInPlace, WhatIsNotFollowedGoesThroughTheRebuild) {
  std::string young;
  for (int h = 0; h < 8; ++h) young += h < 7 ? "2000 " : "3000";
  for (const auto& [field, spacing] :
       {std::pair<std::string, double>{
            "<HexahedronFEMForceField name=\"fem\" youngModulus=\"" + young + "\"/>", 1.0},
        std::pair<std::string, double>{kLargeFem, 0.1}}) {
    Simulation simulation =
        LoadWithProcess("refused", HexahedralBar(4, kDensityMass, field, spacing),
                        "T= 0.01\nREMOVE= 1\n0\n", false);
    const double* before = simulation.position(0).data();
    simulation.Step();
    simulation.Step();
    EXPECT_EQ(simulation.model().objects[0].topology->hexahedra.size(), 7u);
    EXPECT_NE(simulation.position(0).data(), before) << spacing;
  }
}

// Allocations of the step that applies the second removal (the first makes the follow), less
// those of a plain step: the same for a bar (a sheet) of 4 times the elements, for removals that
// free no point and removals that free points. The rebuild allocates far more.
TEST_F(QuadHexahedronInPlace, ARemovalCostsTheSameWhateverTheMeshSize) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  struct Removals {
    const char *name, *first, *second;
    bool hexahedra;
    long bound;  // at most this many allocations more than a plain step
  };
  const auto change_allocations = [&](int n, const Removals& removals, bool rebuild) {
    const std::string xml =
        removals.hexahedra
            ? HexahedralBar(n, kDensityMass, kLargeFem)
            : QuadSheet(
                  n, kDensityMass,
                  R"(<MeshSpringForceField name="springs" linesStiffness="500" linesDamping="0.5"/>
                           <QuadularBendingSprings name="bending" stiffness="300" damping="1"/>)",
                  false);
    Simulation simulation = LoadWithProcess(
        "allocations", xml,
        WithN(std::string("T= 0.02\n") + removals.first + "\nT= 0.04\n" + removals.second + "\n",
              n),
        rebuild);
    SetRebuild(rebuild);                            // the changes read it when they happen
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
    SetRebuild(false);
    return change - plain;
  };
  // No point freed: hexahedra (2, 0) then (2, 1); quads (2, 1) then (2, 2). Points freed: the
  // element 0 ((0, 0): its corner points at x = 0, y = 0), then the one that took its slot (the
  // last: its corner points at the held end's far edge, held ones); quads (0, 0) then (1, 0)
  // (its point (1, 0), the last point moved into it). The sheet holds 4 points whatever its
  // width: the scene's copy of a constraint's index list is written again at each removal of
  // points (build/topology_rebuild.cpp, WritePointFollowers), in allocations that grow with the
  // list.
  for (const Removals& removals :
       {Removals{"hexahedra_no_point", "REMOVE= 1\n2", "REMOVE= 1\n{n2}", true, 30},
        Removals{"hexahedra_freeing", "REMOVE= 1\n0", "REMOVE= 1\n0", true, 100},
        Removals{"quads_no_point", "REMOVE= 1\n{n2}", "REMOVE= 1\n{2n2}", false, 30},
        Removals{"quads_freeing", "REMOVE= 1\n0", "REMOVE= 1\n1", false, 100},
        Removals{"quads_freeing_held", "REMOVE= 1\n0", "REMOVE= 1\n0", false, 100}}) {
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
}

}  // namespace
}  // namespace fluxion
