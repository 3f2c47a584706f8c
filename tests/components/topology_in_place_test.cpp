// Removals of triangles followed in place (build/topology_in_place.h) against the rebuild of the
// scene (build/topology_rebuild.cpp), the reference here: FLUXION_TOPOLOGY_REBUILD=1 makes every
// change a rebuild. The cloth is topological_change_test.cpp's on a 7 × 7 grid of points (spacing
// 1 m, point i + 7j at (i, j, 0), cell (i, j) cut into triangles 2c (p, p+1, p+8) and 2c + 1
// (p, p+8, p+7), c = i + 6j, p = i + 7j), hanging from its top corners 42 and 48: DiagonalMass by
// density, MeshSpringForceField on the edges, EulerImplicitSolver with CGLinearSolver run to
// round-off.
//
// Interior cells are removed whole: their diagonal edge goes with them, their sides and points
// keep a neighbouring triangle, so no point is removed. A corner cell frees its corner point: the
// last point moves into its slot (SOFA's removePointsProcess) and the system loses its DOFs.
// Both are followed in place.
#include <gmock/gmock.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "conformance/allocation_counter.h"
#include "fluxion/errors.h"
#include "support/cloth_grid.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class TopologyInPlace : public testing::QuietTest {
 protected:
  void TearDown() override { unsetenv("FLUXION_TOPOLOGY_REBUILD"); }
};

constexpr const char* kImplicit =
    R"(<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>)";
constexpr const char* kExplicit = R"(<EulerExplicitSolver/>)";
// The other implicit solvers, with kImplicit's CG.
constexpr const char* kNewmarkCg = R"(<NewmarkImplicitSolver/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>)";
constexpr const char* kBdfCg = R"(<BDFOdeSolver/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>)";
constexpr const char* kTrapezoidalCg = R"(<TrapezoidalSolver/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>)";
constexpr const char* kStaticCg = R"(<StaticSolver/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>)";

constexpr const char* kDensityMass = R"(<DiagonalMass name="mass" massDensity="2"/>)";

std::string Cloth(int side, const std::string& processor, const std::string& solver = kImplicit,
                  const std::string& mass = kDensityMass, const std::string& more = "") {
  const auto [points, triangles] = testing::ClothGrid(side);
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  )" + solver +
         R"(
  <TriangleSetTopologyContainer name="topo" position=")" +
         points + R"(" triangles=")" + triangles + R"("/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  )" + mass +
         R"(
  <MeshSpringForceField name="springs" stiffness="100" damping="0.5"/>
  )" + more +
         R"(
  <FixedProjectiveConstraint name="fix" indices=")" +
         std::to_string(side * side - side) + " " + std::to_string(side * side - 1) + R"("/>
  )" + processor +
         R"(
</Node>)";
}

// Both triangles of cell (i, j) of a cloth of `side` points per side.
std::string Cell(int side, int i, int j) {
  const int c = i + (side - 1) * j;
  return std::to_string(2 * c) + " " + std::to_string(2 * c + 1);
}

struct ClothRun {
  std::vector<Vector> x, v;
  std::vector<bool> state_kept;  // per step: the state's buffer is the one before the step
  Simulation simulation;
};

// `steps` steps of `xml` (from the file `file`), on the rebuild path or not.
ClothRun RunCloth(const std::string& xml, const std::string& file, int steps, bool rebuild) {
  if (rebuild)
    setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  else
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
  ClothRun run{{}, {}, {}, LoadScene(xml, file)};
  for (int k = 0; k < steps; ++k) {
    const double* before = run.simulation.position(0).data();
    run.simulation.Step();
    run.state_kept.push_back(run.simulation.position(0).data() == before);
    run.x.push_back(run.simulation.position(0));
    run.v.push_back(run.simulation.velocity(0));
  }
  return run;
}

// A process file removing interior cells at 0.05 and 0.1 (in place), a corner cell at 0.15 (its
// points 0 and 1 go: a rebuild), interior cells again at 0.2 (in place on the rebuilt scene).
// Both paths give the same bits at every step: positions, velocities, the topology, and the
// mass and stiffness matrices at the end.
TEST_F(TopologyInPlace, GivesTheBitsOfTheRebuildAtEveryStep) {
  constexpr int side = 7;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topology_in_place_test";
  std::filesystem::create_directories(folder);
  // Indices are those of the triangles when each line is read (earlier removals moved the last
  // triangles into the freed slots): 2 and 3 still name cell (1, 0) at 0.1.
  std::ofstream(folder / "process.txt") << "T= 0.05\nREMOVE= 4\n"
                                        << Cell(side, 2, 2) << " " << Cell(side, 4, 3) << "\n"
                                        << "T= 0.1\nREMOVE= 2\n"
                                        << Cell(side, 1, 0) << "\n"
                                        << "T= 0.15\nREMOVE= 2\n"
                                        << Cell(side, 0, 0) << "\n"
                                        << "T= 0.2\nREMOVE= 2\n"
                                        << Cell(side, 3, 4) << "\n";
  const std::string xml = Cloth(side, R"(<TopologicalChangeProcessor filename="process.txt"/>)");
  const std::string file = (folder / "cloth.scn").string();
  constexpr int steps = 30;
  const ClothRun in_place = RunCloth(xml, file, steps, false);
  const ClothRun rebuilt = RunCloth(xml, file, steps, true);
  std::filesystem::remove_all(folder);

  for (int k = 0; k < steps; ++k) {
    ASSERT_TRUE(in_place.x[static_cast<std::size_t>(k)] == rebuilt.x[static_cast<std::size_t>(k)])
        << "step " << k + 1;
    ASSERT_TRUE(in_place.v[static_cast<std::size_t>(k)] == rebuilt.v[static_cast<std::size_t>(k)])
        << "step " << k + 1;
  }
  // The in-place run kept its state's buffer at every change, the corner cell's (points
  // removed: the vector shrank in place) included; the rebuild replaced it at each of the four.
  const auto replaced = [](const ClothRun& run) {
    return std::count(run.state_kept.begin(), run.state_kept.end(), false);
  };
  EXPECT_EQ(replaced(in_place), 0);
  EXPECT_EQ(replaced(rebuilt), 4);
  // The corner cell's removal frees point 0 and point 1, whose other cell (1, 0) went at 0.1.
  EXPECT_EQ(in_place.x.back().size(), (side * side - 2) * 3);

  const Topology& a = *in_place.simulation.model().objects[0].topology;
  const Topology& b = *rebuilt.simulation.model().objects[0].topology;
  EXPECT_EQ(a.triangles.size(), 72u - 10u);
  EXPECT_EQ(a.triangles, b.triangles);
  EXPECT_EQ(a.edges, b.edges);
  for (const char* component : {"root/mass", "root/springs"}) {
    const ComponentMatrixKind kind = std::string(component) == "root/mass"
                                         ? ComponentMatrixKind::kMass
                                         : ComponentMatrixKind::kStiffness;
    const SparseMatrix ma = in_place.simulation.ComponentMatrix(component, kind);
    const SparseMatrix mb = rebuilt.simulation.ComponentMatrix(component, kind);
    EXPECT_EQ((ma - mb).norm(), 0.0) << component;
  }
  // The mass: ρ·A = 2 kg/m² × 31 remaining cells of 1 m².
  const SparseMatrix mass =
      in_place.simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  EXPECT_NEAR(mass.sum() / 3.0, 62.0, 1e-12);
}

// The masses a removal that frees points sums again are read in the numbering after the
// removal. The cloth is the 7 × 7 grid with its points moved off the grid (so that the triangles'
// areas differ and the order of a vertex's sum shows in its last bit), the labels of the centre
// point 24 and the corner 48 swapped (the last point is now interior, with six triangles) and one
// triangle around the centre put last. Removing cell (0, 0) frees corner 0: the last triangle
// (around the centre) takes slot 1, and the centre (last point) takes point 0's number. The
// centre's mass must be its triangles' summed in their new order, as the rebuild sums them — the
// follow once listed the moved triangles' vertices in the new numbering and then renamed them as
// old ones, dropping the centre.
TEST_F(TopologyInPlace, TheMassOfAMovedPointIsSummedInTheNewOrder) {
  constexpr int side = 7;
  std::vector<std::array<double, 3>> points;
  for (int p = 0; p < side * side; ++p)
    points.push_back(
        {p % side + 0.27 * std::sin(1.9 * p), p / side + 0.23 * std::cos(2.7 * p), 0.0});
  std::vector<std::array<int, 3>> triangles;
  for (int j = 0; j + 1 < side; ++j)
    for (int i = 0; i + 1 < side; ++i) {
      const int p = i + side * j;
      triangles.push_back({p, p + 1, p + side + 1});
      triangles.push_back({p, p + side + 1, p + side});
    }
  const auto relabel = [](int v) { return v == 24 ? 48 : v == 48 ? 24 : v; };
  std::swap(points[24], points[48]);
  for (auto& t : triangles)
    for (int& v : t) v = relabel(v);
  // The first triangle around the centre (cell (2, 2)'s first: 16 17 24 relabelled) goes last.
  const auto around_centre = std::find_if(triangles.begin(), triangles.end(), [](const auto& t) {
    return std::find(t.begin(), t.end(), 48) != t.end();
  });
  std::rotate(around_centre, around_centre + 1, triangles.end());
  std::ostringstream position, list;
  position.precision(17);
  for (const auto& p : points) position << p[0] << " " << p[1] << " " << p[2] << "  ";
  for (const auto& t : triangles) list << t[0] << " " << t[1] << " " << t[2] << " ";
  const std::string xml = R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  )" + std::string(kImplicit) +
                          R"(
  <TriangleSetTopologyContainer name="topo" position=")" +
                          position.str() + R"(" triangles=")" + list.str() + R"("/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity="2"/>
  <MeshSpringForceField name="springs" stiffness="100" damping="0.5"/>
  <FixedProjectiveConstraint name="fix" indices="42 24"/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topology_moved_mass_test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.02\nREMOVE= 2\n0 1\n";
  const std::string file = (folder / "cloth.scn").string();
  constexpr int steps = 5;
  const ClothRun in_place = RunCloth(xml, file, steps, false);
  const ClothRun rebuilt = RunCloth(xml, file, steps, true);
  std::filesystem::remove_all(folder);

  EXPECT_EQ(std::count(in_place.state_kept.begin(), in_place.state_kept.end(), false), 0);
  ASSERT_EQ(in_place.x.back().size(), (side * side - 1) * 3);
  const SparseMatrix ma =
      in_place.simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  const SparseMatrix mb =
      rebuilt.simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  EXPECT_EQ(ma.coeff(0, 0), mb.coeff(0, 0));  // the centre, now point 0
  EXPECT_EQ((ma - mb).norm(), 0.0);
  for (std::size_t k = 0; k < steps; ++k) {
    EXPECT_TRUE(in_place.x[k] == rebuilt.x[k]) << "step " << k + 1;
    EXPECT_TRUE(in_place.v[k] == rebuilt.v[k]) << "step " << k + 1;
  }
}

// CGLinearSolver's first-solve exemption (SOFA's CGLinearSolver.inl: the tolerance and threshold
// tests are skipped at the first iteration of the run's first solve only) survives a change on
// both paths: the rebuild's new CG takes over the running one's count of solves
// (core/continued_linear_solver.h), as the in-place path keeps its CG and SOFA its component.
// With a threshold no pᵀAp reaches, the first solve makes one iteration and every later one
// stops before moving dv: the velocities of step 1 stay, bit for bit, through two removals on
// either path (a fresh count would move them again at each rebuild).
TEST_F(TopologyInPlace, CgsFirstSolveExemptionIsTheRunsOnlyOnBothPaths) {
  constexpr int side = 7;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topology_cg_count_test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.03\nREMOVE= 2\n"
                                        << Cell(side, 2, 2) << "\n"
                                        << "T= 0.06\nREMOVE= 2\n"
                                        << Cell(side, 4, 3) << "\n";
  const std::string solver = R"(<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="25" tolerance="1e-5" threshold="1e9"/>)";
  const std::string xml =
      Cloth(side, R"(<TopologicalChangeProcessor filename="process.txt"/>)", solver);
  const std::string file = (folder / "cloth.scn").string();
  constexpr int steps = 10;
  const ClothRun in_place = RunCloth(xml, file, steps, false);
  const ClothRun rebuilt = RunCloth(xml, file, steps, true);
  std::filesystem::remove_all(folder);

  ASSERT_GT(in_place.v[0].norm(), 0.0);  // the exempt first solve moved the cloth
  for (std::size_t k = 0; k < steps; ++k) {
    EXPECT_TRUE(in_place.v[k] == in_place.v[0]) << "in place, step " << k + 1;
    EXPECT_TRUE(rebuilt.v[k] == in_place.v[0]) << "rebuild, step " << k + 1;
    EXPECT_TRUE(rebuilt.x[k] == in_place.x[k]) << "step " << k + 1;
  }
  const auto replaced = [](const ClothRun& run) {
    return std::count(run.state_kept.begin(), run.state_kept.end(), false);
  };
  EXPECT_EQ(replaced(rebuilt), 2);  // both changes went through the rebuild
}

// Allocations of the step that applies the second removal of interior cells (the first makes
// the follow), less those of a plain step: no more for a cloth of 4 times the points, and none
// of the step's buffers reallocated (the state keeps its buffer). The rebuild allocates far more.
TEST_F(TopologyInPlace, ARemovalOfNoPointCostsTheSameWhateverTheClothSize) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topology_in_place_allocations";
  std::filesystem::create_directories(folder);
  const auto change_allocations = [&](int side, bool rebuild) {
    // Cells (2, 2) and (4, 3) at 0.02 (the last triangles, on the top row, move into their
    // slots), cells (1, 1) and (3, 2), untouched by that, at 0.04.
    std::ofstream(folder / "process.txt") << "T= 0.02\nREMOVE= 4\n"
                                          << Cell(side, 2, 2) << " " << Cell(side, 4, 3) << "\n"
                                          << "T= 0.04\nREMOVE= 4\n"
                                          << Cell(side, 1, 1) << " " << Cell(side, 3, 2) << "\n";
    if (rebuild)
      setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
    else
      unsetenv("FLUXION_TOPOLOGY_REBUILD");
    Simulation simulation =
        LoadScene(Cloth(side, R"(<TopologicalChangeProcessor filename="process.txt"/>)"),
                  (folder / "cloth.scn").string());
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
  const long small = change_allocations(7, false);
  const long large = change_allocations(14, false);
  const long rebuilt = change_allocations(7, true);
  std::filesystem::remove_all(folder);
  RecordProperty("in_place_7", std::to_string(small));
  RecordProperty("in_place_14", std::to_string(large));
  RecordProperty("rebuild_7", std::to_string(rebuilt));
  EXPECT_EQ(small, large);
  EXPECT_LT(small, 30);
  EXPECT_GT(rebuilt, 20 * std::max(small, 1L));
}

// Removals that free points, each followed in place, against the rebuild at every step: the
// positions, velocities, topology, M and K. On the 7 × 7 cloth (ids as each line is read: a
// removed cell's slots take the last cell's triangles, so the cell then last takes its ids):
//  t = 0.05: cell (0, 0) frees corner 0; the last point, 48 (fixed), moves into slot 0;
//  t = 0.1:  cell (5, 0) frees corner 6; point 47 moves into slot 6;
//  t = 0.15: cells (0, 5) and (2, 2): corner 42 (fixed) is freed and leaves the fixed list;
//            point 46 moves into slot 42;
//  t = 0.2:  cell (1, 0) frees point 1 (its other cell went at 0.05); point 45 moves into slot 1.
// 45 points and 31 cells remain; the old corner 48, now point 0, stays fixed at (6, 6, 0).
struct FreeingCase {
  const char* name;
  const char* solver;
  const char* mass;
  double total_mass;      // after the removals, closed form
  const char* more = "";  // more components in the cloth's node
};

void PrintTo(const FreeingCase& c, std::ostream* out) { *out << c.name; }

class PointFreeing : public TopologyInPlace, public ::testing::WithParamInterface<FreeingCase> {};

TEST_P(PointFreeing, GivesTheBitsOfTheRebuildAtEveryStep) {
  constexpr int side = 7;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() /
      (std::string("fluxion_topology_point_freeing_") + GetParam().name);
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.05\nREMOVE= 2\n"
                                        << Cell(side, 0, 0) << "\n"
                                        << "T= 0.1\nREMOVE= 2\n"
                                        << Cell(side, 5, 0) << "\n"
                                        << "T= 0.15\nREMOVE= 4\n"
                                        << Cell(side, 0, 5) << " " << Cell(side, 2, 2) << "\n"
                                        << "T= 0.2\nREMOVE= 2\n"
                                        << Cell(side, 1, 0) << "\n";
  const std::string xml = Cloth(side, R"(<TopologicalChangeProcessor filename="process.txt"/>)",
                                GetParam().solver, GetParam().mass, GetParam().more);
  const std::string file = (folder / "cloth.scn").string();
  constexpr int steps = 25;
  setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  Simulation rebuilt = LoadScene(xml, file);
  unsetenv("FLUXION_TOPOLOGY_REBUILD");
  Simulation in_place = LoadScene(xml, file);
  int changes_kept = 0;
  for (int k = 0; k < steps; ++k) {
    const double* before = in_place.position(0).data();
    const Index points = in_place.model().objects[0].num_points;
    in_place.Step();
    rebuilt.Step();
    if (in_place.model().objects[0].num_points != points && in_place.position(0).data() == before)
      ++changes_kept;
    ASSERT_TRUE(in_place.position(0) == rebuilt.position(0)) << "step " << k + 1;
    ASSERT_TRUE(in_place.velocity(0) == rebuilt.velocity(0)) << "step " << k + 1;
    const Topology& a = *in_place.model().objects[0].topology;
    const Topology& b = *rebuilt.model().objects[0].topology;
    ASSERT_EQ(a.points, b.points) << "step " << k + 1;
    ASSERT_EQ(a.triangles, b.triangles) << "step " << k + 1;
    ASSERT_EQ(a.edges, b.edges) << "step " << k + 1;
    for (const auto& [component, kind] :
         {std::pair{"root/mass", ComponentMatrixKind::kMass},
          std::pair{"root/springs", ComponentMatrixKind::kStiffness}}) {
      const SparseMatrix ma = in_place.ComponentMatrix(component, kind);
      const SparseMatrix mb = rebuilt.ComponentMatrix(component, kind);
      ASSERT_EQ(ma.rows(), mb.rows()) << component << " step " << k + 1;
      ASSERT_EQ((ma - mb).norm(), 0.0) << component << " step " << k + 1;
    }
  }
  std::filesystem::remove_all(folder);
  // The four removals shrank the state in place (a realloc that keeps the buffer: glibc's).
  EXPECT_EQ(changes_kept, 4);
  EXPECT_EQ(in_place.model().objects[0].num_points, side * side - 4);
  EXPECT_EQ(in_place.position(0).size(), (side * side - 4) * 3);
  EXPECT_EQ(in_place.model().objects[0].topology->triangles.size(), 2u * 31u);
  // The old corner 48 is point 0, still fixed where it started; the freed corner 42 is free of
  // the list (its slot holds old point 46, which moves).
  for (int a = 0; a < 3; ++a)
    EXPECT_EQ(in_place.position(0)[a], (std::array<double, 3>{6.0, 6.0, 0.0})[a]);
  EXPECT_NE(in_place.position(0)[42 * 3 + 1], 6.0);
  // The point projector's list "1 6 3 47", by hand: 6 freed and 47 renamed 6 at 0.1 ("1 3 6"),
  // 1 freed at 0.2 ("3 6"; old 45 takes number 1, unconstrained): points 3 and 6 sit on the
  // target, point 1 does not.
  if (std::string(GetParam().name) == "point_projector_implicit") {
    for (const Index point : {3, 6})
      for (int a = 0; a < 3; ++a)
        EXPECT_EQ(in_place.position(0)[point * 3 + a], (std::array<double, 3>{3.0, 1.0, 0.0})[a])
            << point;
    EXPECT_NE(in_place.position(0)[1 * 3 + 1], 1.0);
  }
  // The movements' list "1 6 3 47" becomes "3 6" as the point projector's; the last step starts
  // at t = 0.24 (the constraints' time). Point 6 is old 47, x₀ = (5, 6, 0); point 3 keeps
  // x₀ = (3, 0, 0); point 1 (old 45) is free.
  //  - Affine, x = x₀ + (t/e)(x_f − x₀) with x_f = R·x₀ + T, R the quarter turn about z,
  //    T = (1, 0, 0), e = 0.4: point 6 → x_f = (−5, 5, 0), x = (−1, 5.4, 0); point 3 →
  //    x_f = (1, 3, 0), x = (1.8, 1.8, 0); velocities held at zero. (SOFA, whose x0 is indexed
  //    by point number and not renumbered, would move point 6 from old 6's start (6, 0, 0).)
  //  - Linear, between keys 0.1 and 0.3: m = (1, 0, 0) + (0, 2, 0)·0.7 = (1, 1.4, 0), so point 6
  //    at (6, 7.4, 0), point 3 at (4, 1.4, 0), both at velocity (0, 2, 0)/0.2 = (0, 10, 0).
  const auto expect_point = [&](const Vector& vector, Index point, std::array<double, 3> value) {
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(vector[point * 3 + a], value[static_cast<std::size_t>(a)], 1e-12)
          << GetParam().name << " point " << point << " axis " << a;
  };
  if (std::string(GetParam().name) == "affine_movement_implicit") {
    expect_point(in_place.position(0), 6, {-1.0, 5.4, 0.0});
    expect_point(in_place.position(0), 3, {1.8, 1.8, 0.0});
    for (const Index point : {3, 6})
      for (int a = 0; a < 3; ++a) EXPECT_EQ(in_place.velocity(0)[point * 3 + a], 0.0);
    EXPECT_NE(in_place.velocity(0)[1 * 3 + 1], 0.0);
  }
  if (std::string(GetParam().name) == "linear_movement_implicit") {
    expect_point(in_place.position(0), 6, {6.0, 7.4, 0.0});
    expect_point(in_place.position(0), 3, {4.0, 1.4, 0.0});
    for (const Index point : {3, 6}) expect_point(in_place.velocity(0), point, {0.0, 10.0, 0.0});
    EXPECT_NE(in_place.velocity(0)[1 * 3 + 1], 10.0);
  }
  // DiagonalMass: ρ·A = 2 kg/m² × 31 cells of 1 m²; UniformMass: 45 points of 98 kg / 49 (SOFA
  // keeps the vertex mass as points go). Each point's mass on its 3 axes.
  const SparseMatrix mass = in_place.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  EXPECT_NEAR(mass.sum() / 3.0, GetParam().total_mass, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(
    Solvers, PointFreeing,
    ::testing::Values(
        FreeingCase{"implicit_cg", kImplicit, kDensityMass, 62.0},
        FreeingCase{"explicit", kExplicit, kDensityMass, 62.0},
        FreeingCase{"uniform_mass_explicit", kExplicit,
                    R"(<UniformMass name="mass" totalMass="98"/>)", 90.0},
        // Points 1 and 6 on the line leave it when freed; 47 takes 6's number
        // and its projector; 3 keeps both.
        FreeingCase{"line_projector_explicit", kExplicit, kDensityMass, 62.0,
                    R"(<LineProjectiveConstraint indices="1 6 3 47" )"
                    R"(direction="1 0 0"/>)"},
        // The state constraints (their positions projected at each step) drop a
        // freed point and rename the moved one, as the rebuild's written-back list.
        FreeingCase{"plane_projector_implicit", kImplicit, kDensityMass, 62.0,
                    R"(<PlaneProjectiveConstraint indices="1 6 3 47" )"
                    R"(normal="1 0 0"/>)"},
        FreeingCase{"point_projector_implicit", kImplicit, kDensityMass, 62.0,
                    R"(<PointProjectiveConstraint indices="1 6 3 47" )"
                    R"(point="3 1 0"/>)"},
        FreeingCase{"direction_projector_implicit", kImplicit, kDensityMass, 62.0,
                    R"(<DirectionProjectiveConstraint indices="47 1 6 3" )"
                    R"(direction="0 1 0"/>)"},
        // The movements keep a start (x₀, and the affine one's x_f) per listed
        // point: 47 renamed 6 must take its own along (checked by hand below).
        FreeingCase{"affine_movement_implicit", kImplicit, kDensityMass, 62.0,
                    R"(<AffineMovementProjectiveConstraint indices="1 6 3 47" )"
                    R"(rotation="[0 -1 0,1 0 0,0 0 1]" translation="1 0 0" )"
                    R"(endConstraintTime="0.4"/>)"},
        FreeingCase{"linear_movement_implicit", kImplicit, kDensityMass, 62.0,
                    R"(<LinearMovementProjectiveConstraint indices="1 6 3 47" )"
                    R"(keyTimes="0 0.1 0.3" movements="0 0 0  1 0 0  1 2 0"/>)"},
        // Every other bundled solver that steps this cloth without M assembled
        // (ModifiedEuler and VariationalSymplectic assemble it: their nodes
        // rebuild): each follows the change in its own vectors
        // (DoFollowSystemChange), which must leave no stale entry the rebuild's
        // fresh solver would not have.
        FreeingCase{"runge_kutta4", "<RungeKutta4Solver/>", kDensityMass, 62.0},
        FreeingCase{"runge_kutta2", "<RungeKutta2Solver/>", kDensityMass, 62.0},
        FreeingCase{"midpoint", "<MidpointSolver/>", kDensityMass, 62.0},
        FreeingCase{"standard_heun", "<StandardHeunSolver/>", kDensityMass, 62.0},
        FreeingCase{"false_heun", "<FalseHeunSolver/>", kDensityMass, 62.0},
        FreeingCase{"semi_false_heun", "<SemiFalseHeunSolver/>", kDensityMass, 62.0},
        FreeingCase{"adams_bashforth2", "<AdamsBashforth2Solver/>", kDensityMass, 62.0},
        FreeingCase{"velocity_verlet", "<VelocityVerletSolver/>", kDensityMass, 62.0},
        FreeingCase{"position_verlet", "<PositionVerletSolver/>", kDensityMass, 62.0},
        FreeingCase{"central_difference", "<CentralDifferenceSolver/>", kDensityMass, 62.0},
        FreeingCase{"symplectic_euler", "<SymplecticEulerSolver/>", kDensityMass, 62.0},
        FreeingCase{"forest_ruth", "<ForestRuthSolver/>", kDensityMass, 62.0},
        FreeingCase{"newmark_cg", kNewmarkCg, kDensityMass, 62.0},
        FreeingCase{"bdf_cg", kBdfCg, kDensityMass, 62.0},
        FreeingCase{"trapezoidal_cg", kTrapezoidalCg, kDensityMass, 62.0},
        FreeingCase{"static_cg", kStaticCg, kDensityMass, 62.0}),
    [](const ::testing::TestParamInfo<FreeingCase>& param) {
      return std::string(param.param.name);
    });

// Three removals on the 7 × 7 cloth, each freeing one point (0.05: cell (0, 0), corner 0;
// 0.1: cells (5, 0) and (2, 2), corner 6; 0.2: cell (1, 0), point 1), written as `folder`'s
// process.txt; the path of the cloth's scene file in it.
std::string WriteThreeFreeingRemovals(const std::filesystem::path& folder) {
  constexpr int side = 7;
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.05\nREMOVE= 2\n"
                                        << Cell(side, 0, 0) << "\n"
                                        << "T= 0.1\nREMOVE= 4\n"
                                        << Cell(side, 5, 0) << " " << Cell(side, 2, 2) << "\n"
                                        << "T= 0.2\nREMOVE= 2\n"
                                        << Cell(side, 1, 0) << "\n";
  return (folder / "cloth.scn").string();
}

// `xml` (a Cloth) with the root's gravity `gravity` instead of the load's 0 −9.81 0.
std::string WithGravity(std::string xml, const std::string& gravity) {
  const std::string loaded = "gravity=\"0 -9.81 0\"";
  return xml.replace(xml.find(loaded), loaded.size(), "gravity=\"" + gravity + "\"");
}

// A gravity set between steps and changes followed in place, on the point-freeing process above
// (7 × 7 cloth, implicit CG, DiagonalMass by density): the masses the changes re-sum and the
// points they remove go through each mass's weight, which multiplies by the gravity in force.
//  - Set before the first step, the run gives the bits of the scene written with that gravity
//    (the re-summed masses weighed by it, not by the load's).
//  - Set after the last removal, the run gives the bits of the rebuild path given the same
//    (the weight holds the 45 remaining points' masses; it held the 49 loaded ones before).
//  - A mass field then is refused: its rule describes the loaded mesh.
TEST_F(TopologyInPlace, AGravitySetBetweenStepsWeighsTheMassesTheChangesLeave) {
  constexpr int side = 7;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topology_in_place_gravity";
  const std::string file = WriteThreeFreeingRemovals(folder);
  const std::string xml = Cloth(side, R"(<TopologicalChangeProcessor filename="process.txt"/>)");
  const std::vector<double> gravity = {1.0, -3.0, 0.5};
  const std::string written = WithGravity(xml, "1 -3 0.5");
  constexpr int steps = 25, last_change = 21;

  Simulation set = LoadScene(xml, file);
  set.SetComponentField("root", "gravity", gravity);
  Simulation given = LoadScene(written, file);
  Simulation late = LoadScene(xml, file);
  setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  Simulation rebuilt = LoadScene(xml, file);
  unsetenv("FLUXION_TOPOLOGY_REBUILD");
  int kept = 0;
  for (int k = 1; k <= steps; ++k) {
    const double* before = set.position(0).data();
    const Index points = set.model().objects[0].num_points;
    set.Step();
    given.Step();
    late.Step();
    rebuilt.Step();
    if (set.model().objects[0].num_points != points && set.position(0).data() == before) ++kept;
    ASSERT_TRUE(set.position(0) == given.position(0)) << "step " << k;
    ASSERT_TRUE(set.velocity(0) == given.velocity(0)) << "step " << k;
    if (k == last_change) {
      late.SetComponentField("root", "gravity", gravity);
      rebuilt.SetComponentField("root", "gravity", gravity);
    }
    ASSERT_TRUE(late.position(0) == rebuilt.position(0)) << "step " << k;
    ASSERT_TRUE(late.velocity(0) == rebuilt.velocity(0)) << "step " << k;
  }
  std::filesystem::remove_all(folder);
  EXPECT_EQ(kept, 3);  // the three removals, each freeing points, followed in place
  EXPECT_EQ(set.model().objects[0].num_points, side * side - 3);
  try {
    late.SetComponentField("root/mass", "massDensity", std::vector<double>{3.0});
    ADD_FAILURE() << "a mass field was accepted after the mesh changed in place";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("cannot change after the mesh changed in place"),
              std::string::npos)
        << error.what();
  }
}

// The rebuild path (FLUXION_TOPOLOGY_REBUILD=1: every change builds the scene again from its
// text) sets the fields set between steps again on the rebuilt components: a gravity set before
// the first step gives, through three rebuilds, the bits of the scene written with it (it was
// the scene's gravity again after the first rebuild). A mass is not set again (its rule would not
// give the masses the change keeps): the scene's density stands, with a warning — after the first
// removal, 2 kg/m² over the 35 remaining cells of 1 m².
TEST_F(TopologyInPlace, TheRebuildKeepsTheFieldsSetBetweenSteps) {
  constexpr int side = 7;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topology_rebuild_fields";
  const std::string file = WriteThreeFreeingRemovals(folder);
  const std::string xml = Cloth(side, R"(<TopologicalChangeProcessor filename="process.txt"/>)");
  const std::string written = WithGravity(xml, "1 -3 0.5");
  setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
  Simulation set = LoadScene(xml, file);
  set.SetComponentField("root", "gravity", std::vector<double>{1.0, -3.0, 0.5});
  Simulation given = LoadScene(written, file);
  Simulation mass = LoadScene(xml, file);
  mass.SetComponentField("root/mass", "massDensity", std::vector<double>{3.0});
  for (int k = 1; k <= 25; ++k) {
    set.Step();
    given.Step();
    if (k <= 6) mass.Step();
    ASSERT_TRUE(set.position(0) == given.position(0)) << "step " << k;
    ASSERT_TRUE(set.velocity(0) == given.velocity(0)) << "step " << k;
  }
  unsetenv("FLUXION_TOPOLOGY_REBUILD");
  std::filesystem::remove_all(folder);
  EXPECT_EQ(set.model().objects[0].num_points, side * side - 3);
  ExpectWarnings(1);
  const SparseMatrix m = mass.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  EXPECT_NEAR(m.sum() / 3.0, 2.0 * 35.0, 1e-12);
}

// Allocations of the step that applies the second point-freeing removal (the first makes the
// follow), less those of a plain step: the same count for a cloth of 4 times the points (64 here:
// the vectors that shrink in place — the state's, the system's, the solver's through
// Solver::FollowSystemChange, CG's — are one realloc each; 75 when the solver was initialised
// again, its workspace re-created), and the state keeps its buffer. The rebuild allocates 1257
// times.
TEST_F(TopologyInPlace, ARemovalOfPointsCostsTheSameWhateverTheClothSize) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topology_point_freeing_allocations";
  std::filesystem::create_directories(folder);
  const auto change_allocations = [&](int side, bool rebuild) {
    // Corner cell (0, 0) at 0.02 (frees point 0), corner cell (side − 2, 0) at 0.04 (frees
    // point side − 1; its ids are untouched by the first removal).
    std::ofstream(folder / "process.txt") << "T= 0.02\nREMOVE= 2\n"
                                          << Cell(side, 0, 0) << "\n"
                                          << "T= 0.04\nREMOVE= 2\n"
                                          << Cell(side, side - 2, 0) << "\n";
    if (rebuild)
      setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
    else
      unsetenv("FLUXION_TOPOLOGY_REBUILD");
    Simulation simulation =
        LoadScene(Cloth(side, R"(<TopologicalChangeProcessor filename="process.txt"/>)"),
                  (folder / "cloth.scn").string());
    for (int k = 0; k < 4; ++k) simulation.Step();  // the first removal at t = 0.02
    const double* state = simulation.position(0).data();
    long before = conformance::AllocationCount();
    simulation.Step();  // t = 0.04: the second removal, then the step
    EXPECT_EQ(simulation.position(0).data() == state, !rebuild);
    EXPECT_EQ(simulation.model().objects[0].num_points, side * side - 2);
    const long change = conformance::AllocationCount() - before;
    before = conformance::AllocationCount();
    simulation.Step();  // plain
    const long plain = conformance::AllocationCount() - before;
    return change - plain;
  };
  const long small = change_allocations(7, false);
  const long large = change_allocations(14, false);
  const long rebuilt = change_allocations(7, true);
  std::filesystem::remove_all(folder);
  RecordProperty("in_place_7", std::to_string(small));
  RecordProperty("in_place_14", std::to_string(large));
  RecordProperty("rebuild_7", std::to_string(rebuilt));
  EXPECT_EQ(small, large);
  EXPECT_LT(small, 70);
  EXPECT_GT(rebuilt, 10 * std::max(small, 1L));
}

}  // namespace
}  // namespace fluxion
