// TetrahedronFEMForceField through scenes: a cantilever of tetrahedra against Euler–Bernoulli as
// the mesh is refined, implicit steps that do not allocate, and each bad input as one
// `FILE:LINE:` error.
#include <gmock/gmock.h>

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

using testing::ExpectSceneError;
using ::testing::HasSubstr;
using testing::LoadScene;

class TetrahedronFemScenes : public testing::QuietTest {};

// A 1 × 1 × 10 beam along z of n × n × 10n cubes, each cut into tetrahedra by
// Hexa2TetraTopologicalMapping, clamped at z = 0 (every node of that face fixed), a total force
// F = 1 N along −y spread over the nodes of the tip face; E = 1e6 Pa, ν = 0 (Euler–Bernoulli has
// no Poisson effect). StaticSolver: one linear solve for small, Newton for the others.
std::string Cantilever(int n, const std::string& method, const std::string& solver = "",
                       const std::string& dt = "1") {
  const std::string cells =
      std::to_string(n + 1) + " " + std::to_string(n + 1) + " " + std::to_string(10 * n + 1);
  return R"(<Node name="root" dt=")" + dt + R"(" gravity="0 0 0">
  )" +
         (solver.empty() ? std::string(R"(<StaticSolver/>
  <NewtonRaphsonSolver maxNbIterationsNewton="20" absoluteResidualStoppingThreshold="1e-12"/>
  <SparseLDLSolver/>)")
                         : solver) +
         R"(
  <RegularGridTopology name="grid" n=")" +
         cells + R"(" min="0 0 0" max="1 1 10"/>
  <MechanicalObject name="beam"/>
  <UniformMass totalMass="1"/>
  <Node name="tetrahedra">
    <MeshTopology name="tets"/>
    <Hexa2TetraTopologicalMapping input="@../grid" output="@tets"/>
    <TetrahedronFEMForceField youngModulus="1e6" poissonRatio="0" method=")" +
         method + R"("/>
  </Node>
  <BoxROI name="clamp" box="-0.1 -0.1 -0.1 1.1 1.1 0.001"/>
  <FixedProjectiveConstraint indices="@clamp.indices"/>
  <BoxROI name="tip" box="-0.1 -0.1 9.999 1.1 1.1 10.1"/>
  <ConstantForceField indices="@tip.indices" totalForce="0 -1 0"/>
</Node>)";
}

// The mean y displacement of the tip face's nodes after one static step.
double TipDeflection(int n, const std::string& method) {
  Simulation simulation = LoadScene(Cantilever(n, method));
  simulation.Step();
  const auto x = simulation.position(0);
  const int m = n + 1;
  double sum = 0.0;
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      const int point = i + m * (j + m * 10 * n);  // RegularGridTopology: x fastest, z slowest
      EXPECT_NEAR(x[3 * point + 2], 10.0, 1e-2);
      sum += x[3 * point + 1] - j * 1.0 / n;
    }
  return -sum / (m * m);
}

TEST_F(TetrahedronFemScenes, CantileverConvergesToEulerBernoulli) {
  // δ = F·L³/(3·E·I), I = b⁴/12: 1·1000·12/(3·1e6) = 4e-3 (δ/L = 4e-4: the corotational methods
  // stay in the linear range). Timoshenko's shear adds F·L/(κ·G·A) = 10/((5/6)·5e5) = 2.4e-5
  // (0.6 %), the clamp's local stiffening a little less: the target is EB within 1 %. Linear
  // tetrahedra lock in bending: the error falls roughly as h² from a large start.
  const double euler_bernoulli = 1.0 * 1000.0 * 12.0 / (3.0 * 1e6);
  double previous_error = 1.0;
  for (const int n : {1, 2, 4, 8}) {
    const double small = TipDeflection(n, "small");
    const double error = 1.0 - small / euler_bernoulli;
    std::printf("[ info ] n = %d (%d tetrahedra): tip %.6e, EB %.6e, relative error %.4f\n", n,
                60 * n * n * n, small, euler_bernoulli, error);
    EXPECT_GT(error, 0.0) << n;  // linear tetrahedra are too stiff
    EXPECT_LT(error, previous_error) << n;
    previous_error = error;
    // The corotational methods agree with small at this small deflection (to O(δ/L)).
    for (const char* method : {"large", "polar", "svd"}) {
      if (n > 4) continue;
      EXPECT_NEAR(TipDeflection(n, method), small, 2e-3 * small) << method << " " << n;
    }
  }
  // The finest mesh (8 × 8 × 80 cubes, 30720 tetrahedra): within 6 % of Euler–Bernoulli.
  EXPECT_LT(previous_error, 0.06);
}

TEST_F(TetrahedronFemScenes, OnAGridItCutsTheHexahedraAsSofaDoes) {
  // TetrahedronFEMForceField in the grid's own node (SOFA's examples write it so): six
  // tetrahedra per cell, mirrored in a checkerboard as Hexa2TetraTopologicalMapping's swapping
  // does but with the plain vertex order. The same vertex sets: with small (whose element
  // stiffness does not depend on the vertex order) the static tip equals the mapping's to
  // round-off, and nearly so with large.
  for (const char* method : {"small", "large"}) {
    std::string direct = Cantilever(2, method);
    const std::size_t begin = direct.find(R"(<Node name="tetrahedra">)");
    const std::size_t end = direct.find("</Node>", begin) + 7;
    ASSERT_NE(begin, std::string::npos);
    direct.replace(
        begin, end - begin,
        std::string(R"(<TetrahedronFEMForceField youngModulus="1e6" poissonRatio="0" method=")") +
            method + R"("/>)");
    std::string mapped = Cantilever(2, method);
    mapped.replace(mapped.find(R"(output="@tets")"), 14, R"(output="@tets" swapping="true")");
    const auto tip = [](const std::string& scene) {
      Simulation simulation = LoadScene(scene);
      simulation.Step();
      const int point = 3 * 3 * 20 + 4;  // the centre of the tip face
      return simulation.position(0)[3 * point + 1] - 0.5;
    };
    const double a = tip(direct), b = tip(mapped);
    std::printf("[ info ] %s: tip %.12e on the grid, %.12e through the mapping\n", method, a, b);
    // Bent: −2.31e-3, 0.58 of Euler–Bernoulli's −4e-3 (n = 2: linear tetrahedra lock).
    EXPECT_LT(a, -2e-3) << method;
    // small: the same bits measured; large: 1.7e-9 relative measured (the frames' first edges
    // differ in the mirrored cells).
    EXPECT_NEAR(a, b, (std::string(method) == "small" ? 1e-12 : 1e-6) * std::abs(b)) << method;
  }
}

TEST_F(TetrahedronFemScenes, ImplicitStepsDoNotAllocate) {
  // The assembled path (SparseLDLSolver: AddStiffness) and the matrix-free one (CGLinearSolver:
  // LinearizeStiffness, AddTangentProduct), h = 1 ms so that CG converges.
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer";
  for (const char* method : {"small", "large", "polar", "svd"})
    for (
        const char* solver :
        {R"(<EulerImplicitSolver rayleighMass="0.1"/><SparseLDLSolver/>)",
         R"(<EulerImplicitSolver rayleighMass="0.1"/><CGLinearSolver iterations="500" tolerance="1e-10" threshold="1e-30"/>)"}) {
      Simulation simulation = LoadScene(Cantilever(1, method, solver, "0.001"));
      for (int n = 0; n < 3; ++n) simulation.Step();
      const long before = conformance::AllocationCount();
      for (int n = 0; n < 5; ++n) simulation.Step();
      EXPECT_EQ(conformance::AllocationCount() - before, 0) << method << " " << solver;
    }
}

// --- SOFA's reference states --------------------------------------------------------------------

// SOFA's examples/Component/SolidMechanics/FEM/TetrahedronFEMForceField.scn, its BeamFEM_LARGE
// node as it is (the drawing options left out; the whole scene, all four methods, is checked by
// tools/sofa_regression: 42 s of one core here, too long for a unit test): a 10 × 10 × 40 beam of
// 4 × 4 × 19 cubes cut into tetrahedra, its face z = 0 fixed, falling under gravity −9 along y
// (E = 1000, ν = 0.4, massDensity 0.2); EulerImplicitSolver with Rayleigh damping 0.1/0.1 and
// CGLinearSolver (25 iterations), dt = 0.01.
std::string SofaBeam(const std::string& name, const std::string& translation,
                     const std::string& method) {
  return R"(
  <Node name=")" +
         name + R"(">
    <EulerImplicitSolver name="cg_odesolver" printLog="false" rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9"/>
    <RegularGridTopology name="grid" min="-5 -5 0" max="5 5 40" n="5 5 20"/>
    <MechanicalObject template="Vec3" translation=")" +
         translation + R"("/>
    <TetrahedronSetTopologyContainer name="Tetra_topo"/>
    <TetrahedronSetTopologyModifier name="Modifier"/>
    <TetrahedronSetGeometryAlgorithms template="Vec3" name="GeomAlgo"/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@Tetra_topo" swapping="true"/>
    <DiagonalMass massDensity="0.2"/>
    <TetrahedronFEMForceField name="FEM" youngModulus="1000" poissonRatio="0.4" computeGlobalMatrix="false"
                              method=")" +
         method + R"(" computeVonMisesStress="1"/>
    <BoxROI template="Vec3" name="box_roi" box="-6 -6 -1 50 6 0.1"/>
    <FixedProjectiveConstraint template="Vec3" indices="@box_roi.indices"/>
  </Node>)";
}

// Not a QuietTest: SOFA's CGLinearSolver stops after its 25 iterations short of its 1e-9
// tolerance in every step, and Fluxion's (rightly) warns.
TEST(TetrahedronFemSofaReference, MatchesSofasRegressionReferences) {
  // SOFA's Regression project, references/examples/Component/SolidMechanics/FEM/
  // TetrahedronFEMForceField.scn.reference_1_MechanicalObject1_mstate.txt.gz: the positions
  // after 299 steps (T = 2.99) of points 499 (the free corner), 487 and 262, printed by SOFA
  // with 6 significant digits: one unit of the 6th digit is the tolerance. The beam has
  // fallen by about 32 along y: large deflections, far from the linear range.
  struct Expected {
    int object;
    int point;
    std::array<double, 3> x;
  };
  const Expected expected[] = {{0, 499, {16.0258, -32.5705, 26.5557}},
                               {0, 487, {10.9963, -34.4197, 21.9497}},
                               {0, 262, {10.996, -16.3188, 14.6896}}};
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 -9 0">
  <DefaultAnimationLoop parallelODESolving="true"/>)" +
                                    SofaBeam("BeamFEM_LARGE", "11 0 0", "large") + "\n</Node>");
  for (int step = 0; step < 299; ++step) simulation.Step();
  for (const Expected& e : expected) {
    const auto x = simulation.position(e.object);
    for (int c = 0; c < 3; ++c) {
      const double value = e.x[static_cast<std::size_t>(c)];
      const double digit =
          value == 0.0 ? 1e-5 : std::pow(10.0, std::floor(std::log10(std::abs(value))) - 5);
      EXPECT_NEAR(x[3 * e.point + c], value, digit)
          << "object " << e.object << " point " << e.point << " axis " << c;
    }
  }
}

TEST_F(TetrahedronFemScenes, TetrahedralCorotationalIsTheSameElement) {
  // SOFA's other class computes the same forces: one explicit step of a strained, rotated cube
  // gives the same velocities to the bit, for each of its methods.
  const auto scene = [](const std::string& component, const std::string& method) {
    return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="1 1 1"/>
  <MechanicalObject rotation="10 20 30"/>
  <UniformMass vertexMass="1"/>
  <Node name="t">
    <MeshTopology name="tets"/>
    <Hexa2TetraTopologicalMapping input="@../grid" output="@tets"/>
    <)" + component +
           R"( youngModulus="1000" poissonRatio="0.3" method=")" + method + R"("/>
  </Node>
  <ConstantForceField indices="26" forces="0 -50 20"/>
</Node>)";
  };
  for (const char* method : {"small", "large", "polar"}) {
    Simulation a = LoadScene(scene("TetrahedronFEMForceField", method));
    // SOFA's alias of computeGlobalMatrix (its tutorials write it): the same force.
    Simulation b = LoadScene(
        scene("TetrahedralCorotationalFEMForceField",
              std::string(method) + (std::string(method) == "polar" ? "" : "\" assembling=\"1")));
    for (int n = 0; n < 20; ++n) {
      a.Step();
      b.Step();
    }
    const auto va = a.velocity(0), vb = b.velocity(0);
    EXPECT_TRUE((va.array() == vb.array()).all()) << method;
    EXPECT_GT(va.cwiseAbs().maxCoeff(), 0.1) << method;
  }
}

// --- Bad input ---------------------------------------------------------------------------------

std::string OneTet(const std::string& attributes) {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology name="mesh" position="0 0 0  1 0 0  0 1 0  0 0 1" tetrahedra="0 1 2 3"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <TetrahedronFEMForceField )" +
         attributes + R"(/>
</Node>)";
}

TEST_F(TetrahedronFemScenes, BadInputIsOneLineAtTheComponent) {
  ExpectSceneError(OneTet(R"(method="qr")"), "inline.scn:6:");
  ExpectSceneError(OneTet(R"(poissonRatio="0.5")"),
                   "inline.scn:6: TetrahedronFEMForceField 'poissonRatio' has 0.500000 (expected a "
                   "value in [0, 0.5), as SOFA's Hooke law needs)");
  ExpectSceneError(OneTet(R"(youngModulus="-3")"), "inline.scn:6:");
  ExpectSceneError(
      OneTet(R"(plasticMaxThreshold="0.1")"),
      "inline.scn:6: TetrahedronFEMForceField 'plasticMaxThreshold' > 0 (plasticity) is "
      "not supported (expected 0)");
  ExpectSceneError(OneTet(R"(method="small" computeVonMisesStress="1")"),
                   "inline.scn:6: TetrahedronFEMForceField 'computeVonMisesStress=1' needs a "
                   "corotational method");
  ExpectSceneError(
      OneTet(R"(method="polar" computeGlobalMatrix="1")"),
      "inline.scn:6: TetrahedronFEMForceField 'computeGlobalMatrix' is not available with "
      "method=\"polar\"");
  ExpectSceneError(OneTet(R"(computeVonMisesStress="3")"), "inline.scn:6:");
  ExpectSceneError(R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 1 0  1 1 0" tetrahedra="0 1 2 3"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <TetrahedronFEMForceField/>
</Node>)",
                   "inline.scn:6: TetrahedronFEMForceField: tetrahedron 0 (0 1 2 3) has zero rest "
                   "volume (expected four points not in one plane)");
  ExpectSceneError(
      R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <TetrahedronFEMForceField/>
</Node>)",
      "inline.scn:6: TetrahedronFEMForceField needs a topology with tetrahedra in node "
      "'root'");
}

TEST_F(TetrahedronFemScenes, TetrahedralCorotationalHasNoSvdNorPlasticity) {
  const auto scene = [](const std::string& attributes) {
    std::string xml = OneTet(attributes);
    const std::string from = "<TetrahedronFEMForceField ";
    return xml.replace(xml.find(from), from.size(), "<TetrahedralCorotationalFEMForceField ");
  };
  ExpectSceneError(
      scene(R"(method="svd")"),
      "inline.scn:6: TetrahedralCorotationalFEMForceField 'method': 'svd' is not one of "
      "the choices (expected one of small, large, polar)");
  // SOFA's TetrahedralCorotationalFEMForceField has no plasticity field at all: SOFA warns
  // about the attribute and goes on, and so does Fluxion (docs/scene-format.md).
  ExpectWarnings(1);
  EXPECT_NO_THROW((void)LoadScene(scene(R"(plasticMaxThreshold="0.1")")));
  ExpectSceneError(
      scene(R"(method="polar" computeGlobalMatrix="1")"),
      "inline.scn:6: TetrahedralCorotationalFEMForceField 'computeGlobalMatrix' is not "
      "available with method=\"polar\"");
  // Its von Mises flag is accepted with small (SOFA's class has no such rule).
  LoadScene(scene(R"(method="small" computeVonMisesStress="1" drawing="0" drawColor1="1 0 0 1")"));
}

TEST_F(TetrahedronFemScenes, VisualAndGpuFieldsAreAcceptedSilently) {
  // SOFA's drawing options (show*, draw*) and GPU options load without a message.
  Simulation simulation = LoadScene(OneTet(
      R"(showVonMisesStressPerNodeColorMap="true" drawHeterogeneousTetra="1" showStressAlpha="0.5" )"
      R"(showElementGapScale="0.2" gatherPt="8" gatherBsize="16" updateStiffness="1")"));
  simulation.Step();
}

TEST_F(TetrahedronFemScenes, SceneRunnerSaysErrorFileLineAndExitsWithTwo) {
  const std::string scene = ::testing::TempDir() + "tetrahedron_fem_plastic.scn";
  std::ofstream(scene) << OneTet(R"(plasticMaxThreshold="0.1")");
  const testing::CommandResult run =
      testing::RunCommand(testing::SceneRunner() + " " + scene + " --steps 1 -o /dev/null");
  EXPECT_EQ(run.status, 2);
  EXPECT_THAT(run.err, HasSubstr("error: " + scene +
                                 ":6: TetrahedronFEMForceField 'plasticMaxThreshold' > 0"));
}

}  // namespace
}  // namespace fluxion
