// TriangularFEMForceField, TriangularFEMForceFieldOptim, TriangularBendingSprings and
// Triangular(Bi)QuadraticSpringsForceField followed in place through removals of triangles
// (build/topology_in_place.h), against the rebuild of the scene (FLUXION_TOPOLOGY_REBUILD=1), the
// reference: topology_in_place_test.cpp's 7 × 7 cloth (spacing 1 m, point i + 7j at (i, j, 0), cell
// (i, j) cut into triangles 2c (p, p+1, p+8) and 2c + 1 (p, p+8, p+7), c = i + 6j, p = i + 7j),
// hanging from its top corners 42 and 48, with a membrane instead of springs: DiagonalMass by
// density, EulerImplicitSolver with CGLinearSolver (matrix free, as SOFA's TopologicalChanges
// examples run).
#include <gmock/gmock.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "conformance/allocation_counter.h"
#include "support/cloth_grid.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class TopologyInPlaceFem : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

constexpr const char* kFem =
    R"(<TriangularFEMForceField name="fem" youngModulus="60" poissonRatio="0.3"/>)";

// The cloth of `side` points per side with `membrane`, the process file `process.txt` of the
// scene's folder, and the corners `fixed` held.
std::string Cloth(int side, const std::string& membrane, const std::string& fixed) {
  const auto [points, triangles] = testing::ClothGrid(side);
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>
  <TriangleSetTopologyContainer name="topo" position=")" +
         points + R"(" triangles=")" + triangles + R"("/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity="2"/>
  )" + membrane +
         R"(
  <FixedProjectiveConstraint name="fix" indices=")" +
         fixed + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
}

std::string Cell(int side, int i, int j) {
  const int c = i + (side - 1) * j;
  return std::to_string(2 * c) + " " + std::to_string(2 * c + 1);
}

void SetRebuild(bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
}

// topology_in_place_test.cpp's point-freeing removals (ids as each line is read): 0.05: cell
// (0, 0), corner 0 freed, point 48 (fixed) moves into its slot; 0.1: cell (5, 0), corner 6
// freed, 47 into 6; 0.15: cells (0, 5) and (2, 2), corner 42 (fixed) freed, 46 into 42; 0.2:
// cell (1, 0), point 1 freed, 45 into 1. And interior cells (3, 3) and (1, 4) at 0.25: no point.
std::string WriteProcess(const std::filesystem::path& folder, int side) {
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.05\nREMOVE= 2\n"
                                        << Cell(side, 0, 0) << "\n"
                                        << "T= 0.1\nREMOVE= 2\n"
                                        << Cell(side, 5, 0) << "\n"
                                        << "T= 0.15\nREMOVE= 4\n"
                                        << Cell(side, 0, 5) << " " << Cell(side, 2, 2) << "\n"
                                        << "T= 0.2\nREMOVE= 2\n"
                                        << Cell(side, 1, 0) << "\n"
                                        << "T= 0.25\nREMOVE= 4\n"
                                        << Cell(side, 3, 3) << " " << Cell(side, 1, 4) << "\n";
  return (folder / "cloth.scn").string();
}

struct MembraneCase {
  const char* name;
  const char* membrane;
};

class FemPointFreeing : public TopologyInPlaceFem,
                        public ::testing::WithParamInterface<MembraneCase> {};

// Every step: the positions, velocities, topology, M and the membrane's K of the in-place run
// are the rebuild's, bit for bit; each of the five changes kept the state's buffer (in place).
TEST_P(FemPointFreeing, GivesTheBitsOfTheRebuildAtEveryStep) {
  constexpr int side = 7;
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       (std::string("fluxion_in_place_fem_") + GetParam().name);
  const std::string file = WriteProcess(folder, side);
  const std::string xml = Cloth(side, GetParam().membrane, "42 48");
  SetRebuild(true);
  Simulation rebuilt = LoadScene(xml, file);
  SetRebuild(false);
  Simulation in_place = LoadScene(xml, file);
  int kept = 0;
  for (int k = 1; k <= 30; ++k) {
    const double* before = in_place.position(0).data();
    const std::size_t triangles = in_place.model().objects[0].topology->triangles.size();
    in_place.Step();
    rebuilt.Step();
    if (in_place.model().objects[0].topology->triangles.size() != triangles &&
        in_place.position(0).data() == before)
      ++kept;
    ASSERT_TRUE(in_place.position(0) == rebuilt.position(0)) << "step " << k;
    ASSERT_TRUE(in_place.velocity(0) == rebuilt.velocity(0)) << "step " << k;
    const Topology& a = *in_place.model().objects[0].topology;
    const Topology& b = *rebuilt.model().objects[0].topology;
    ASSERT_EQ(a.triangles, b.triangles) << "step " << k;
    for (const auto& [component, kind] : {std::pair{"root/mass", ComponentMatrixKind::kMass},
                                          std::pair{"root/fem", ComponentMatrixKind::kStiffness}}) {
      const SparseMatrix ma = in_place.ComponentMatrix(component, kind);
      const SparseMatrix mb = rebuilt.ComponentMatrix(component, kind);
      ASSERT_EQ(ma.rows(), mb.rows()) << component << " step " << k;
      ASSERT_EQ((ma - mb).norm(), 0.0) << component << " step " << k;
    }
  }
  std::filesystem::remove_all(folder);
  EXPECT_EQ(kept, 5);
  EXPECT_EQ(in_place.model().objects[0].num_points, side * side - 4);
  EXPECT_EQ(in_place.model().objects[0].topology->triangles.size(), 2u * 29u);
  // The old corner 48 is point 0, still fixed where it started.
  for (int a = 0; a < 3; ++a)
    EXPECT_EQ(in_place.position(0)[a], (std::array<double, 3>{6.0, 6.0, 0.0})[a]);
}

INSTANTIATE_TEST_SUITE_P(
    Membranes, FemPointFreeing,
    ::testing::Values(MembraneCase{"large", kFem},
                      MembraneCase{"small", R"(<TriangularFEMForceField name="fem" )"
                                            R"(method="small" youngModulus="60"/>)"},
                      MembraneCase{"bending", R"(<TriangularBendingSprings name="fem" )"
                                              R"(stiffness="300" damping="1"/>)"},
                      MembraneCase{"optim", R"(<TriangularFEMForceFieldOptim name="fem" )"
                                            R"(youngModulus="60" poissonRatio="0.3"/>)"},
                      MembraneCase{"quadratic", R"(<TriangularQuadraticSpringsForceField )"
                                                R"(name="fem" youngModulus="60" )"
                                                R"(poissonRatio="0.3" dampingRatio="0.01"/>)"},
                      MembraneCase{"quadratic_edges", R"(<TriangularQuadraticSpringsForceField )"
                                                      R"(name="fem" youngModulus="60" )"
                                                      R"(useAngularSprings="0"/>)"},
                      MembraneCase{"biquadratic",
                                   R"(<TriangularBiquadraticSpringsForceField name="fem" )"
                                   R"(youngModulus="60" poissonRatio="0.3"/>)"},
                      // A load on triangles removed (0, 1, 10), moved (71, 70) and kept.
                      MembraneCase{"pressure",
                                   R"(<TriangularQuadraticSpringsForceField name="fem" )"
                                   R"(youngModulus="60"/>)"
                                   // On a line of its own: the scene's components are keyed
                                   // by their line.
                                   "\n"
                                   R"(<TrianglePressureForceField triangleList=)"
                                   R"("1 70 33 10 71 50 0" pressure="1 2 -3"/>)"}),
    [](const ::testing::TestParamInfo<MembraneCase>& param) {
      return std::string(param.param.name);
    });

// The moved triangle keeps its rest frame on renumbered points (SOFA's TriangleData: the last
// triangle's data moved into the removed slot). Points 0 (0, 0), 1 (1, 0), 2 (0, 1), 3 (1, 1);
// triangles 0 = (0, 1, 2) and 1 = (1, 3, 2). Removing triangle 0 frees point 0; the last point,
// 3 at (1, 1), becomes point 0, and triangle 1 becomes triangle 0 = (1, 0, 2):
// a = (1, 0), b = (1, 1), c = (0, 1).
// By hand, SOFA's large frame of (a, b, c): e_x = (b − a)/|b − a| = (0, 1, 0), e_y = (−1, 0, 0);
// b' = (1, 0), c' = (1, 1), Δ = b'_x·c'_y = 1, g_b = (c'_y, −c'_x) = (1, −1), g_c = (−b'_y,
// b'_x) = (0, 1), g_a = −(g_b + g_c) = (−1, 0). The block of point a with itself is
// Eᵀ·G_aᵀ·D·G_a·E with D = A·E/(1 − ν²)·[1 ν 0; ν 1 0; 0 0 (1 − ν)/2], A = 1/2, E = 60, ν = 0.3:
// G_aᵀ·D·G_a = A·E/(1 − ν²)·diag(1, (1 − ν)/2) in the frame, so in the world (frame x is world
// y, frame y is −world x) yy = A·E/(1 − ν²), xx = A·E/(1 − ν²)·(1 − ν)/2, z and xy 0.
TEST_F(TopologyInPlaceFem, TheMovedTriangleKeepsItsRestFrameOnItsNewPoints) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_in_place_fem_hand";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 1\n0\n";
  const std::string xml = R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="50" tolerance="1e-14" threshold="1e-30"/>
  <TriangleSetTopologyContainer name="topo" position="0 0 0  1 0 0  0 1 0  1 1 0"
                                triangles="0 1 2  1 3 2"/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity="2"/>
  )" + std::string(kFem) + R"(
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
  Simulation simulation = LoadScene(xml, (folder / "cloth.scn").string());
  const double* before = simulation.position(0).data();
  simulation.Step();
  simulation.Step();
  std::filesystem::remove_all(folder);
  EXPECT_EQ(simulation.position(0).data(), before);  // followed in place
  ASSERT_EQ(simulation.model().objects[0].num_points, 3);
  EXPECT_EQ(simulation.model().objects[0].topology->triangles,
            (std::vector<std::array<Index, 3>>{{1, 0, 2}}));
  const Eigen::MatrixXd k =
      Eigen::MatrixXd(simulation.ComponentMatrix("root/fem", ComponentMatrixKind::kStiffness));
  const double c = 0.5 * 60.0 / (1.0 - 0.3 * 0.3);
  // No force moved anything (no gravity, the rest shape): K is the rest stiffness.
  EXPECT_NEAR(std::abs(k(3 + 1, 3 + 1)), c, 1e-12);
  EXPECT_NEAR(std::abs(k(3 + 0, 3 + 0)), c * (1.0 - 0.3) / 2.0, 1e-12);
  EXPECT_NEAR(k(3 + 2, 3 + 2), 0.0, 1e-12);
  EXPECT_NEAR(k(3 + 0, 3 + 1), 0.0, 1e-12);
}

// TriangularBendingSprings after a removal: the springs across the edges left with two triangles.
// A 3 × 3 cloth (8 triangles) has 8 interior edges: 4 cell diagonals, whose springs join the
// cell's other corners (rest length √2), and 4 sides between cells, whose springs join the
// far corners of the two cells (√5). Removing cell (1, 1) (triangles 6, 7; point 8, the last,
// is freed) takes its diagonal and the two sides it shared with cells (1, 0) and (0, 1): 3
// diagonals and 2 sides are left. Stretched to twice the rest positions (no gravity), each spring
// stores ½·ks·L0², so the energy is ½·300·(3·2 + 2·5) = 2400 J (4200 J before the removal).
TEST_F(TopologyInPlaceFem, BendingSpringsAreThoseOfTheEdgesLeftWithTwoTriangles) {
  constexpr int side = 3;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_in_place_bending_hand";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 2\n" << Cell(side, 1, 1) << "\n";
  std::string xml = Cloth(side, R"(<TriangularBendingSprings name="bend" stiffness="300"/>)", "6");
  xml.replace(xml.find("0 -9.81 0"), 9, "0 0 0");
  Simulation simulation = LoadScene(xml, (folder / "cloth.scn").string());
  const Vector rest = simulation.position(0);
  simulation.SetPosition(0, 2.0 * rest);
  EXPECT_NEAR(simulation.PotentialEnergy(), 0.5 * 300.0 * 28.0, 1e-9);
  simulation.SetPosition(0, rest);
  const double* before = simulation.position(0).data();
  simulation.Step();
  simulation.Step();
  std::filesystem::remove_all(folder);
  EXPECT_EQ(simulation.position(0).data(), before);  // followed in place
  ASSERT_EQ(simulation.model().objects[0].num_points, 8);
  simulation.SetPosition(0, 2.0 * rest.head(24));
  EXPECT_NEAR(simulation.PotentialEnergy(), 0.5 * 300.0 * 16.0, 1e-9);
}

// Delingette's springs after a removal, by hand: the FEM test's square (triangles (0, 1, 2) and
// (1, 3, 2)) loses triangle 0, so point 3 becomes point 0 and the one left is (1, 0, 2):
// a = (1, 0), b = (1, 1), c = (0, 1), right-angled at b. Edge j opposite vertex j: L = (1, √2,
// 1), A = 1/2, cot = (1, 0, 1). With s = λ + μ, SOFA's constants (mechanics/
// triangular_quadratic_springs.h) are k = ((2s + μ)/4, μ/2, (2s + μ)/4), γ = (−√2μ/4,
// (2s − μ)/4, −√2μ/4). At twice the rest positions every dl_j = L_j, so
// V = ½·Σ k_j·L_j² + Σ γ_j·L_{j+1}·L_{j+2} = (s/2 + 3μ/4) + (s/2 − 5μ/4) = λ + μ/2 = E/(2(1 − ν)).
// The biquadratic field (k_j, γ_j over 16A without the L factors, Δ_j = 3·L_j², J = 4: no area
// term) gives ¼·Σ k_e·Δ² + ½·Σ γ_j·Δ_{j+1}·Δ_{j+2} = 9/4·(λ + μ/2). The diagonal (1, 2) had k
// from both triangles: its k_e must have dropped to the remaining one's, or V is larger.
struct HandCase {
  const char* name;
  const char* type;
  double factor;  // V / (E/(2(1 − ν)))
};

class DelingetteAfterRemoval : public TopologyInPlaceFem,
                               public ::testing::WithParamInterface<HandCase> {};

TEST_P(DelingetteAfterRemoval, StoresTheEnergyOfTheTriangleLeftByHand) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / (std::string("fluxion_in_place_") + GetParam().name);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 1\n0\n";
  const std::string xml = R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="50" tolerance="1e-14" threshold="1e-30"/>
  <TriangleSetTopologyContainer name="topo" position="0 0 0  1 0 0  0 1 0  1 1 0"
                                triangles="0 1 2  1 3 2"/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity="2"/>
  <)" + std::string(GetParam().type) +
                          R"( name="springs" youngModulus="60" poissonRatio="0.3"/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
  Simulation simulation = LoadScene(xml, (folder / "square.scn").string());
  const double* before = simulation.position(0).data();
  simulation.Step();
  simulation.Step();
  std::filesystem::remove_all(folder);
  EXPECT_EQ(simulation.position(0).data(), before);  // followed in place
  ASSERT_EQ(simulation.model().objects[0].num_points, 3);
  ASSERT_EQ(simulation.model().objects[0].topology->triangles,
            (std::vector<std::array<Index, 3>>{{1, 0, 2}}));
  // Points 0 = (1, 1), 1 = (1, 0), 2 = (0, 1), at twice their rest positions.
  Vector stretched(9);
  stretched << 2, 2, 0, 2, 0, 0, 0, 2, 0;
  simulation.SetPosition(0, stretched);
  simulation.SetVelocity(0, Vector::Zero(9));
  // Round-off of a few operations on numbers of order 100.
  EXPECT_NEAR(simulation.PotentialEnergy(), GetParam().factor * 60.0 / (2.0 * (1.0 - 0.3)), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(
    Fields, DelingetteAfterRemoval,
    ::testing::Values(HandCase{"quadratic", "TriangularQuadraticSpringsForceField", 1.0},
                      HandCase{"biquadratic", "TriangularBiquadraticSpringsForceField", 2.25}),
    [](const ::testing::TestParamInfo<HandCase>& param) { return std::string(param.param.name); });

// TrianglePressureForceField's list after a removal, by hand, in place and through the rebuild.
// The 3 × 3 cloth's triangles: 2c = (p, p+1, p+4) and 2c + 1 = (p, p+4, p+3) for cell
// c = i + 2j, p = i + 3j. The list "1 6 7" loses nothing when triangle 2 = (1, 2, 5) goes, and
// its last triangle 7 = (4, 8, 7) is renamed 2 (SOFA's TopologySubsetData::remove): "1 6 2".
// Point 2 is freed and point 8 takes its number: the triangles pressed are 1 = (0, 4, 3),
// 6 = (4, 5, 2) and 2 = (4, 2, 7), each of rest area 1/2, each vertex taking pressure·A/3 =
// (0, 0, 1) from each (pressure (0, 0, 6)): points 0, 3, 5, 7 get 1, point 2 gets 2, point 4
// gets 3. With z_i = 1 + i the load's potential −F·x is −(1 + 4 + 6 + 8 + 2·3 + 3·5) = −40.
TEST_F(TopologyInPlaceFem, APressureListFollowsTheRemovalByHand) {
  constexpr int side = 3;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_in_place_pressure_hand";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 1\n2\n";
  std::string xml =
      Cloth(side, R"(<TrianglePressureForceField triangleList="1 6 7" pressure="0 0 6"/>)", "0");
  xml.replace(xml.find("0 -9.81 0"), 9, "0 0 0");
  for (const bool rebuild : {false, true}) {
    SetRebuild(rebuild);
    Simulation simulation = LoadScene(xml, (folder / "cloth.scn").string());
    const double* before = simulation.position(0).data();
    simulation.Step();
    simulation.Step();
    EXPECT_EQ(simulation.position(0).data() == before, !rebuild);  // in place, or rebuilt
    ASSERT_EQ(simulation.model().objects[0].num_points, 8);
    Vector x = Vector::Zero(24);
    for (int i = 0; i < 8; ++i) x[3 * i + 2] = 1.0 + i;
    simulation.SetPosition(0, x);
    EXPECT_EQ(simulation.PotentialEnergy(), -40.0) << (rebuild ? "rebuild" : "in place");
  }
  std::filesystem::remove_all(folder);
}

// A TriangleCollisionModel that no collision pipeline reads is inert (SOFA's re-reads its
// container when used): the removal is followed in place. Under a pipeline, whose detection holds
// the model's elements, it goes through the rebuild (the state's buffer replaced).
TEST_F(TopologyInPlaceFem, AnInertCollisionModelFollowsInPlace) {
  constexpr int side = 3;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_in_place_collision_model";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 2\n" << Cell(side, 1, 1) << "\n";
  const std::string cloth =
      Cloth(side, std::string(kFem) + "\n  <TriangleCollisionModel name=\"surface\"/>", "6");
  const std::string pipeline = R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <CollisionPipeline/>
  <BruteForceBroadPhase/>
  <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.8" contactDistance="0.5"/>
  <CollisionResponse response="PenalityContactForceField"/>)";
  std::string collides = cloth;
  collides.replace(0, collides.find('\n'), pipeline);
  for (const bool detected : {false, true}) {
    Simulation simulation = LoadScene(detected ? collides : cloth, (folder / "cloth.scn").string());
    const double* before = simulation.position(0).data();
    simulation.Step();
    simulation.Step();
    EXPECT_EQ(simulation.model().objects[0].topology->triangles.size(), 6u);
    EXPECT_EQ(simulation.position(0).data() == before, !detected);
  }
  std::filesystem::remove_all(folder);
}

// A youngModulus given per triangle stays with its triangle in SOFA and with its index in a
// build: the change goes through the rebuild (the state's buffer replaced).
TEST_F(TopologyInPlaceFem, AYoungModulusPerTriangleGoesThroughTheRebuild) {
  constexpr int side = 3;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_in_place_fem_per_element";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.01\nREMOVE= 2\n" << Cell(side, 1, 1) << "\n";
  Simulation simulation = LoadScene(
      Cloth(side, R"(<TriangularFEMForceField name="fem" youngModulus="60 60 60 60 60 60 60 70"/>)",
            "6 8"),
      (folder / "cloth.scn").string());
  const double* before = simulation.position(0).data();
  simulation.Step();
  simulation.Step();
  std::filesystem::remove_all(folder);
  EXPECT_EQ(simulation.model().objects[0].topology->triangles.size(), 6u);
  EXPECT_NE(simulation.position(0).data(), before);
}

// Allocations of the step that applies the second point-freeing removal (the first makes the
// follow), less those of a plain step: the same for a cloth of 4 times the points.
class RemovalAllocations : public TopologyInPlaceFem,
                           public ::testing::WithParamInterface<MembraneCase> {};

TEST_P(RemovalAllocations, AreTheSameWhateverTheClothSize) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() /
      (std::string("fluxion_in_place_allocations_") + GetParam().name);
  std::filesystem::create_directories(folder);
  const auto change_allocations = [&](int side) {
    std::ofstream(folder / "process.txt") << "T= 0.02\nREMOVE= 2\n"
                                          << Cell(side, 0, 0) << "\n"
                                          << "T= 0.04\nREMOVE= 2\n"
                                          << Cell(side, side - 2, 0) << "\n";
    SetRebuild(false);
    const std::string fixed =
        std::to_string(side * side - side) + " " + std::to_string(side * side - 1);
    Simulation simulation =
        LoadScene(Cloth(side, GetParam().membrane, fixed), (folder / "cloth.scn").string());
    for (int k = 0; k < 4; ++k) simulation.Step();  // the first removal at t = 0.02
    const double* state = simulation.position(0).data();
    long before = conformance::AllocationCount();
    simulation.Step();  // t = 0.04: the second removal, then the step
    EXPECT_EQ(simulation.position(0).data(), state);
    EXPECT_EQ(simulation.model().objects[0].num_points, side * side - 2);
    const long change = conformance::AllocationCount() - before;
    before = conformance::AllocationCount();
    simulation.Step();  // plain
    return change - (conformance::AllocationCount() - before);
  };
  const long small = change_allocations(7);
  const long large = change_allocations(14);
  std::filesystem::remove_all(folder);
  RecordProperty("in_place_7", std::to_string(small));
  RecordProperty("in_place_14", std::to_string(large));
  EXPECT_EQ(small, large);
  EXPECT_LT(small, 100);
}

INSTANTIATE_TEST_SUITE_P(
    Membranes, RemovalAllocations,
    ::testing::Values(MembraneCase{"fem", kFem},
                      MembraneCase{"quadratic", R"(<TriangularQuadraticSpringsForceField )"
                                                R"(name="fem" youngModulus="60"/>)"},
                      MembraneCase{"biquadratic",
                                   R"(<TriangularBiquadraticSpringsForceField name="fem" )"
                                   R"(youngModulus="60"/>)"}),
    [](const ::testing::TestParamInfo<MembraneCase>& param) {
      return std::string(param.param.name);
    });

}  // namespace
}  // namespace fluxion
