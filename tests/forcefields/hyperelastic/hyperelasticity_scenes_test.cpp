// TetrahedronHyperelasticityFEMForceField through scenes: ParameterSet's meaning (SOFA's order,
// μ then λ for St Venant–Kirchhoff; the BDFOdeSolver.scn values are E = 1e4, ν = 0.45), the
// default material (SOFA's first option, ArrudaBoyce), the topology link, implicit solvers
// (EulerImplicit and Static reach the equilibrium the closed form predicts), and each bad input
// as one `FILE:LINE:` error.
#include <gmock/gmock.h>

#include <cmath>
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

class TetrahedronHyperelasticityScenes : public testing::QuietTest {};

// One unit right tetrahedron (V = 1/6, g_i = e_i for vertices 1–3) with vertex 1 moved to
// x = 1.1: F = diag(1.1, 1, 1). Unit masses, no gravity, one symplectic Euler step of h = 0.01
// from rest: v₁ = h·f₁ with f₁ = −P·e₁/6.
std::string OneTet(const std::string& attributes, const std::string& topology = "") {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology name="mesh" position="0 0 0  1 0 0  0 1 0  0 0 1" tetrahedra="0 1 2 3"/>
  <MechanicalObject position="0 0 0  1.1 0 0  0 1 0  0 0 1" rest_position="0 0 0  1 0 0  0 1 0  0 0 1"/>
  <UniformMass vertexMass="1"/>
  <TetrahedronHyperelasticityFEMForceField )" +
         attributes + topology + R"(/>
</Node>)";
}

TEST_F(TetrahedronHyperelasticityScenes, ParameterSetIsMuThenLambda) {
  // E = 1e4, ν = 0.45: μ = E/(2(1 + ν)) = 3448.2759, λ = Eν/((1 + ν)(1 − 2ν)) = 31034.483.
  // St Venant–Kirchhoff under F = diag(1.1, 1, 1): E₁₁ = 0.105, S₁₁ = (λ + 2μ)·E₁₁,
  // S₂₂ = S₃₃ = λ·E₁₁; P₁₁ = 1.1·S₁₁. The ParameterSet has 8 significant digits: 1e-7.
  const double E = 1e4, nu = 0.45, mu = E / (2 * (1 + nu)),
               lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  Simulation simulation =
      LoadScene(OneTet(R"(ParameterSet="3448.2759 31034.483" materialName="StVenantKirchhoff")"));
  simulation.Step();
  const auto v = simulation.velocity(0);
  const double P11 = 1.1 * (lambda + 2 * mu) * 0.105;
  EXPECT_NEAR(v[3], -0.01 * P11 / 6, 1e-7 * 0.01 * P11 / 6);
  EXPECT_NEAR(v[4], 0.0, 1e-12);
  // Vertex 0 takes +P·(1, 1, 1)/6: its y component is the lateral stress P₂₂ = λ·E₁₁.
  EXPECT_NEAR(v[1], 0.01 * lambda * 0.105 / 6, 1e-7 * 0.01 * lambda * 0.105 / 6);
}

TEST_F(TetrahedronHyperelasticityScenes, NeoHookeanIsBonetAndWoods) {
  // S = μ(I − C⁻¹) + λ·ln J·C⁻¹ with C₁₁ = 1.21, J = 1.1.
  const double mu = 3448.2759, lambda = 31034.483;
  Simulation simulation =
      LoadScene(OneTet(R"(ParameterSet="3448.2759 31034.483" materialName="NeoHookean")"));
  simulation.Step();
  const double P11 = 1.1 * (mu * (1 - 1 / 1.21) + lambda * std::log(1.1) / 1.21);
  EXPECT_NEAR(simulation.velocity(0)[3], -0.01 * P11 / 6, 1e-12 * P11);
}

TEST_F(TetrahedronHyperelasticityScenes, DefaultMaterialIsArrudaBoyceAsInSofa) {
  // SOFA's materialName is an OptionsGroup whose first item, ArrudaBoyce, is the default.
  Simulation by_default = LoadScene(OneTet(R"(ParameterSet="3448.2759 31034.483")"));
  Simulation arruda_boyce =
      LoadScene(OneTet(R"(ParameterSet="3448.2759 31034.483" materialName="ArrudaBoyce")"));
  Simulation st_venant =
      LoadScene(OneTet(R"(ParameterSet="3448.2759 31034.483" materialName="StVenantKirchhoff")"));
  by_default.Step();
  arruda_boyce.Step();
  st_venant.Step();
  EXPECT_EQ(by_default.velocity(0)[3], arruda_boyce.velocity(0)[3]);
  EXPECT_GT(std::abs(by_default.velocity(0)[3] - st_venant.velocity(0)[3]), 1e-3);
}

TEST_F(TetrahedronHyperelasticityScenes, TopologyLinkNamesTheContainer) {
  Simulation simulation = LoadScene(OneTet(R"(ParameterSet="3448.2759 31034.483" )",
                                           R"(materialName="StVenantKirchhoff" topology="@mesh")"));
  simulation.Step();
  EXPECT_LT(simulation.velocity(0)[3], -1.0);
}

TEST_F(TetrahedronHyperelasticityScenes, WithoutATopologyInItsNodeItUsesTheObjectsNodes) {
  // SOFA looks the topology up the tree: a field in a child node acts on the parent's object with
  // the parent's tetrahedra.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology name="mesh" position="0 0 0  1 0 0  0 1 0  0 0 1" tetrahedra="0 1 2 3"/>
  <MechanicalObject position="0 0 0  1.1 0 0  0 1 0  0 0 1" rest_position="0 0 0  1 0 0  0 1 0  0 0 1"/>
  <UniformMass vertexMass="1"/>
  <Node name="fem">
    <TetrahedronHyperelasticityFEMForceField ParameterSet="3448.2759 31034.483" materialName="StVenantKirchhoff"/>
  </Node>
</Node>)");
  Simulation same_node =
      LoadScene(OneTet(R"(ParameterSet="3448.2759 31034.483" materialName="StVenantKirchhoff")"));
  simulation.Step();
  same_node.Step();
  EXPECT_EQ(simulation.velocity(0)[3], same_node.velocity(0)[3]);
  EXPECT_LT(simulation.velocity(0)[3], -1.0);
}

// A bar of two unit cubes along x (12 points; Hexa2TetraTopologicalMapping cuts each cube into
// tetrahedra), its face x = 0 fixed, sagging under gravity: StaticSolver's Newton iterations,
// which use K, converge to the equilibrium (a step that does not converge would log a warning,
// failing the test), and EulerImplicit with strong Rayleigh damping settles on the same state.
std::string Bar(const std::string& solver) {
  return R"(<Node name="root" dt="0.05" gravity="0 0 -10">
  )" + solver +
         R"(
  <RegularGridTopology name="grid" n="3 2 2" min="0 0 0" max="2 1 1"/>
  <MechanicalObject name="dofs"/>
  <Node name="tetras">
    <MeshTopology name="Container"/>
    <Hexa2TetraTopologicalMapping input="@../grid" output="@Container"/>
    <TetrahedronHyperelasticityFEMForceField ParameterSet="3448.2759 31034.483" materialName="NeoHookean"/>
  </Node>
  <UniformMass totalMass="12"/>
  <FixedProjectiveConstraint indices="0 3 6 9"/>
</Node>)";
}

TEST_F(TetrahedronHyperelasticityScenes, ImplicitSolversReachTheSameEquilibrium) {
  Simulation statics =
      LoadScene(Bar("<StaticSolver/><NewtonRaphsonSolver maxNbIterationsNewton=\"30\" "
                    "absoluteResidualStoppingThreshold=\"1e-10\"/><SparseLDLSolver/>"));
  Simulation dynamics = LoadScene(
      Bar("<EulerImplicitSolver rayleighMass=\"2\" rayleighStiffness=\"0.1\"/><SparseLDLSolver/>"));
  statics.Step();
  for (int k = 0; k < 400; ++k) dynamics.Step();
  const auto xs = statics.position(0), xd = dynamics.position(0);
  ASSERT_TRUE(xs.allFinite());
  // The tip sags under gravity (g = 10 along −z, mass 1 per point), by a sensible amount for a
  // bar of E = 1e4 Pa (beam theory, q·L⁴/(8·E·I) = 0.14, which a coarse mesh of nearly
  // incompressible tetrahedra stiffens): between 0.005 and 0.5.
  const double sag = 1.0 - xs[3 * 11 + 2];  // point 11 = (2, 1, 1)
  EXPECT_GT(sag, 0.005);
  EXPECT_LT(sag, 0.5);
  // Damped dynamics after 20 s settle on the static solution (to 1e-6 of the sag).
  EXPECT_LT((xs - xd).cwiseAbs().maxCoeff(), 1e-6 * sag);
}

TEST_F(TetrahedronHyperelasticityScenes, ImplicitStepsDoNotAllocate) {
  // The field's forces, energy and stiffness use fixed-size matrices only: steady-state steps of
  // EulerImplicit, BDF + Newton (BDFOdeSolver.scn's solvers) and Static allocate nothing.
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer";
  for (const char* solver :
       {R"(<EulerImplicitSolver rayleighMass="0.1"/><SparseLDLSolver/>)",
        R"(<BDFOdeSolver order="2" rayleighMass="0.01" rayleighStiffness="0.01"/>
           <NewtonRaphsonSolver maxNbIterationsNewton="10"/><SparseLDLSolver/>)",
        R"(<StaticSolver/><NewtonRaphsonSolver maxNbIterationsNewton="30"
           absoluteResidualStoppingThreshold="1e-10"/><SparseLDLSolver/>)"}) {
    Simulation simulation = LoadScene(Bar(solver));
    for (int n = 0; n < 3; ++n) simulation.Step();
    const long before = conformance::AllocationCount();
    for (int n = 0; n < 5; ++n) simulation.Step();
    EXPECT_EQ(conformance::AllocationCount() - before, 0) << solver;
  }
}

// --- SOFA's reference states --------------------------------------------------------------------

// SOFA's examples/Component/SolidMechanics/FEM/TetrahedronHyperelasticityFEMForceField.scn, its
// ArrudaBoyce, StVenantKirchhoff, NeoHookean and MooneyRivlin nodes as they are (the collision
// pipeline, the corotational and the Ogden nodes left out; the topological mapping's input
// "@../" written "@../hexaGrid"): a 3×3×8 grid bar cut into tetrahedra, fixed at z = 0, under
// gravity −9 along y; EulerImplicitSolver and CGLinearSolver (25 iterations), dt = 0.005.
std::string SofaExampleNode(const std::string& material, double x0, const std::string& set) {
  const std::string p0 = std::to_string(x0);
  return R"(
  <Node name=")" +
         material +
         R"(">
    <EulerImplicitSolver name="cg_odesolver"/>
    <CGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9"/>
    <RegularGridTopology name="hexaGrid" min="0 0 0" max="1 1 2.7" n="3 3 8" p0=")" +
         p0 + R"( 0 0"/>
    <MechanicalObject name="mechObj"/>
    <MeshMatrixMass totalMass="1.0"/>
    <Node name="tetras">
      <MeshTopology name="Container"/>
      <Hexa2TetraTopologicalMapping name="default28" input="@../hexaGrid" output="@Container" swapping="true"/>
      <TetrahedronHyperelasticityFEMForceField name="FEM" ParameterSet=")" +
         set + R"(" materialName=")" + material + R"("/>
    </Node>
    <BoxROI box=")" +
         p0 + " 0 0 " + std::to_string(x0 + 1) +
         R"( 1 0.05" name="box"/>
    <FixedProjectiveConstraint indices="@box.indices"/>
  </Node>)";
}

// Not a QuietTest: SOFA's CGLinearSolver stops after its 25 iterations short of its 1e-9
// tolerance in most steps, and Fluxion's (rightly) warns each time.
TEST(TetrahedronHyperelasticitySofaReference, MatchesSofasRegressionReferences) {
  // SOFA's Regression project, references/examples/Component/SolidMechanics/FEM/
  // TetrahedronHyperelasticityFEMForceField.scn.reference_{1,2,3,4}_mechObj_mstate.txt.gz: the
  // positions after 99 steps (T = 0.495) of points 35 (x = 1, y = 1, z = 1.15714 from p0) and
  // 71 (the free corner x = 1, y = 1, z = 2.7), printed by SOFA with 6 significant digits: one
  // unit of the 6th digit, 1e-5, is the tolerance (the bars sag by 0.006–0.014 along y).
  struct Expected {
    int object;
    int point;
    std::array<double, 3> x;
  };
  const Expected expected[] = {
      {0, 35, {2.99989, 0.994981, 1.15935}}, {0, 71, {3.0, 0.986195, 2.70274}},
      {1, 35, {4.99991, 0.995534, 1.15902}}, {1, 71, {5.0, 0.988107, 2.7023}},
      {2, 35, {6.99991, 0.995533, 1.15903}}, {2, 71, {7.0, 0.988105, 2.70231}},
      {3, 35, {9.00006, 0.998326, 1.1582}},  {3, 71, {9.00001, 0.994241, 2.70135}}};
  Simulation simulation =
      LoadScene(R"(<Node name="root" dt="0.005" gravity="0 -9 0">)" +
                SofaExampleNode("ArrudaBoyce", 2, "3448.2759 31034.483") +
                SofaExampleNode("StVenantKirchhoff", 4, "3448.2759 31034.483") +
                SofaExampleNode("NeoHookean", 6, "3448.2759 31034.483") +
                SofaExampleNode("MooneyRivlin", 8, "5000 7000 10") + "\n</Node>");
  for (int step = 0; step < 99; ++step) simulation.Step();
  for (const Expected& e : expected) {
    const auto x = simulation.position(e.object);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(x[3 * e.point + c], e.x[c], 1e-5)
          << "object " << e.object << " point " << e.point << " axis " << c;
  }
}

// --- Bad input ---------------------------------------------------------------------------------

TEST_F(TetrahedronHyperelasticityScenes, BadInputIsOneLineAtTheComponent) {
  // The component is on line 6 of OneTet's scene.
  ExpectSceneError(
      OneTet(R"(ParameterSet="1 2" materialName="Rubber")"),
      "inline.scn:6: TetrahedronHyperelasticityFEMForceField materialName 'Rubber' is not "
      "a material (expected one of ArrudaBoyce, MooneyRivlin, NeoHookean, "
      "StVenantKirchhoff, StableNeoHookean)");
  ExpectSceneError(
      OneTet(R"(ParameterSet="1500 500 5000" materialName="Ogden")"),
      "inline.scn:6: TetrahedronHyperelasticityFEMForceField materialName 'Ogden' is a "
      "SOFA material Fluxion does not have (expected one of ArrudaBoyce,");
  ExpectSceneError(
      OneTet(R"(ParameterSet="3448.2759" materialName="StVenantKirchhoff")"),
      "inline.scn:6: TetrahedronHyperelasticityFEMForceField 'ParameterSet' has 1 numbers "
      "(expected 2 for StVenantKirchhoff: mu lambda)");
  ExpectSceneError(OneTet(R"(materialName="MooneyRivlin" ParameterSet="1 2")"),
                   "'ParameterSet' has 2 numbers (expected 3 for MooneyRivlin: c1 c2 k0)");
  ExpectSceneError(OneTet(""), "'ParameterSet' has 0 numbers (expected 2 for ArrudaBoyce: mu k0)");
  ExpectSceneError(OneTet(R"(ParameterSet="1 2" AnisotropyDirections="1 0")"),
                   "'AnisotropyDirections' has 2 numbers (expected 3 per direction)");
  ExpectSceneError(R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <TetrahedronHyperelasticityFEMForceField ParameterSet="1 2"/>
</Node>)",
                   "inline.scn:6: TetrahedronHyperelasticityFEMForceField needs a topology with "
                   "tetrahedra in node 'root'");
  ExpectSceneError(
      R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 1 0  1 1 0" tetrahedra="0 1 2 3"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <TetrahedronHyperelasticityFEMForceField ParameterSet="1 2"/>
</Node>)",
      "inline.scn:6: TetrahedronHyperelasticityFEMForceField: tetrahedron 0 (0 1 2 3) has "
      "zero rest volume (expected four points not in one plane)");
}

TEST_F(TetrahedronHyperelasticityScenes, SceneRunnerSaysErrorFileLineAndExitsWithTwo) {
  const std::string scene = ::testing::TempDir() + "hyperelastic_bad_material.scn";
  std::ofstream(scene) << OneTet(R"(ParameterSet="1 2" materialName="Rubber")");
  const testing::CommandResult run =
      testing::RunCommand(testing::SceneRunner() + " " + scene + " --steps 1 -o /dev/null");
  EXPECT_EQ(run.status, 2);
  EXPECT_THAT(run.err, HasSubstr("error: " + scene +
                                 ":6: TetrahedronHyperelasticityFEMForceField materialName "
                                 "'Rubber' is not a material (expected one of "));
}

}  // namespace
}  // namespace fluxion
