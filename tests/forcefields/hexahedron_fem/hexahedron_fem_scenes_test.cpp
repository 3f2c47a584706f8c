// HexahedronFEMForceField through scenes: a cantilever of hexahedra against Euler–Bernoulli as
// the mesh is refined, implicit steps that do not allocate, SOFA's example scenes (with
// HexahedronFEMForceField and with HexahedronFEMForceFieldAndMass) against their Regression
// references, the hexahedra of a HexahedronSetTopologyContainer and of a MeshTopology,
// and each bad input as one `FILE:LINE:` error.
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

using testing::ExpectSceneError;
using ::testing::HasSubstr;
using testing::LoadScene;

class HexahedronFemScenes : public testing::QuietTest {};

// A 1 × 1 × 10 beam along z of n × n × 10n cubes, clamped at z = 0 (every node of that face
// fixed), a total force F = 1 N along −y spread over the nodes of the tip face; E = 1e6 Pa,
// ν = 0 (Euler–Bernoulli has no Poisson effect). StaticSolver: one linear solve for small,
// Newton for the others. The same beam as tests/forcefields/tetrahedron_fem's.
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
  <HexahedronFEMForceField youngModulus="1e6" poissonRatio="0" method=")" +
         method + R"("/>
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

TEST_F(HexahedronFemScenes, CantileverConvergesToEulerBernoulli) {
  // δ = F·L³/(3·E·I), I = b⁴/12: 1·1000·12/(3·1e6) = 4e-3 (δ/L = 4e-4: the corotational methods
  // stay in the linear range). Timoshenko's shear adds F·L/(κ·G·A) = 10/((5/6)·5e5) = 2.4e-5
  // (0.6 %): the limit the mesh converges to, so the observed order is measured against
  // δ_T = 4.024e-3. Fully integrated trilinear hexahedra lock in bending (parasitic shear): too
  // stiff, the error falling as h².
  const double euler_bernoulli = 1.0 * 1000.0 * 12.0 / (3.0 * 1e6);
  const double timoshenko = euler_bernoulli + 10.0 / ((5.0 / 6.0) * 5e5);
  double previous_error = 1.0, order = 0.0, eb_error = 1.0;
  for (const int n : {1, 2, 4, 8}) {
    const double small = TipDeflection(n, "small");
    const double error = 1.0 - small / timoshenko;
    eb_error = 1.0 - small / euler_bernoulli;
    std::printf(
        "[ info ] n = %d (%d hexahedra): tip %.6e, relative error against EB %.4f, against "
        "Timoshenko %.4f",
        n, 10 * n * n * n, small, eb_error, error);
    if (n > 1) {
      order = std::log2(previous_error / error);
      std::printf(", observed order %.2f", order);
    }
    std::printf("\n");
    EXPECT_GT(error, 0.0) << n;  // too stiff
    EXPECT_LT(error, previous_error) << n;
    previous_error = error;
    // The corotational methods agree with small at this small deflection (to O(δ/L)).
    for (const char* method : {"large", "polar"}) {
      if (n > 4) continue;
      EXPECT_NEAR(TipDeflection(n, method), small, 2e-3 * small) << method << " " << n;
    }
  }
  // Second order (measured 1.97 from n = 4 to 8), and the finest mesh (8 × 8 × 80 cubes, 5120
  // hexahedra) within 1 % of Euler–Bernoulli (measured 0.19 %; the tetrahedra of the same beam:
  // 4.4 %).
  EXPECT_GT(order, 1.8);
  EXPECT_LT(order, 2.2);
  EXPECT_LT(std::abs(eb_error), 0.01);
}

TEST_F(HexahedronFemScenes, ImplicitStepsDoNotAllocate) {
  // The assembled path (SparseLDLSolver: AddStiffness) and the matrix-free one (CGLinearSolver:
  // LinearizeStiffness, AddTangentProduct), h = 1 ms so that CG converges.
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer";
  for (const char* method : {"small", "large", "polar"})
    for (const char* update : {"0", "1"})
      for (
          const char* solver :
          {R"(<EulerImplicitSolver rayleighMass="0.1"/><SparseLDLSolver/>)",
           R"(<EulerImplicitSolver rayleighMass="0.1"/><CGLinearSolver iterations="500" tolerance="1e-10" threshold="1e-30"/>)"}) {
        std::string xml = Cantilever(1, method, solver, "0.001");
        xml.replace(xml.find("method="), 0,
                    std::string("updateStiffnessMatrix=\"") + update + "\" ");
        Simulation simulation = LoadScene(xml);
        for (int n = 0; n < 3; ++n) simulation.Step();
        const long before = conformance::AllocationCount();
        for (int n = 0; n < 5; ++n) simulation.Step();
        EXPECT_EQ(conformance::AllocationCount() - before, 0)
            << method << " update " << update << " " << solver;
      }
}

// --- SOFA's reference states --------------------------------------------------------------------

// Not a QuietTest: SOFA's CGLinearSolver stops after its 25 iterations short of its 1e-9
// tolerance, and Fluxion's (rightly) warns.
TEST(HexahedronFemSofaReference, MatchesSofasRegressionReference) {
  // SOFA's examples/Component/SolidMechanics/FEM/HexahedronFEMForceField.scn, its node M1 as it
  // is (the collision models, which collide with nothing, and the drawing options left out; the
  // whole scene is checked by tools/sofa_regression): a 3 × 3 × 19 beam of 3 × 3 × 19 cubes,
  // its face z = 0 fixed, falling under SOFA's default gravity −9.81 along y (E = 4000,
  // ν = 0.3, vertexMass 1), method large; EulerImplicitSolver with Rayleigh damping 0.1/0.1 and
  // CGLinearSolver (25 iterations), dt = 0.02.
  // References: SOFA's Regression project, references/examples/Component/SolidMechanics/FEM/
  // HexahedronFEMForceField.scn.reference_0_MechanicalObject1_mstate.txt.gz, the state after
  // 299 steps (T = 5.98, SOFA's last dump), printed with 6 significant digits: one unit of the
  // 6th digit is the tolerance. Points 16 (a corner of the first free layer), 170 (mid-beam)
  // and 319 (the tip corner, fallen by 16 along y: large rotations).
  struct Expected {
    int point;
    std::array<double, 3> x;
  };
  const Expected expected[] = {{16, {-9.24841, -0.362206, 0.351164}},
                               {170, {-7.01107, -8.34898, 4.99224}},
                               {319, {-6.01256, -15.8579, 10.5313}}};
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="M1">
    <EulerImplicitSolver name="cg_odesolver" printLog="false"  rayleighStiffness="0.1" rayleighMass="0.1" />
    <CGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9" template="CompressedRowSparseMatrixMat3x3"/>
    <MechanicalObject />
    <UniformMass vertexMass="1" />
    <RegularGridTopology nx="4" ny="4" nz="20" xmin="-9" xmax="-6" ymin="0" ymax="3" zmin="0" zmax="19" />
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" />
    <HexahedronFEMForceField name="FEM" youngModulus="4000" poissonRatio="0.3" method="large" />
  </Node>
</Node>)");
  for (int step = 0; step < 299; ++step) simulation.Step();
  const auto x = simulation.position(0);
  for (const Expected& e : expected)
    for (int c = 0; c < 3; ++c) {
      const double value = e.x[static_cast<std::size_t>(c)];
      const double digit =
          value == 0.0 ? 1e-5 : std::pow(10.0, std::floor(std::log10(std::abs(value))) - 5);
      EXPECT_NEAR(x[3 * e.point + c], value, digit) << "point " << e.point << " axis " << c;
    }
}

TEST(HexahedronFemSofaReference, AndMassMatchesSofasRegressionReference) {
  // SOFA's examples/Component/SolidMechanics/FEM/HexahedronFEMForceFieldAndMass.scn, its node M1
  // as it is (collision models and drawing left out): the beam above with
  // HexahedronFEMForceFieldAndMass (E = 40000, ν = 0.3, density 1: SOFA's element mass matrix,
  // c·I on every vertex pair, and the weight V·ρ/8 per vertex) instead of UniformMass.
  // References: ….scn.reference_0_MechanicalObject1_mstate.txt.gz after 99 steps (T = 1.98),
  // positions and velocities, 6 significant digits.
  struct Expected {
    int point;
    std::array<double, 3> x, v;
  };
  const Expected expected[] = {
      {16, {-9.01047, -0.0163391, 0.973944}, {-0.00463234, -0.00265504, -0.0101525}},
      {170, {-7.00011, 1.40544, 10.0246}, {-0.000633711, -0.4137, 0.0176887}},
      {319, {-5.99999, 1.6937, 19.0758}, {-5.46358e-05, -1.37405, 0.0735408}}};
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="M1">
    <EulerImplicitSolver name="cg_odesolver" printLog="false"  rayleighStiffness="0.1" rayleighMass="0.1" />
    <CGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9" />
    <MechanicalObject />
    <RegularGridTopology nx="4" ny="4" nz="20" xmin="-9" xmax="-6" ymin="0" ymax="3" zmin="0" zmax="19" />
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" />
    <HexahedronFEMForceFieldAndMass name="FEM" youngModulus="40000" poissonRatio="0.3" method="large" density="1" />
  </Node>
</Node>)");
  for (int step = 0; step < 99; ++step) simulation.Step();
  const auto x = simulation.position(0), v = simulation.velocity(0);
  const auto digit = [](double value) {
    return value == 0.0 ? 1e-5 : std::pow(10.0, std::floor(std::log10(std::abs(value))) - 5);
  };
  // Positions to a unit of each number's 6th digit; velocities to a unit of the 6th digit of the
  // point's largest component: the near-zero sideways components (5e-5 against 1.4 along y)
  // carry the truncation of SOFA's 25 CG iterations (‖r‖/‖b‖ up to 4e-4) at 1e-8 and differ
  // there (SOFA's own rule, the mean error per DOF, gives 8.9e-11 for the whole scene).
  for (const Expected& e : expected) {
    const double v_digit = digit(std::max({std::abs(e.v[0]), std::abs(e.v[1]), std::abs(e.v[2])}));
    for (int c = 0; c < 3; ++c) {
      const auto k = static_cast<std::size_t>(c);
      EXPECT_NEAR(x[3 * e.point + c], e.x[k], digit(e.x[k])) << "x point " << e.point << " " << c;
      EXPECT_NEAR(v[3 * e.point + c], e.v[k], v_digit) << "v point " << e.point << " " << c;
    }
  }
}

TEST_F(HexahedronFemScenes, AndMassHasSofasElementMassAndWeight) {
  // One unit cube (V = 1), density 2, gravity 10 along −y. SOFA's integrateMass gives every
  // entry of the 24×24 element matrix the same value on each axis: V·ρ·(1/72 + 1/72 + 1/216 +
  // 1/24 + 1/8 + 1/72 + 1/24 + 1/24) = 2·8/27 = 16/27, on every vertex pair (diagonal included);
  // lumped, each point gets its row sum 8·16/27. The weight is V·ρ/8·g = 2.5 N per point, not M·g.
  const auto scene = [](const std::string& lumped) {
    return R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="100" tolerance="1e-12" threshold="1e-30"/>
  <RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>
  <MechanicalObject/>
  <HexahedronFEMForceFieldAndMass youngModulus="1000" poissonRatio="0.3" density="2" lumpedMass=")" +
           lumped + R"("/>
</Node>)";
  };
  const double c = 16.0 / 27.0;
  for (const char* lumped : {"0", "1"}) {
    Simulation simulation = LoadScene(scene(lumped));
    const auto& node = simulation.solver_nodes().front();
    const Eigen::MatrixXd M = Eigen::MatrixXd(node.system->mass());
    ASSERT_EQ(M.rows(), 24);
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) {
        const double expected = std::string(lumped) == "1" ? (i == j ? 8 * c : 0.0)
                                : i % 3 == j % 3           ? c
                                                           : 0.0;
        EXPECT_NEAR(M(i, j), expected, 1e-15) << lumped << " " << i << " " << j;
      }
    Vector f = Vector::Zero(24);
    node.system->ComputeForce(node.state, f);
    for (int point = 0; point < 8; ++point)
      EXPECT_NEAR(f[3 * point + 1], -2.5, 1e-12) << lumped << " " << point;
  }
}

// --- Other hexahedron topologies ----------------------------------------------------------------

TEST_F(HexahedronFemScenes, SetContainerAndMeshTopologyGiveTheGridsForces) {
  // The same 2 × 1 × 1 hexahedra given by a RegularGridTopology, a HexahedronSetTopologyContainer
  // and a MeshTopology: five explicit steps of the bar pulled at its end x = 2 give the same
  // velocities to the bit (and the clamped end's neighbours move: the elastic forces act).
  const std::string points =
      "0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0  0 0 1  1 0 1  2 0 1  0 1 1  1 1 1  2 1 1";
  const std::string hexahedra = "0 1 4 3 6 7 10 9  1 2 5 4 7 8 11 10";
  const auto scene = [&](const std::string& topology) {
    return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + topology +
           R"(
  <MechanicalObject name="bar"/>
  <UniformMass vertexMass="1"/>
  <HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3" method="polar"/>
  <FixedProjectiveConstraint indices="0 3 6 9"/>
  <ConstantForceField indices="2 5 8 11" totalForce="40 0 0"/>
</Node>)";
  };
  Simulation grid = LoadScene(scene(R"(<RegularGridTopology n="3 2 2" min="0 0 0" max="2 1 1"/>)"));
  Simulation set = LoadScene(scene(R"(<HexahedronSetTopologyContainer position=")" + points +
                                   R"(" hexahedra=")" + hexahedra + R"("/>)"));
  Simulation mesh = LoadScene(
      scene(R"(<MeshTopology position=")" + points + R"(" hexahedra=")" + hexahedra + R"("/>)"));
  for (int n = 0; n < 5; ++n) {
    grid.Step();
    set.Step();
    mesh.Step();
  }
  EXPECT_GT(std::abs(grid.velocity(0)[3 * 1]), 1e-3);  // point 1, the middle of the bar
  EXPECT_TRUE((grid.velocity(0).array() == set.velocity(0).array()).all());
  EXPECT_TRUE((grid.velocity(0).array() == mesh.velocity(0).array()).all());
}

// --- Bad input ---------------------------------------------------------------------------------

std::string OneHexa(const std::string& attributes) {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <RegularGridTopology name="grid" n="2 2 2" min="0 0 0" max="1 1 1"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <HexahedronFEMForceField )" +
         attributes + R"(/>
</Node>)";
}

TEST_F(HexahedronFemScenes, BadInputIsOneLineAtTheComponent) {
  ExpectSceneError(
      OneHexa(R"(method="svd")"),
      "inline.scn:6: HexahedronFEMForceField 'method': 'svd' is not one of the choices "
      "(expected one of large, polar, small)");
  ExpectSceneError(OneHexa(R"(poissonRatio="0.5")"),
                   "inline.scn:6: HexahedronFEMForceField 'poissonRatio' has 0.500000 (expected a "
                   "value in [0, 0.5), as SOFA's Hooke law needs)");
  ExpectSceneError(OneHexa(R"(youngModulus="-3")"), "inline.scn:6:");
  // A misspelt field (SOFA's HexahedronFEMForceField has no `assembling` either, so that one
  // would be SOFA's warning: docs/scene-format.md).
  ExpectSceneError(OneHexa(R"(youngModulu="3")"), "inline.scn:6: unknown attribute 'youngModulu'");
  ExpectSceneError(
      R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  1 1 0  0 1 0  0 0 1  1 0 1  1 1 1  0 1 1" hexahedra="4 5 6 7 0 1 2 3"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <HexahedronFEMForceField/>
</Node>)",
      "inline.scn:6: HexahedronFEMForceField: hexahedron 0 (4 5 6 7 0 1 2 3) is flat or "
      "inverted at rest");
  ExpectSceneError(R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 1 0  0 0 1" tetrahedra="0 1 2 3"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <HexahedronFEMForceField/>
</Node>)",
                   "inline.scn:6: HexahedronFEMForceField needs a topology with hexahedra in node "
                   "'root'");
}

TEST_F(HexahedronFemScenes, DrawingAndGpuFieldsAreAcceptedSilently) {
  Simulation simulation =
      LoadScene(OneHexa(R"(drawing="0" drawPercentageOffset="0.2" gatherPt="8" gatherBsize="16" )"
                        R"(updateStiffnessMatrix="false")"));
  simulation.Step();
}

TEST_F(HexahedronFemScenes, SceneRunnerSaysErrorFileLineAndExitsWithTwo) {
  const std::string scene = ::testing::TempDir() + "hexahedron_fem_poisson.scn";
  std::ofstream(scene) << OneHexa(R"(poissonRatio="0.7")");
  const testing::CommandResult run =
      testing::RunCommand(testing::SceneRunner() + " " + scene + " --steps 1 -o /dev/null");
  EXPECT_EQ(run.status, 2);
  EXPECT_THAT(run.err, HasSubstr("error: " + scene + ":6: HexahedronFEMForceField 'poissonRatio'"));
}

}  // namespace
}  // namespace fluxion
