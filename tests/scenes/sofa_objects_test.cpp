// SOFA's FFD-style example scenes without collision (issue 13): tests/scenes/sofa_objects/ holds
// TorusFFD.xml and TorusSpring.xml with the structure and values of SOFA's
// examples/Objects/TorusFFD.xml and TorusSpring.xml (small meshes of our own under SOFA's file
// names: make_meshes.py). Each carries a mapped collision surface (TriangleCollisionModel) and no
// collision pipeline, so the collision model is inert and the scenes are mechanics only.
//
// Checked against what the physics demands, independently of the code under test:
//  - both bodies fall freely: with uniform mass m per point, gravity g and Rayleigh mass damping
//    rM, a uniform velocity is an eigenvector of SOFA's implicit Euler matrix A (springs and their
//    dashpots exert nothing on a translation: K·1 = B·1 = 0), so the centre of mass follows the
//    hand recursion  v ← v + h·(g − rM·v)/(1 + h·rM),  y ← y + h·v  (plugins/euler_implicit), up
//    to what the scenes' CGLinearSolver (tolerance 1e-5) leaves unsolved, and the springs stay at
//    rest up to the same;
//  - the mapped surface points of TorusFFD are the trilinear combination of the corners of
//    their grid cell (SOFA's BarycentricMapping on a regular grid), with weights computed here
//    from the OBJ file's coordinates — checked also on a deforming variant of the scene.
#include <gmock/gmock.h>

#include <array>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace fluxion {
namespace {

using Point = std::array<double, 3>;

const std::string kFolder = std::string(FLUXION_TEST_SOURCE_DIR) + "/tests/scenes/sofa_objects/";

// The scenes' solver and mass: EulerImplicitSolver rayleighMass="0.1", dt (SOFA's default) 0.01,
// gravity (SOFA's default) 0 −9.81 0.
constexpr double kH = 0.01;
constexpr double kRayleighMass = 0.1;
constexpr double kG = -9.81;
constexpr int kSteps = 300;

// What the scenes' CGLinearSolver may leave unsolved (linear/cg_linear_solver.h, SOFA's rules):
// it stops when ‖r‖ ≤ τ·‖b‖ (tolerance τ = 1e-5) or when pᵀAp ≤ θ (threshold: 1e-8 in TorusFFD,
// 1e-5 in TorusSpring); as |p| ≥ |r| and A ≥ λ·I with λ = m·(1 + h·rM) (the rigid modes; the
// springs at rest add a positive semi-definite h(h + rK)·K), the residual left is at most
// R = max(τ·‖b‖, √(θ/λ)), with ‖b‖ ≤ h·m·|g|·√N (b = h·m·(g − rM·v) per point, v between 0 and the
// terminal velocity). The velocity change is then off by at most R/λ in norm per step: the centre
// of mass's velocity by R/(λ·√N), its position after n steps by h·R/(λ·√N)·n(n+1)/2; a distance
// between two points by 2·h·R/λ per step (bounds that ignore the springs pulling back).
constexpr double kCgTolerance = 1e-5;
struct CgBounds {
  double per_step;  ///< R/λ: the velocity change's error bound [m/s]
  Index points;
  double CentreOfMass(int steps) const {
    return kH * per_step / std::sqrt(static_cast<double>(points)) * steps * (steps + 1) / 2.0;
  }
  double Distance(int steps) const { return 2.0 * kH * per_step * steps; }
};
CgBounds Bounds(double threshold, double total_mass, Index points) {
  const double m = total_mass / static_cast<double>(points);
  const double lambda = m * (1.0 + kH * kRayleighMass);
  const double b = kH * m * std::abs(kG) * std::sqrt(static_cast<double>(points));
  const double residual = std::max(kCgTolerance * b, std::sqrt(threshold / lambda));
  return {residual / lambda, points};
}
// Where nothing is left unsolved — the centre of mass across gravity (internal forces sum to zero
// and the Krylov space of a b with no uniform x or z part has none either) — round-off only.
constexpr double kRoundOff = 1e-12;

// The OBJ file's vertices, read here (not through Fluxion's loader).
std::vector<Point> ObjVertices(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<Point> points;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("v ", 0) != 0) continue;
    std::istringstream words(line.substr(2));
    Point p{};
    words >> p[0] >> p[1] >> p[2];
    points.push_back(p);
  }
  return points;
}

// The free fall's hand recursion: the displacement along y after each step.
std::vector<double> FreeFall(int steps) {
  std::vector<double> fallen;
  double v = 0.0, y = 0.0;
  for (int n = 0; n < steps; ++n) {
    v += kH * (kG - kRayleighMass * v) / (1.0 + kH * kRayleighMass);
    y += kH * v;
    fallen.push_back(y);
  }
  return fallen;
}

// TorusFFD's grid: RegularGridTopology nx=6 ny=2 nz=5 over [−2.5, 2.5]×[−0.5, 0.5]×[−2, 2]: unit
// cells, point (i, j, k) at index i + 6·(j + 2·k) (SOFA's RegularGridTopology::point).
constexpr int kNx = 6, kNy = 2, kNz = 5;
constexpr Point kGridMin = {-2.5, -0.5, -2.0};
int GridIndex(int i, int j, int k) { return i + kNx * (j + kNy * k); }

// The trilinear weights of `p` on the corners of its unit cell: (corner index, weight) × 8.
std::vector<std::pair<int, double>> TrilinearWeights(const Point& p) {
  const int cells[3] = {kNx - 1, kNy - 1, kNz - 1};
  int cell[3];
  double t[3];
  for (int a = 0; a < 3; ++a) {
    const double f = p[a] - kGridMin[a];  // cell size 1
    cell[a] = std::min(std::max(static_cast<int>(std::floor(f)), 0), cells[a] - 1);
    t[a] = f - cell[a];
  }
  std::vector<std::pair<int, double>> weights;
  for (int c = 0; c < 8; ++c) {
    const int di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1;
    const double w = (di ? t[0] : 1 - t[0]) * (dj ? t[1] : 1 - t[1]) * (dk ? t[2] : 1 - t[2]);
    weights.emplace_back(GridIndex(cell[0] + di, cell[1] + dj, cell[2] + dk), w);
  }
  return weights;
}

// Mapped positions of the OBJ vertices under the grid positions `grid`.
std::vector<Point> Interpolated(const std::vector<Point>& vertices,
                                const Eigen::Map<const Vector>& grid) {
  std::vector<Point> mapped;
  for (const Point& p : vertices) {
    Point q{0, 0, 0};
    for (const auto& [corner, w] : TrilinearWeights(p))
      for (int a = 0; a < 3; ++a) q[a] += w * grid[3 * corner + a];
    mapped.push_back(q);
  }
  return mapped;
}

// Every pair of neighbouring grid points (distance 1 at rest): the springs along the axes.
std::vector<std::pair<int, int>> GridEdges() {
  std::vector<std::pair<int, int>> edges;
  for (int k = 0; k < kNz; ++k)
    for (int j = 0; j < kNy; ++j)
      for (int i = 0; i < kNx; ++i) {
        if (i + 1 < kNx) edges.emplace_back(GridIndex(i, j, k), GridIndex(i + 1, j, k));
        if (j + 1 < kNy) edges.emplace_back(GridIndex(i, j, k), GridIndex(i, j + 1, k));
        if (k + 1 < kNz) edges.emplace_back(GridIndex(i, j, k), GridIndex(i, j, k + 1));
      }
  return edges;
}

double Distance(const Eigen::Map<const Vector>& x, int a, int b) {
  return (x.segment<3>(3 * a) - x.segment<3>(3 * b)).norm();
}

Point CentreOfMass(const Eigen::Map<const Vector>& x) {  // uniform mass: the mean point
  Point c{0, 0, 0};
  const Index points = x.size() / 3;
  for (Index p = 0; p < points; ++p)
    for (int a = 0; a < 3; ++a) c[a] += x[3 * p + a] / static_cast<double>(points);
  return c;
}

// The centre of mass fell by `fallen` along y, within `tolerance`, and did not move across.
void ExpectFallenBy(const Point& c, const Point& c0, double fallen, double tolerance,
                    const std::string& what) {
  EXPECT_NEAR(c[0], c0[0], kRoundOff) << what;
  EXPECT_NEAR(c[1], c0[1] + fallen, tolerance) << what;
  EXPECT_NEAR(c[2], c0[2], kRoundOff) << what;
}

constexpr double kMappingTolerance = 1e-12;

class SofaObjects : public testing::QuietTest {};

TEST_F(SofaObjects, TorusFFDFallsFreelyWithItsSurfaceMapped) {
  Simulation simulation = testing::TestHost().LoadFile(kFolder + "TorusFFD.xml");
  const int grid = simulation.FindObject("TorusFFD/MechanicalObject");
  const int surface = simulation.FindObject("TorusFFD/Surf2/MechanicalObject");
  ASSERT_GE(grid, 0);
  ASSERT_GE(surface, 0);
  ASSERT_EQ(simulation.objects()[grid].num_points, kNx * kNy * kNz);
  EXPECT_EQ(simulation.objects()[surface].mapped_from, grid);
  const std::vector<Point> vertices = ObjVertices(kFolder + "mesh/torus_for_collision.obj");
  ASSERT_EQ(simulation.objects()[surface].num_points, static_cast<Index>(vertices.size()));

  // The grid as SOFA lays it out.
  const Vector layout = simulation.position(grid);
  for (int k = 0; k < kNz; ++k)
    for (int j = 0; j < kNy; ++j)
      for (int i = 0; i < kNx; ++i)
        for (int a = 0; a < 3; ++a)
          ASSERT_EQ(layout[3 * GridIndex(i, j, k) + a], kGridMin[a] + (a == 0   ? i
                                                                       : a == 1 ? j
                                                                                : k));

  const Vector x0 = simulation.position(grid);  // (re-read: the layout was checked above)
  const Point c0 = CentreOfMass(simulation.position(grid));
  const CgBounds cg = Bounds(1e-8, 5.0, kNx * kNy * kNz);  // threshold, totalMass
  const std::vector<double> fallen = FreeFall(kSteps);
  for (int n = 0; n < kSteps; ++n) {
    simulation.Step();
    ExpectFallenBy(CentreOfMass(simulation.position(grid)), c0, fallen[n], cg.CentreOfMass(n + 1),
                   "step " + std::to_string(n + 1));
    if (n < 5) {  // the first steps are exact for every point (an eigenvector, solved at once)
      const auto x = simulation.position(grid);
      for (Index p = 0; p < kNx * kNy * kNz; ++p)
        ASSERT_NEAR(x[3 * p + 1], x0[3 * p + 1] + fallen[n], kRoundOff) << "point " << p;
    }
  }
  EXPECT_LT(fallen.back(), -39.0);  // a real fall: ~40 m in 3 s with rM = 0.1

  // The springs are at rest, and the surface is where the weights put it.
  const auto x = simulation.position(grid);
  for (const auto& [a, b] : GridEdges()) EXPECT_NEAR(Distance(x, a, b), 1.0, cg.Distance(kSteps));
  const std::vector<Point> expected = Interpolated(vertices, x);
  const auto mapped = simulation.position(surface);
  for (std::size_t p = 0; p < vertices.size(); ++p)
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(mapped[3 * p + a], expected[p][a], kMappingTolerance) << "point " << p;
}

// The same lattice with its x = −2.5 face held (FixedProjectiveConstraint): it bends under
// gravity, and the surface must still be the trilinear combination of the moving corners.
TEST_F(SofaObjects, TorusFFDSurfaceFollowsADeformingGrid) {
  std::string held;
  for (int k = 0; k < kNz; ++k)
    for (int j = 0; j < kNy; ++j) held += std::to_string(GridIndex(0, j, k)) + " ";
  const std::string scene = R"(<Node name="TorusFFD">
  <EulerImplicitSolver rayleighStiffness="0.01" rayleighMass="0.1"/>
  <CGLinearSolver iterations="25" threshold="0.00000001" tolerance="1e-05"/>
  <RegularGridTopology nx="6" ny="2" nz="5" xmin="-2.5" xmax="2.5" ymin="-0.5" ymax="0.5"
                       zmin="-2" zmax="2"/>
  <MechanicalObject/>
  <UniformMass totalMass="5"/>
  <RegularGridSpringForceField name="Springs" stiffness="200" damping="2"/>
  <FixedProjectiveConstraint indices=")" +
                            held + R"("/>
  <Node name="Surf2">
    <MeshOBJLoader name="meshCollisionLoader" filename="mesh/torus_for_collision.obj"/>
    <MeshTopology src="@meshCollisionLoader"/>
    <MechanicalObject/>
    <TriangleCollisionModel/>
    <BarycentricMapping/>
  </Node>
</Node>)";
  Simulation simulation = testing::TestHost().LoadString(scene, kFolder + "bending.xml");
  const int grid = simulation.FindObject("TorusFFD/MechanicalObject");
  const int surface = simulation.FindObject("TorusFFD/Surf2/MechanicalObject");
  ASSERT_GE(grid, 0);
  ASSERT_GE(surface, 0);
  const std::vector<Point> vertices = ObjVertices(kFolder + "mesh/torus_for_collision.obj");
  for (int n = 0; n < 100; ++n) simulation.Step();
  const auto x = simulation.position(grid);
  // It bent: the free end sank, and some springs are stretched.
  EXPECT_LT(x[3 * GridIndex(kNx - 1, 0, 0) + 1], -0.5 - 0.05);
  double stretch = 0.0;
  for (const auto& [a, b] : GridEdges()) stretch = std::max(stretch, Distance(x, a, b) - 1.0);
  EXPECT_GT(stretch, 1e-3);
  const std::vector<Point> expected = Interpolated(vertices, x);
  const auto mapped = simulation.position(surface);
  for (std::size_t p = 0; p < vertices.size(); ++p)
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(mapped[3 * p + a], expected[p][a], kMappingTolerance) << "point " << p;
}

TEST_F(SofaObjects, TorusSpringFallsFreelyWithItsSpringsAtRest) {
  Simulation simulation = testing::TestHost().LoadFile(kFolder + "TorusSpring.xml");
  const int body = simulation.FindObject("TorusSpring/MechanicalObject");
  const int surface = simulation.FindObject("TorusSpring/Surf2/MechanicalObject");
  ASSERT_GE(body, 0);
  ASSERT_GE(surface, 0);
  EXPECT_EQ(simulation.objects()[surface].mapped_from, body);
  const Index points = simulation.objects()[body].num_points;
  ASSERT_EQ(points, 24);  // 8 cross-sections of 3 points (make_meshes.py)
  const Vector x0 = simulation.position(body);
  const Point c0 = CentreOfMass(simulation.position(body));
  const CgBounds cg = Bounds(1e-5, 5.0, points);  // threshold, totalMass
  const std::vector<double> fallen = FreeFall(kSteps);
  for (int n = 0; n < kSteps; ++n) {
    simulation.Step();
    ExpectFallenBy(CentreOfMass(simulation.position(body)), c0, fallen[n], cg.CentreOfMass(n + 1),
                   "step " + std::to_string(n + 1));
  }
  EXPECT_LT(fallen.back(), -39.0);
  // Every pair of points keeps its distance (the tetrahedra's edges are the springs: a rigid
  // motion is the only one that leaves them all at rest).
  const auto x = simulation.position(body);
  const Eigen::Map<const Vector> start(x0.data(), x0.size());
  for (Index a = 0; a < points; ++a)
    for (Index b = a + 1; b < points; ++b)
      EXPECT_NEAR(Distance(x, a, b), Distance(start, a, b), cg.Distance(kSteps));
  // The mapped surface came along: its centre fell as the body's did.
  const std::vector<Point> vertices = ObjVertices(kFolder + "mesh/torus_for_collision.obj");
  const auto mapped = simulation.position(surface);
  ASSERT_EQ(mapped.size(), static_cast<Index>(3 * vertices.size()));
  Point v0{0, 0, 0};
  for (const Point& v : vertices)
    for (int a = 0; a < 3; ++a) v0[a] += v[a] / static_cast<double>(vertices.size());
  const Point mapped_centre = CentreOfMass(mapped);
  for (int a = 0; a < 3; ++a)
    EXPECT_NEAR(mapped_centre[a], v0[a] + (a == 1 ? fallen.back() : 0.0),
                cg.CentreOfMass(kSteps) + cg.Distance(kSteps));
}

// As the issue asks: from their folder, `scene-runner TorusFFD.xml --steps 300 -o out.csv`
// succeeds and writes finite numbers.
TEST_F(SofaObjects, RunUnmodifiedFromTheirFolder) {
  for (const std::string name : {"TorusFFD", "TorusSpring"}) {
    const std::string csv = ::testing::TempDir() + name + "_out.csv";
    const testing::CommandResult run =
        testing::RunCommand("cd " + kFolder + " && " + testing::SceneRunner() + " " + name +
                            ".xml --steps 300 -o " + csv + " --overwrite");
    ASSERT_EQ(run.status, 0) << name << ": " << run.err;
    std::ifstream in(csv);
    std::string line, last;
    int rows = 0;
    while (std::getline(in, line)) {
      last = line;
      ++rows;
    }
    EXPECT_EQ(rows, 1 + 301) << name;  // header, the initial state and 300 steps
    std::stringstream cells(last);
    for (std::string cell; std::getline(cells, cell, ',');)
      EXPECT_TRUE(std::isfinite(std::stod(cell))) << name << ": " << cell;
  }
}

}  // namespace
}  // namespace fluxion
