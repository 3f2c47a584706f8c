// SOFA's element FEM (CorotationalFEMForceField, LinearSmallStrainFEMForceField) on a cantilever:
// - the tip deflection against Euler–Bernoulli as the mesh is refined (hexahedra and tetrahedra,
//   both formulations); the formulations agree for a small load and differ as expected for a
//   large one (the corotational tip shortens by (3/5)·δ²/L, the linear one does not);
// - implicit steps (assembled and matrix-free) that do not allocate;
// - SOFA's examples/Validation/cantilever_beam assembled scenes, written inline, against SOFA's
//   Regression references.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <utility>

#include <Eigen/Dense>

#include "conformance/allocation_counter.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class ElementFemCantilever : public testing::QuietTest {};

// --- The cantilever ------------------------------------------------------------------------------

// A 1 × 1 × 10 beam along z of n × n × 10n cubes (as hexahedra, or cut into tetrahedra),
// clamped at z = 0, a total force F along −y spread over the nodes of the tip face; E = 1e6 Pa,
// ν = 0 (Euler–Bernoulli has no Poisson effect), density 1 (FEMMass). StaticSolver with Newton.
std::string Cantilever(int n, const std::string& component, const std::string& shape, double force,
                       const std::string& solver = "", const std::string& dt = "1",
                       const std::string& attributes = "") {
  const std::string cells =
      std::to_string(n + 1) + " " + std::to_string(n + 1) + " " + std::to_string(10 * n + 1);
  const std::string field = "<" + component + " name=\"FEM\" template=\"Vec3," + shape +
                            "\" youngModulus=\"1e6\" poissonRatio=\"0\"" + attributes + "/>";
  return R"(<Node name="root" dt=")" + dt + R"(" gravity="0 0 0">
  )" +
         (solver.empty() ? std::string(R"(<StaticSolver/>
  <NewtonRaphsonSolver maxNbIterationsNewton="60" maxNbIterationsLineSearch="10" absoluteResidualStoppingThreshold="1e-10"/>
  <SparseLDLSolver/>)")
                         : solver) +
         R"(
  <RegularGridTopology name="grid" n=")" +
         cells + R"(" min="0 0 0" max="1 1 10"/>
  <MechanicalObject name="beam"/>
  <NodalMassDensity property="1"/>
  <FEMMass template="Vec3,Hexahedron"/>
  )" +
         (shape == "Tetrahedron" ? R"(<Node name="fem">
    <TetrahedronSetTopologyContainer name="tets"/>
    <Hexa2TetraTopologicalMapping input="@../grid" output="@tets"/>
    )" + field + "\n  </Node>"
                                 : field) +
         R"(
  <BoxROI name="clamp" box="-0.1 -0.1 -0.1 1.1 1.1 0.001"/>
  <FixedProjectiveConstraint indices="@clamp.indices"/>
  <BoxROI name="tip" box="-0.1 -0.1 9.999 1.1 1.1 10.1"/>
  <ConstantForceField indices="@tip.indices" totalForce="0 )" +
         std::to_string(-force) + R"( 0"/>
</Node>)";
}

// The mean displacement of the tip face's nodes after one static step (y: deflection, z: along
// the beam).
Eigen::Vector2d Tip(int n, const std::string& component, const std::string& shape, double force,
                    const std::string& attributes = "") {
  Simulation simulation = LoadScene(Cantilever(n, component, shape, force, "", "1", attributes));
  simulation.Step();
  const auto x = simulation.position(0);
  const int m = n + 1;
  Eigen::Vector2d sum = Eigen::Vector2d::Zero();
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      const int point = i + m * (j + m * 10 * n);  // x fastest, z slowest
      sum += Eigen::Vector2d(j * 1.0 / n - x[3 * point + 1], x[3 * point + 2] - 10.0);
    }
  return sum / (m * m);
}

TEST_F(ElementFemCantilever, CantileverConvergesToEulerBernoulli) {
  // δ = F·L³/(3·E·I), I = b⁴/12: 1·1000·12/(3·1e6) = 4e-3 (δ/L = 4e-4: linear range). Shear
  // (Timoshenko) adds F·L/(κ·G·A) = 10/((5/6)·5e5) = 2.4e-5 (0.6 %), the limit the meshes
  // converge to, so the order is measured against δ_T = 4.024e-3. Both elements are too stiff
  // (linear tetrahedra and fully integrated trilinear hexahedra lock in bending), the error
  // falling as h² once the mesh resolves the bending: errors against δ_T for n = 1, 2, 4, 8
  // measured 0.334, 0.112, 0.031, 0.0079 (hexahedra: orders 1.58, 1.87, 1.96) and 0.719, 0.412,
  // 0.164, … (tetrahedra: orders 0.80, 1.33, …, a longer preasymptotic range).
  const double euler_bernoulli = 1.0 * 1000.0 * 12.0 / (3.0 * 1e6);
  const double timoshenko = euler_bernoulli + 10.0 / ((5.0 / 6.0) * 5e5);
  for (const char* shape : {"Hexahedron", "Tetrahedron"}) {
    double previous_error = 1.0, order = 0.0;
    for (const int n : {1, 2, 4, 8}) {
      const double linear = Tip(n, "LinearSmallStrainFEMForceField", shape, 1.0).x();
      const double error = 1.0 - linear / timoshenko;
      std::printf("[ info ] %s n = %d: tip %.6e, error against EB %.4f, against Timoshenko %.4f",
                  shape, n, linear, 1.0 - linear / euler_bernoulli, error);
      if (n > 1) {
        order = std::log2(previous_error / error);
        std::printf(", observed order %.2f", order);
      }
      std::printf("\n");
      EXPECT_GT(error, 0.0) << shape << " " << n;  // too stiff
      EXPECT_LT(error, previous_error) << shape << " " << n;
      previous_error = error;
      // The corotational element agrees at this small deflection (to O(δ/L) = 4e-4).
      if (n > 4) continue;
      const double corotational = Tip(n, "CorotationalFEMForceField", shape, 1.0).x();
      EXPECT_NEAR(corotational, linear, 2e-3 * linear) << shape << " " << n;
    }
    // Second order once the mesh resolves the bending (from n = 4 to 8); the finest meshes
    // (5120 hexahedra, 30720 tetrahedra) within 1 % and 6 % of Euler–Bernoulli.
    EXPECT_GT(order, 1.6) << shape;
    EXPECT_LT(order, 2.2) << shape;
    EXPECT_LT(1.0 - Tip(8, "LinearSmallStrainFEMForceField", shape, 1.0).x() / euler_bernoulli,
              std::string(shape) == "Hexahedron" ? 0.01 : 0.06)
        << shape;
  }
}

TEST_F(ElementFemCantilever, FormulationsDifferUnderALargeLoad) {
  // F = 60 N on the n = 2 beams: linear δ ≈ 0.21 m (hexahedra; 0.14 m for the stiffer
  // tetrahedra), δ/L ≈ 0.02. The linear element only translates the tip (no shortening:
  // |Δz| ≈ 0); the corotational one bends the beam, which keeps its length: the tip comes back
  // by ≈ (3/5)·δ²/L (the elastica's first term; 2.76e-3 m and 1.21e-3 m, measured 2.74e-3 and
  // 1.20e-3), and deflects less than the linear one. (Not a larger load: SOFA's tangent leaves
  // out ∂R/∂x, and Newton stalls from δ/L ≈ 0.05 — measured: no convergence in 60 iterations
  // at F = 150 N on hexahedra.)
  for (const char* shape : {"Hexahedron", "Tetrahedron"}) {
    const Eigen::Vector2d linear = Tip(2, "LinearSmallStrainFEMForceField", shape, 60.0);
    const Eigen::Vector2d corotational = Tip(2, "CorotationalFEMForceField", shape, 60.0);
    std::printf("[ info ] %s: linear tip (%.4f, %.5f), corotational (%.4f, %.5f)\n", shape,
                linear.x(), linear.y(), corotational.x(), corotational.y());
    EXPECT_LT(std::abs(linear.y()), 1e-4) << shape;  // measured 3.4e-6 (tetrahedra)
    EXPECT_NEAR(corotational.y(), -0.6 * linear.x() * linear.x() / 10.0,
                0.3 * 0.6 * linear.x() * linear.x() / 10.0)
        << shape;
    EXPECT_LT(corotational.x(), linear.x()) << shape;
  }
}

TEST_F(ElementFemCantilever, PolarRotationsBendTheBeamAsTheElementFrameDoes) {
  // SOFA's rotationMethod polar and stable_polar (the rotation that best fits each rest element
  // onto its current vertices): the same corotational element in another frame. Under 1 N the
  // beam is linear (δ/L = 4e-4): every rotation gives the linear tip to O(δ/L). Under 60 N it
  // bends with the elastica's shortening (3/5)·δ²/L, as the default frame does (previous test).
  for (const char* shape : {"Hexahedron", "Tetrahedron"}) {
    const Eigen::Vector2d linear = Tip(2, "LinearSmallStrainFEMForceField", shape, 1.0);
    const Eigen::Vector2d linear_large = Tip(2, "LinearSmallStrainFEMForceField", shape, 60.0);
    for (const char* method : {"polar", "stable_polar"}) {
      const std::string attributes = std::string(" rotationMethod=\"") + method + "\"";
      const double small = Tip(2, "CorotationalFEMForceField", shape, 1.0, attributes).x();
      EXPECT_NEAR(small, linear.x(), 2e-3 * linear.x()) << shape << " " << method;
      const Eigen::Vector2d large = Tip(2, "CorotationalFEMForceField", shape, 60.0, attributes);
      std::printf("[ info ] %s %s: tip under 1 N %.6e (linear %.6e), under 60 N (%.4f, %.5f)\n",
                  shape, method, small, linear.x(), large.x(), large.y());
      const double shortening = 0.6 * linear_large.x() * linear_large.x() / 10.0;
      EXPECT_NEAR(large.y(), -shortening, 0.3 * shortening) << shape << " " << method;
      EXPECT_LT(large.x(), linear_large.x()) << shape << " " << method;
    }
  }
}

TEST_F(ElementFemCantilever, ImplicitStepsDoNotAllocate) {
  // Assembled (SparseLDLSolver) and matrix-free (CGLinearSolver), with FEMMass's consistent
  // mass (the cantilever's); h = 1 ms so that CG converges.
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer";
  for (const char* component : {"CorotationalFEMForceField", "LinearSmallStrainFEMForceField"})
    for (const char* shape : {"Hexahedron", "Tetrahedron"})
      for (
          const char* solver :
          {R"(<EulerImplicitSolver rayleighMass="0.1"/><SparseLDLSolver/>)",
           R"(<EulerImplicitSolver rayleighMass="0.1"/><CGLinearSolver iterations="500" tolerance="1e-10" threshold="1e-30"/>)"}) {
        Simulation simulation = LoadScene(Cantilever(1, component, shape, 1.0, solver, "0.001"));
        for (int n = 0; n < 3; ++n) simulation.Step();
        const long before = conformance::AllocationCount();
        for (int n = 0; n < 5; ++n) simulation.Step();
        EXPECT_EQ(conformance::AllocationCount() - before, 0) << component << " " << shape;
      }
}

// --- SOFA's validation scenes --------------------------------------------------------------------

// SOFA's examples/Validation/cantilever_beam (CantileverBeam_ElementFEMForceField.xml and the
// assembled scenes that include it), as they are without drawing: a 2 × 2 × 20 cm beam of
// 4 × 4 × 29 cells, density 1100 (NodalMassDensity, FEMMass on the grid's hexahedra), its face
// z = 0 fixed, falling under gravity −9.81 along y; E = 2e6, ν = 0.45; EulerImplicitSolver with
// Rayleigh damping 0.1/0.1 and SparseLDLSolver, dt = 0.01. The tetrahedra are the grid's cells
// cut by Hexa2TetraTopologicalMapping (swapping) in a child node. The whole set (16 scenes, run
// from SOFA's tree with tools/sofa_regression) is the element_fem.sofa_cantilever_* tests.
std::string SofaCantilever(const std::string& component, const std::string& shape) {
  const std::string field = "<" + component + " name=\"FEM\" template=\"Vec3," + shape +
                            "\" youngModulus=\"2e6\" poissonRatio=\"0.45\" "
                            "computeForceStrategy=\"sequenced\" "
                            "computeForceDerivStrategy=\"sequenced\"/>";
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver name="backward_Euler" rayleighStiffness="0.1" rayleighMass="0.1"/>
  <RegularGridTopology name="grid" min="-0.01 -0.01 0" max="0.01 0.01 0.2" n="5 5 30"/>
  <MechanicalObject template="Vec3" name="state"/>
  <NodalMassDensity property="1100"/>
  <FEMMass template="Vec3,Hexahedron"/>
  <BoxROI template="Vec3" name="box_roi" box="-0.011 -0.011 -0.0001 0.011 0.011 0.0001"/>
  <FixedProjectiveConstraint template="Vec3" indices="@box_roi.indices"/>
  <ConstantSparsityPatternSystem template="CompressedRowSparseMatrix" name="A" checkIndices="false"/>
  <NaturalOrderingMethod/>
  <SparseLDLSolver name="linear_solver" template="CompressedRowSparseMatrix"/>
  )" +
         (shape == "Tetrahedron" ? R"(<Node name="fem">
    <TetrahedronSetTopologyContainer name="Tetra_topo"/>
    <TetrahedronSetTopologyModifier name="Modifier"/>
    <TetrahedronSetGeometryAlgorithms template="Vec3" name="GeomAlgo"/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@Tetra_topo" swapping="true"/>
    )" + field + "\n  </Node>"
                                 : field) +
         "\n</Node>";
}

TEST_F(ElementFemCantilever, SofasCantileverScenesMatchTheirReferences) {
  // References: SOFA's Regression project, references/examples/Validation/cantilever_beam/
  // <element>/<formulation>/sequential/assembled/….scn.reference_0_state_mstate.txt.gz, the
  // state after 99 steps (T = 0.99, the last record), printed with 6 significant digits: one
  // unit of the 6th digit is the tolerance. Points 374 (an upper corner edge, mid-beam) and 749
  // (the tip's upper corner, fallen by ≈ 2.8 cm and swinging).
  struct Expected {
    const char* component;
    const char* shape;
    std::array<double, 3> p374, p749;
  };
  const Expected cases[] = {{"CorotationalFEMForceField",
                             "Hexahedron",
                             {0.00995905, 0.000622438, 0.0976069},
                             {0.00999992, -0.0181071, 0.199625}},
                            {"CorotationalFEMForceField",
                             "Tetrahedron",
                             {0.00998259, 0.00172308, 0.0975279},
                             {0.0100005, -0.014584, 0.199921}},
                            {"LinearSmallStrainFEMForceField",
                             "Hexahedron",
                             {0.00995871, 0.000635974, 0.0981733},
                             {0.00999994, -0.0183713, 0.201898}},
                            {"LinearSmallStrainFEMForceField",
                             "Tetrahedron",
                             {0.00998145, 0.00174751, 0.0979612},
                             {0.00999997, -0.0147358, 0.201645}}};
  for (const Expected& e : cases) {
    Simulation simulation = LoadScene(SofaCantilever(e.component, e.shape));
    for (int step = 0; step < 99; ++step) simulation.Step();
    const auto x = simulation.position(0);
    for (const auto& [point, values] : {std::pair{374, e.p374}, std::pair{749, e.p749}})
      for (int c = 0; c < 3; ++c) {
        const double value = values[static_cast<std::size_t>(c)];
        const double digit = std::pow(10.0, std::floor(std::log10(std::abs(value))) - 5);
        EXPECT_NEAR(x[3 * point + c], value, digit)
            << e.component << " " << e.shape << " point " << point << " axis " << c;
      }
  }
}

}  // namespace
}  // namespace fluxion
