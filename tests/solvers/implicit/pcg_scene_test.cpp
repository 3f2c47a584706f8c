// PCGLinearSolver in whole scenes (linear/pcg_linear_solver.h, linear/preconditioners.h): with an
// AsyncSparseLDLSolver preconditioner, implicit steps give SparseLDLSolver's trajectories (the
// preconditioner is the exact inverse, refreshed every step: SOFA's assemblingRate 1, factorised
// synchronously); with Jacobi or block-Jacobi preconditioners, converged PCG gives them to its
// tolerance; without a preconditioner it gives CGLinearSolver's iterates; SOFA's
// BDFOdeSolver.scn structure (BDF2, Newton, ConstantSparsityPatternSystem, PCG + AsyncSparseLDL,
// MeshMatrixMass on a tetrahedral mesh, springs in place of the FEM) runs; bad links are one-line
// scene errors; the ODE solver's linear solver is the one that is no PCG's preconditioner.
#include <gmock/gmock.h>

#include <algorithm>
#include <string>

#include "implicit_test_scenes.h"

namespace fluxion {
namespace {

using fluxion::testing::ClothScene;
using fluxion::testing::LoadScene;
using ::testing::HasSubstr;

class PcgScene : public fluxion::testing::QuietTest {};

// The benchmark's cloth with Rayleigh damping on, so that A = (1 + h·rm)·M + h·(h + rs)·K.
std::string Cloth(int n, const std::string& linear) {
  return ClothScene({.n = n,
                     .rayleigh_stiffness = 0.01,
                     .rayleigh_mass = 0.1,
                     .stiffness = 500,
                     .damping = 0.5,
                     .linear_solver = linear});
}

// SOFA's examples/Component/ODESolver/Backward/BDFOdeSolver.scn node, unchanged but for the mesh
// (a committed 1 × 4 × 1 beam of 96 tetrahedra, fixed at y = 0) and the force field (springs on
// the mesh's edges in place of TetrahedronHyperelasticityFEMForceField), with a gravity that
// bends the beam without buckling it.
std::string BdfBeam(const std::string& linear) {
  return R"(<Node name="root" gravity="-1.8 0 10" dt="0.01">
  <DefaultAnimationLoop parallelODESolving="false"/>
  <Node name="DeformableObject">
    <BDFOdeSolver order="2" printLog="false" rayleighMass="0.01" rayleighStiffness="0.01"/>
    <NewtonRaphsonSolver name="newton" printLog="false"
                         maxNbIterationsNewton="10" absoluteResidualStoppingThreshold="1e-5"
                         maxNbIterationsLineSearch="5" lineSearchCoefficient="0.5"
                         relativeInitialStoppingThreshold="1e-3"
                         absoluteEstimateDifferenceThreshold="1e-5"
                         relativeEstimateDifferenceThreshold="1e-5"/>
    <ConstantSparsityPatternSystem template="CompressedRowSparseMatrix" name="A" checkIndices="false"/>
    )" + linear +
         R"(
    <MeshGmshLoader name="loader" filename="beam_tetra.msh"/>
    <TetrahedronSetTopologyContainer src="@loader" name="topologyContainer"/>
    <TetrahedronSetGeometryAlgorithms name="geomAlgo"/>
    <MechanicalObject src="@loader"/>
    <MeshMatrixMass totalMass="15" topology="@topologyContainer"/>
    <BoxROI name="box" box="-0.1 -0.1 -0.1  1.1 0.1 1.1"/>
    <FixedProjectiveConstraint indices="@box.indices"/>
    <MeshSpringForceField stiffness="1000"/>
  </Node>
</Node>)";
}

constexpr const char* kPcgAsyncLdl =
    R"(<PCGLinearSolver name="PCG" iterations="1000" preconditioner="@preconditioner"/>
  <AsyncSparseLDLSolver name="preconditioner" template="CompressedRowSparseMatrix"/>)";

// The largest difference between two runs' positions and velocities after `steps` steps.
// `file_name`: where the scenes are taken to be (the folder their files are read from).
double Difference(const std::string& a_xml, const std::string& b_xml, int steps,
                  const std::string& file_name = "inline.scn") {
  Simulation a = LoadScene(a_xml, file_name);
  Simulation b = LoadScene(b_xml, file_name);
  for (int step = 0; step < steps; ++step) {
    a.Step();
    b.Step();
  }
  const State& sa = a.solver_nodes()[0].state;
  const State& sb = b.solver_nodes()[0].state;
  return std::max((sa.x - sb.x).cwiseAbs().maxCoeff(), (sa.v - sb.v).cwiseAbs().maxCoeff());
}

// With the exact inverse as preconditioner every solve is LDLᵀ's solution plus one PCG
// correction x₁ = x₀ + A⁻¹(b − A·x₀) that changes it by round-off only (a few ulps times
// κ(A) < 10³ on values of order 1, per step): 1e-10 on positions and velocities of order 1 after
// 50 steps. The runs are different: 1e-10 is far above their ~1e-14 difference, far below the
// ~1e-3 a single missed solve would make.
TEST_F(PcgScene, AsyncLdlPreconditionedClothMatchesSparseLdl) {
  const double difference = Difference(Cloth(8, kPcgAsyncLdl), Cloth(8, "<SparseLDLSolver/>"), 50);
  EXPECT_LE(difference, 1e-10);
}

// SOFA's BDF scene structure: BDF2 steps with Newton iterations, a consistent mass, PCG +
// AsyncSparseLDL against SparseLDLSolver. Same bound and reason as the cloth.
TEST_F(PcgScene, BdfSceneStructureMatchesSparseLdl) {
  const double difference =
      Difference(BdfBeam(kPcgAsyncLdl), BdfBeam("<SparseLDLSolver/>"), 30,
                 FLUXION_TEST_SOURCE_DIR "/tests/solvers/implicit/data/beam.scn");
  EXPECT_LE(difference, 1e-10);
}

// Jacobi, 3×3 block Jacobi and SSOR preconditioners, PCG run to rᵀP⁻¹r ≤ 1e-24·bᵀb: then ‖r‖/‖b‖ ≤
// 1e-12·(max A_ii / min A_ii)^½, and the solution's relative error κ(A) times that, < 1e-9 per
// step here; summed over 30 steps of an implicit (stable) method on values of order 1: 1e-7.
TEST_F(PcgScene, JacobiPreconditionedClothMatchesSparseLdlToItsTolerance) {
  for (const char* preconditioner :
       {"JacobiPreconditioner", "BlockJacobiPreconditioner", "SSORPreconditioner"}) {
    const std::string pcg =
        std::string(R"(<PCGLinearSolver iterations="10000" tolerance="1e-24" preconditioner="@p"/>
  <)") + preconditioner +
        R"( name="p"/>)";
    EXPECT_LE(Difference(Cloth(8, pcg), Cloth(8, "<SparseLDLSolver/>"), 30), 1e-7)
        << preconditioner;
  }
}

// Without a preconditioner PCG runs CG's recurrences: from the same start (SOFA's PCG starts from
// the solution vector it is given, CGLinearSolver does with warmStart) and with the same stopping
// point (PCG's ‖r‖²/‖b‖² ≤ 1e-16 is CG's ‖r‖/‖b‖ ≤ 1e-8; CG's threshold off), the trajectories
// agree to round-off (both are matrix-free, the same products in the same order).
TEST_F(PcgScene, WithoutPreconditionerMatchesWarmStartedCg) {
  const double difference =
      Difference(Cloth(6, R"(<PCGLinearSolver iterations="1000" tolerance="1e-16"/>)"),
                 Cloth(6, R"(<CGLinearSolver iterations="1000" tolerance="1e-8" threshold="0"
                                                warmStart="1"/>)"),
                 20);
  EXPECT_LE(difference, 1e-13);
}

// SOFA's PreconditionedMatrixFreeSystem sets how often the preconditioner is rebuilt. With one PCG
// iteration and tolerance 1e-20 (rᵀP⁻¹r/bᵀb), a step whose factor is fresh meets the tolerance
// (the exact inverse leaves round-off, ~1e-30) and a step with an older factor does not (the
// cloth's matrix changes from step to step: rᵀP⁻¹r/bᵀb is 1e-6 to 3e-2), which PCG reports as a
// warning.
// assemblingRate 5 (or its SOFA alias update_step): factors at steps 1 and 6, so steps 2–5 and
// 7–10 do not converge; rate 1 (the default): none. The run warns at the first (step 2) and
// counts the others in its summary (two warnings): what it logged is returned.
std::string RunClothWithRate(const std::string& system_xml, int steps) {
  ::testing::internal::CaptureStderr();
  {
    Simulation simulation = LoadScene(Cloth(6, system_xml + R"(
  <PCGLinearSolver iterations="1" tolerance="1e-20" preconditioner="@p"/>
  <AsyncSparseLDLSolver name="p"/>)"));
    for (int step = 0; step < steps; ++step) simulation.Step();
  }
  return ::testing::internal::GetCapturedStderr();
}

TEST_F(PcgScene, AssemblingRateFiveLeavesFourStepsOfFiveWithAnOlderFactor) {
  ExpectWarnings(2);
  const std::string logged =
      RunClothWithRate(R"(<PreconditionedMatrixFreeSystem assemblingRate="5"/>)", 10);
  EXPECT_THAT(logged, ::testing::HasSubstr("step 2 (t = 0.02): PCGLinearSolver did not converge"));
  EXPECT_THAT(logged,
              ::testing::HasSubstr("7 more times like this (8 in all, the last at step 10"));
}

TEST_F(PcgScene, UpdateStepIsSofasAliasOfAssemblingRate) {
  ExpectWarnings(2);
  const std::string logged =
      RunClothWithRate(R"(<PreconditionedMatrixFreeSystem update_step="5"/>)", 10);
  EXPECT_THAT(logged,
              ::testing::HasSubstr("7 more times like this (8 in all, the last at step 10"));
}

TEST_F(PcgScene, DefaultAssemblingRateRefreshesEveryStep) {
  RunClothWithRate("", 10);
  RunClothWithRate(R"(<PreconditionedMatrixFreeSystem assemblingRate="1"/>)", 10);
}

// The ODE solver takes the first linear solver of its node that is no PCG's preconditioner, even
// when the preconditioner is declared first (SOFA would take the first one declared; its scenes
// declare the PCG first). Two unlinked linear solvers: the first, as SOFA.
TEST_F(PcgScene, OdeSolverUsesTheLinearSolverThatIsNoPreconditioner) {
  const auto linear_solver_of = [](const std::string& linear) {
    Simulation simulation = LoadScene(Cloth(3, linear));
    return simulation.solver_nodes()[0].linear_solver->name();
  };
  EXPECT_EQ(linear_solver_of(kPcgAsyncLdl), "PCGLinearSolver");
  EXPECT_EQ(linear_solver_of(R"(<AsyncSparseLDLSolver name="p"/>
  <PCGLinearSolver preconditioner="@p"/>)"),
            "PCGLinearSolver");
  EXPECT_EQ(linear_solver_of("<SparseLDLSolver/><CGLinearSolver/>"), "SparseLDLSolver");
  EXPECT_EQ(linear_solver_of("<CGLinearSolver/><SparseLDLSolver/>"), "CGLinearSolver");
}

// The messages of a scene's errors.
std::vector<std::string> Errors(const std::string& xml) {
  return fluxion::testing::LoadErrors(xml, "pcg.scn");
}

TEST_F(PcgScene, BadPreconditionerLinksAreSceneErrors) {
  EXPECT_THAT(Errors(Cloth(3, R"(<PCGLinearSolver preconditioner="@nothing"/>)")),
              ::testing::ElementsAre(HasSubstr(
                  "pcg.scn:3: PCGLinearSolver 'preconditioner' link '@nothing' does not name a "
                  "component in node 'root' or below (expected a linear solver")));
  EXPECT_THAT(Errors(Cloth(3, R"(<PCGLinearSolver preconditioner="@cloth/dofs"/>)")),
              ::testing::ElementsAre(
                  HasSubstr("pcg.scn:3: PCGLinearSolver 'preconditioner' link '@cloth/dofs' "
                            "names a MechanicalObject, which is not a linear solver")));
  EXPECT_THAT(Errors(Cloth(3, R"(<PCGLinearSolver preconditioner="p"/>)")),
              ::testing::ElementsAre(HasSubstr("does not start with '@'")));
  EXPECT_THAT(Errors(Cloth(3, R"(<PCGLinearSolver name="a" preconditioner="@a"/>)")),
              ::testing::ElementsAre(HasSubstr("names the PCGLinearSolver itself")));
}

}  // namespace
}  // namespace fluxion
