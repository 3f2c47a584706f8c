// SOFA's triangular membranes through scenes: a square membrane under a uniform edge traction
// against the closed form of uniaxial plane stress (each component, each method), Optim's
// restScale, the triangles of a TriangleSetTopologyContainer, a MeshTopology, a grid and
// TriangleFEMForceField's split quads, implicit steps that do not allocate, and each bad input
// as one `FILE:LINE:` error.
#include <gmock/gmock.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "conformance/allocation_counter.h"
#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

class TriangleFemScenes : public testing::QuietTest {};

constexpr double kYoung = 600.0, kPoisson = 0.3;
constexpr int kCells = 4;  // the square [0, 1]² at z = 0 in 4 × 4 cells, 32 triangles

// The membrane, its left edge x = 0 held along x (point 0 also along y), every point held
// along z (a membrane has no bending stiffness), the right edge x = 1 pulled along x by a
// total force `total` spread as the consistent loads of a uniform traction (L_e/2 per point:
// the corners get half of the others). StaticSolver with Newton.
std::string Membrane(const std::string& force_field, double total) {
  const int m = kCells + 1;
  std::string left, right, forces;
  for (int j = 0; j < m; ++j) {
    left += std::to_string(m * j) + " ";
    right += std::to_string(m * j + kCells) + " ";
    const double share = total / kCells * ((j == 0 || j == kCells) ? 0.5 : 1.0);
    forces += std::to_string(share) + " 0 0  ";
  }
  return R"(<Node name="root" dt="1" gravity="0 0 0">
  <StaticSolver/>
  <NewtonRaphsonSolver maxNbIterationsNewton="20" absoluteResidualStoppingThreshold="1e-13"/>
  <SparseLDLSolver/>
  <RegularGridTopology n=")" +
         std::to_string(m) + " " + std::to_string(m) + R"( 1" min="0 0 0" max="1 1 0"/>
  <MechanicalObject name="membrane"/>
  <UniformMass totalMass="1"/>
  )" + force_field +
         R"(
  <PartialFixedProjectiveConstraint fixAll="1" fixedDirections="0 0 1"/>
  <PartialFixedProjectiveConstraint indices=")" +
         left + R"(" fixedDirections="1 0 1"/>
  <FixedProjectiveConstraint indices="0"/>
  <ConstantForceField indices=")" +
         right + R"(" forces=")" + forces + R"("/>
</Node>)";
}

TEST_F(TriangleFemScenes, UniaxialTractionGivesTheClosedFormStretchAndContraction) {
  // Uniaxial plane stress σ = F/(t·L) along x: ε_xx = σ/E, ε_yy = −ν·σ/E, exactly represented
  // by constant-strain triangles: the right edge moves by σ·L/E, the top edge by −ν·σ·L/E. With
  // σ/E = 1e-4 the corotational methods (frames turning by O(ε), SOFA's gradients of the
  // current triangle) differ from this linear answer by O(ε) relative: bound 1e-3 relative.
  struct Case {
    std::string field;
    double thickness;
  };
  const Case cases[] = {
      {R"(<TriangleFEMForceField youngModulus="600" poissonRatio="0.3" thickness="0.1"/>)", 0.1},
      {R"(<TriangleFEMForceField youngModulus="600" poissonRatio="0.3" method="small" thickness="0.1"/>)",
       0.1},
      {R"(<TriangularFEMForceField youngModulus="600" poissonRatio="0.3"/>)", 1.0},
      {R"(<TriangularFEMForceField youngModulus="600" poissonRatio="0.3" method="small"/>)", 1.0},
      {R"(<TriangularFEMForceFieldOptim youngModulus="600" poissonRatio="0.3"/>)", 1.0}};
  const int m = kCells + 1;
  for (const Case& c : cases) {
    const double sigma = 1e-4 * kYoung;
    Simulation simulation = LoadScene(Membrane(c.field, sigma * c.thickness * 1.0));
    simulation.Step();
    const auto x = simulation.position(0);
    const double stretch = sigma / kYoung, contraction = -kPoisson * sigma / kYoung;
    for (int j = 0; j < m; ++j) {
      const int right = m * j + kCells, top = m * kCells + j;
      EXPECT_NEAR(x[3 * right] - 1.0, stretch, 1e-3 * stretch) << c.field << " point " << right;
      EXPECT_NEAR(x[3 * top + 1] - 1.0, contraction, 1e-3 * std::abs(contraction))
          << c.field << " point " << top;
    }
    std::printf("[ info ] %s: right edge %.6e (closed form %.6e), top edge %.6e (%.6e)\n",
                c.field.c_str(), x[3 * kCells] - 1.0, stretch, x[3 * (m * kCells) + 1] - 1.0,
                contraction);
  }
}

TEST_F(TriangleFemScenes, OptimRestScaleShrinksTheFreeMembraneByItsFactor) {
  // restScale s: the rest triangles are the mesh's scaled by s about their first vertex, so the
  // unloaded membrane's equilibrium is the mesh scaled by s (about the held point 0): a 2 %
  // pre-stretch, far from linear, reached by Newton to round-off.
  Simulation simulation = LoadScene(Membrane(
      R"(<TriangularFEMForceFieldOptim youngModulus="600" poissonRatio="0.3" restScale="0.98"/>)",
      0.0));
  simulation.Step();
  const auto x = simulation.position(0);
  const int m = kCells + 1;
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      const int point = i + m * j;
      EXPECT_NEAR(x[3 * point], 0.98 * i / kCells, 1e-10) << point;
      EXPECT_NEAR(x[3 * point + 1], 0.98 * j / kCells, 1e-10) << point;
    }
}

// --- SOFA's reference states --------------------------------------------------------------------

// Not a QuietTest: SOFA's CGLinearSolver stops after its 25 iterations short of its tolerance,
// and Fluxion's (rightly) warns.
TEST(TriangleFemSofaReference, OptimWithBendingSpringsMatchesSofasRegressionReference) {
  // SOFA's examples/Component/SolidMechanics/Spring/FastTriangularBendingSprings.scn as it is but
  // its mesh file inline: mesh/triangleGrid_10_10.obj is the 10 × 10 grid of points
  // (i·10/9, j·10/9, 0) written with 6 significant digits, point 10i + j, and the triangles
  // (p(i,j), p(i,j+1), p(i+1,j+1)), (p(i,j), p(i+1,j+1), p(i+1,j)) (checked against the file
  // line by line). A plate clamped along y = 0, sagging under gravity −1 along z:
  // TriangularFEMForceFieldOptim (E = 20000, ν = 0.3) with FastTriangularBendingSprings,
  // EulerImplicitSolver (Rayleigh 0.1, 0.1) and CGLinearSolver (25 iterations), dt = 0.01.
  // References: SOFA's Regression project, references/examples/Component/SolidMechanics/Spring/
  // FastTriangularBendingSprings.scn.reference_0_defoDOF_mstate.txt.gz, the state after 99 steps
  // (T = 0.99), 6 significant digits: one unit of the 6th digit is the tolerance. Points 9 (the
  // free corner above the clamped one), 55 (mid-plate) and 99 (the far free corner).
  struct Expected {
    int point;
    std::array<double, 3> x, v;
  };
  const Expected expected[] = {
      {9, {0.00201083, 9.98543, -0.452333}, {0.00734205, -0.0657377, -0.899704}},
      {55, {5.55527, 5.53677, -0.508945}, {-0.000947557, -0.0772585, -0.947597}},
      {99, {9.99959, 9.98328, -0.51837}, {0.000529695, -0.0759089, -1.15866}}};
  std::string position, triangles;
  char number[32];
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j) {
      std::snprintf(number, sizeof number, "%g %g 0  ", i * 10.0 / 9.0, j * 10.0 / 9.0);
      position += number;
    }
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j) {
      const auto p = [](int a, int b) { return std::to_string(10 * a + b) + " "; };
      triangles += p(i, j) + p(i, j + 1) + p(i + 1, j + 1) + " " + p(i, j) + p(i + 1, j + 1) +
                   p(i + 1, j) + " ";
    }
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 -1">
    <DefaultAnimationLoop/>
    <EulerImplicitSolver  rayleighStiffness="0.1" rayleighMass="0.1" />
    <CGLinearSolver iterations="25" tolerance="1e-5" threshold="1e-5"/>
    <Node name="Thin shell">
        <MeshTopology position=")" + position +
                                    R"(" triangles=")" + triangles + R"("/>
        <MechanicalObject name="defoDOF" template="Vec3" />
        <BoxROI name="box1" box="-0.5 -0.5 -0.5  100.5 0.005 0.005  " />
        <FixedProjectiveConstraint indices="@box1.indices"/>
        <TriangularFEMForceFieldOptim name="FEM1" youngModulus="20000" poissonRatio="0.3" method="large" />
        <FastTriangularBendingSprings bendingStiffness="10000" />
        <UniformMass totalMass="2500" printLog="0" />
    </Node>
</Node>)");
  for (int step = 0; step < 99; ++step) simulation.Step();
  const auto x = simulation.position(0), v = simulation.velocity(0);
  const auto digit = [](double value) {
    return value == 0.0 ? 1e-5 : std::pow(10.0, std::floor(std::log10(std::abs(value))) - 5);
  };
  // Positions to a unit of each number's 6th digit; velocities to a unit of the 6th digit of the
  // point's largest component (as for the hexahedra's reference): the sideways x velocity of
  // the mid-plate point, −9.4756e-4 against −0.95 along z, differs by 4e-9, the truncation of
  // the 25 CG iterations (SOFA's own rule gives 9.6e-12 for the whole scene).
  for (const Expected& e : expected) {
    const double v_digit = digit(std::max({std::abs(e.v[0]), std::abs(e.v[1]), std::abs(e.v[2])}));
    for (int c = 0; c < 3; ++c) {
      const auto k = static_cast<std::size_t>(c);
      EXPECT_NEAR(x[3 * e.point + c], e.x[k], digit(e.x[k])) << "x point " << e.point << " " << c;
      EXPECT_NEAR(v[3 * e.point + c], e.v[k], v_digit) << "v point " << e.point << " " << c;
    }
  }
}

TEST(TriangleFemSofaReference, GridUnderGravityMatchesSofasUnitTest) {
  // SOFA's own numbers for the three components: Sofa/Component/SolidMechanics/FEM/Elastic/tests/
  // TriangleFEMForceField_test.cpp, checkFEMValues: a 40 × 40 RegularGridTopology over
  // [0, 10]² given to a TriangleSetTopologyContainer, E = 100, ν = 0.3, method large,
  // DiagonalMass (massDensity 0.1), points 0 and 39 fixed, gravity 10 along y, dt = 0.01,
  // EulerImplicitSolver and CGLinearSolver (20 iterations, tolerance 1e-5, threshold 1e-6); after
  // 100 steps point 1515 is at (8.9135, 14.2499, 0) with TriangleFEMForceField and
  // TriangularFEMForceField, (9.03591, 12.8705, 0) with TriangularFEMForceFieldOptim (SOFA's
  // tolerance, 1e-4). Its rest position is (8.97436, 9.48718, 0).
  struct Case {
    const char* component;
    double x, y;
  };
  for (const Case& c : {Case{"TriangleFEMForceField", 8.9135, 14.2499},
                        Case{"TriangularFEMForceField", 8.9135, 14.2499},
                        Case{"TriangularFEMForceFieldOptim", 9.03591, 12.8705}}) {
    Simulation simulation =
        LoadScene(R"(<Node name="root" dt="0.01" gravity="0 10 0">
  <DefaultAnimationLoop/>
  <RegularGridTopology name="grid" n="40 40 1" min="0 0 0" max="10 10 0"/>
  <Node name="FEM">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="20" tolerance="1e-5" threshold="1e-6"/>
    <MechanicalObject name="dof" template="Vec3d" position="@../grid.position"/>
    <TriangleSetTopologyContainer name="topo" src="@../grid"/>
    <TriangleSetTopologyModifier name="Modifier"/>
    <TriangleSetGeometryAlgorithms name="GeomAlgo" template="Vec3d"/>
    <)" + std::string(c.component) +
                  R"( name="FEM" youngModulus="100" poissonRatio="0.3" method="large"/>
    <DiagonalMass name="mass" massDensity="0.1"/>
    <FixedProjectiveConstraint name="fix" indices="0 39"/>
  </Node>
</Node>)");
    const auto x0 = simulation.position(0);
    EXPECT_NEAR(x0[3 * 1515], 8.97436, 1e-4);
    EXPECT_NEAR(x0[3 * 1515 + 1], 9.48718, 1e-4);
    for (int step = 0; step < 100; ++step) simulation.Step();
    const auto x = simulation.position(0);
    std::printf("[ info ] %s: point 1515 at (%.6g, %.6g, %.3g), SOFA (%.6g, %.6g, 0)\n",
                c.component, x[3 * 1515], x[3 * 1515 + 1], x[3 * 1515 + 2], c.x, c.y);
    EXPECT_NEAR(x[3 * 1515], c.x, 1e-4) << c.component;
    EXPECT_NEAR(x[3 * 1515 + 1], c.y, 1e-4) << c.component;
    EXPECT_NEAR(x[3 * 1515 + 2], 0.0, 1e-4) << c.component;
  }
}

// --- Topologies ----------------------------------------------------------------------------------

TEST_F(TriangleFemScenes, EveryTriangleTopologyGivesTheGridsForces) {
  // Two triangles (0 1 4, 0 4 3) and (1 2 5, 1 5 4) of a 3 × 2 grid, given by the grid itself
  // (whose triangles split each quad so), a TriangleSetTopologyContainer, a MeshTopology and,
  // for TriangleFEMForceField, a QuadSetTopologyContainer whose quads it splits the same way:
  // five implicit steps of the strip pulled at its end give the same positions to the bit.
  const std::string points = "0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0";
  const std::string triangles = "0 1 4  0 4 3  1 2 5  1 5 4";
  const auto scene = [&](const std::string& topology, const std::string& field) {
    return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  )" + topology +
           R"(
  <MechanicalObject name="strip"/>
  <UniformMass vertexMass="1"/>
  )" + field +
           R"(
  <PartialFixedProjectiveConstraint fixAll="1" fixedDirections="0 0 1"/>
  <FixedProjectiveConstraint indices="0 3"/>
  <ConstantForceField indices="2 5" totalForce="40 10 0"/>
</Node>)";
  };
  for (const char* field :
       {R"(<TriangleFEMForceField youngModulus="1000" poissonRatio="0.3"/>)",
        R"(<TriangularFEMForceField youngModulus="1000" poissonRatio="0.3"/>)",
        R"(<TriangularFEMForceFieldOptim youngModulus="1000" poissonRatio="0.3"/>)"}) {
    std::vector<std::string> topologies = {
        R"(<RegularGridTopology n="3 2 1" min="0 0 0" max="2 1 0"/>)",
        R"(<TriangleSetTopologyContainer position=")" + points + R"(" triangles=")" + triangles +
            R"("/>)",
        R"(<MeshTopology position=")" + points + R"(" triangles=")" + triangles + R"("/>)"};
    if (std::string(field).find("TriangleFEM") != std::string::npos)
      topologies.push_back(R"(<QuadSetTopologyContainer position=")" + points +
                           R"(" quads="0 1 4 3  1 2 5 4"/>)");
    std::vector<Vector> results;
    for (const std::string& topology : topologies) {
      Simulation simulation = LoadScene(scene(topology, field));
      for (int n = 0; n < 5; ++n) simulation.Step();
      results.push_back(simulation.position(0));
    }
    EXPECT_GT(std::abs(results[0][3 * 1] - 1.0), 1e-3) << field;  // the middle point moved
    for (std::size_t k = 1; k < results.size(); ++k)
      EXPECT_TRUE((results[k].array() == results[0].array()).all()) << field << " " << k;
  }
}

TEST_F(TriangleFemScenes, ImplicitStepsDoNotAllocate) {
  // The assembled path (SparseLDLSolver: AddStiffness) and the matrix-free one (CGLinearSolver:
  // LinearizeStiffness, AddTangentProduct).
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer";
  for (const char* field :
       {R"(<TriangleFEMForceField youngModulus="600" poissonRatio="0.3"/>)",
        R"(<TriangularFEMForceField youngModulus="600" poissonRatio="0.3" method="small"/>)",
        R"(<TriangularFEMForceFieldOptim youngModulus="600" poissonRatio="0.3"/>)"})
    for (
        const char* solver :
        {R"(<EulerImplicitSolver rayleighMass="0.1"/><SparseLDLSolver/>)",
         R"(<EulerImplicitSolver rayleighMass="0.1"/><CGLinearSolver iterations="200" tolerance="1e-10" threshold="1e-30"/>)"}) {
      std::string xml = Membrane(field, 0.06);
      const std::size_t begin = xml.find("<StaticSolver/>");
      const std::size_t end = xml.find("<RegularGridTopology");
      xml.replace(begin, end - begin, std::string(solver) + "\n  ");
      xml.replace(xml.find("dt=\"1\""), 6, "dt=\"0.01\"");
      Simulation simulation = LoadScene(xml);
      for (int n = 0; n < 3; ++n) simulation.Step();
      const long before = conformance::AllocationCount();
      for (int n = 0; n < 5; ++n) simulation.Step();
      EXPECT_EQ(conformance::AllocationCount() - before, 0) << field << " " << solver;
    }
}

// --- Bad input ---------------------------------------------------------------------------------

std::string OneSquare(
    const std::string& component, const std::string& attributes,
    const std::string& topology = R"(<RegularGridTopology n="2 2 1" min="0 0 0" max="1 1 0"/>)") {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/><CGLinearSolver/>
  )" + topology +
         R"(
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <)" + component +
         " " + attributes + R"(/>
</Node>)";
}

void ExpectError(const std::string& xml, const std::string& expected) {
  try {
    LoadScene(xml);
    ADD_FAILURE() << "no error for: " << expected;
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr(expected));
  }
}

TEST_F(TriangleFemScenes, BadInputIsOneLineAtTheComponent) {
  ExpectError(OneSquare("TriangleFEMForceField", R"(method="polar")"),
              "inline.scn:6: TriangleFEMForceField 'method': 'polar' is not one of the choices "
              "(expected one of small, large)");
  ExpectError(OneSquare("TriangularFEMForceFieldOptim", R"(method="small")"),
              "inline.scn:6: TriangularFEMForceFieldOptim 'method': 'small' is not one of the "
              "choices (expected one of large)");
  ExpectError(OneSquare("TriangularFEMForceField", R"(poissonRatio="0.5")"),
              "inline.scn:6: TriangularFEMForceField 'poissonRatio' has 0.500000 (expected a "
              "value in [0, 0.5), as SOFA's Hooke law needs)");
  ExpectError(OneSquare("TriangleFEMForceField", R"(initialPoints="0 0 0")"),
              "inline.scn:6: TriangleFEMForceField 'initialPoints' has 3 values (expected 3 per "
              "point of 'root/MechanicalObject': 12)");
  ExpectError(
      OneSquare(
          "TriangularFEMForceField",
          R"(rotatedInitialElements="0 0 0 1 0 0 0 1 0" initialTransformation="1 0 0 0 1 0 0 0 1")"),
      "inline.scn:6: TriangularFEMForceField 'rotatedInitialElements' has 9 values "
      "(expected 9 per triangle: 18)");
  ExpectError(
      OneSquare("TriangularFEMForceField", "",
                R"(<MeshTopology position="0 0 0  1 0 0  2 0 0  0 1 0" triangles="0 1 2"/>)"),
      "inline.scn:6: TriangularFEMForceField: triangle 0 (0 1 2) is flat at rest "
      "(expected three points not on one line)");
  ExpectError(
      OneSquare("TriangularFEMForceField", R"(method="small")",
                R"(<MeshTopology position="0 0 0  1 0 0  0 0 1  0 1 0" triangles="0 1 2"/>)"),
      "inline.scn:6: TriangularFEMForceField: triangle 0 (0 1 2) is flat at rest in the "
      "xy plane (method small)");
  ExpectError(
      OneSquare("TriangularFEMForceFieldOptim", "",
                R"(<MeshTopology position="0 0 0  1 0 0  0 1 0  0 0 1" edges="0 1  1 2"/>)"),
      "inline.scn:6: TriangularFEMForceFieldOptim needs a topology with triangles in node "
      "'root'");
}

TEST_F(TriangleFemScenes, DrawingFieldsAreAcceptedSilently) {
  Simulation a = LoadScene(
      OneSquare("TriangularFEMForceField",
                R"(showStressValue="1" showStressVector="0" showFracturableTriangles="0" )"
                R"(computePrincipalStress="1" hosfordExponant="2" criteriaValue="1e10")"));
  a.Step();
  Simulation b = LoadScene(OneSquare("TriangularFEMForceFieldOptim",
                                     R"(damping="0.1" computePrincipalStress="1" )"
                                     R"(showStressVector="1" showStressThreshold="0.2")"));
  b.Step();
  Simulation c =
      LoadScene(OneSquare("TriangleFEMForceField", R"(thickness="0.01" planeStrain="1")"));
  c.Step();
}

TEST_F(TriangleFemScenes, SceneRunnerSaysErrorFileLineAndExitsWithTwo) {
  const std::string scene = ::testing::TempDir() + "triangle_fem_poisson.scn";
  std::ofstream(scene) << OneSquare("TriangleFEMForceField", R"(poissonRatio="0.7")");
  const testing::CommandResult run =
      testing::RunCommand(testing::SceneRunner() + " " + scene + " --steps 1 -o /dev/null");
  EXPECT_EQ(run.status, 2);
  EXPECT_THAT(run.err, HasSubstr("error: " + scene + ":6: TriangleFEMForceField 'poissonRatio'"));
}

}  // namespace
}  // namespace fluxion
