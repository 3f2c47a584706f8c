// SOFA's triangular membranes through scenes: a square membrane under a uniform edge traction
// against the closed form of uniaxial plane stress (each component, each method), Optim's
// restScale, the triangles of a TriangleSetTopologyContainer, a MeshTopology, a grid and
// TriangleFEMForceField's split quads, implicit steps that do not allocate, and each bad input
// as one `FILE:LINE:` error.
#include <gmock/gmock.h>

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
