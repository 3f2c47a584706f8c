// MeshMatrixMass's consistent mass (lumping=0, SOFA's default) and its lumped form, checked
// against mass matrices written by hand from SOFA's element rules (MeshMatrixMass.inl): a
// triangle of area A and density ρ gives ρA/6 to each vertex's diagonal and ρA/12 to each edge,
// a tetrahedron ρV/10 and ρV/20, a hexahedron ρV/20 and ρV/40 (its 12 edges). One symplectic
// Euler step from rest with h = 0.5 gives v = h·M⁻¹f, compared with M⁻¹ inverted by hand.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::HasSubstr;
using testing::LoadScene;

constexpr double kTol = 1e-14;

// A triangle of area 2 with ρ = 6: M = [[2,1,1],[1,2,1],[1,1,2]] per axis (ρA/6 = 2, ρA/12 = 1).
constexpr const char* kTriangle =
    R"(<MeshTopology position="0 0 0  2 0 0  0 2 0" triangles="0 1 2"/>)";

Simulation Scene(const std::string& topology, const std::string& mass, const std::string& loads,
                 const std::string& gravity = "0 0 0",
                 const std::string& solver = "<EulerExplicitSolver/>",
                 const std::string& object = "<MechanicalObject/>") {
  return LoadScene(R"(<Node name="root" dt="0.5" gravity=")" + gravity + R"(">
  )" + solver + R"(
  <SparseLDLSolver/>
  )" + topology + "\n  " +
                   object + "\n  " + mass + "\n  " + loads + "\n</Node>");
}

// x-velocities of every point after one step.
std::vector<double> VelocitiesX(Simulation& simulation) {
  simulation.Step();
  const auto v = simulation.velocity(0);
  std::vector<double> x;
  for (Index i = 0; i < v.size() / 3; ++i) x.push_back(v[3 * i]);
  return x;
}

class MeshMatrixMass : public testing::QuietTest {};

TEST_F(MeshMatrixMass, ConsistentTriangleIsInvertedByTheLinearSolver) {
  // M⁻¹ = ¼·[[3,-1,-1],[-1,3,-1],[-1,-1,3]]: a unit force on point 0 gives a = (¾, -¼, -¼).
  Simulation simulation = Scene(kTriangle, R"(<MeshMatrixMass massDensity="6"/>)",
                                R"(<ConstantForceField indices="0" forces="1 0 0"/>)");
  EXPECT_THAT(VelocitiesX(simulation),
              ::testing::ElementsAre(DoubleNear(0.375, kTol), DoubleNear(-0.125, kTol),
                                     DoubleNear(-0.125, kTol)));
}

TEST_F(MeshMatrixMass, TotalMassGivesTheSameMatrix) {
  // totalMass = ρA = 12 (SOFA's default precedence: totalMass first).
  Simulation simulation = Scene(kTriangle, R"(<MeshMatrixMass totalMass="12" massDensity="99"/>)",
                                R"(<ConstantForceField indices="0" forces="1 0 0"/>)");
  EXPECT_THAT(VelocitiesX(simulation),
              ::testing::ElementsAre(DoubleNear(0.375, kTol), DoubleNear(-0.125, kTol),
                                     DoubleNear(-0.125, kTol)));
}

TEST_F(MeshMatrixMass, ConsistentTetrahedron) {
  // Unit tetrahedron, V = 1/6, ρ = 120: M = I + J (J all ones), M⁻¹ = I − J/5:
  // a unit force on point 0 gives a = (4/5, -1/5, -1/5, -1/5).
  Simulation simulation =
      Scene(R"(<MeshTopology position="0 0 0  1 0 0  0 1 0  0 0 1" tetrahedra="0 1 2 3"/>)",
            R"(<MeshMatrixMass massDensity="120"/>)",
            R"(<ConstantForceField indices="0" forces="1 0 0"/>)");
  EXPECT_THAT(VelocitiesX(simulation),
              ::testing::ElementsAre(DoubleNear(0.4, kTol), DoubleNear(-0.1, kTol),
                                     DoubleNear(-0.1, kTol), DoubleNear(-0.1, kTol)));
}

TEST_F(MeshMatrixMass, GravityActsThroughTheLumpedMassSoEveryPointFallsAtG) {
  // SOFA's addForce: f = m_lumped·g, the row sums of M, so M⁻¹f = g for every point, whatever
  // the element: triangle (rows 2+1+1 = 4 = 2·2), tetrahedron with ρ = 40 (rows 2/3 + 3·1/3 =
  // 5/3 = 2/3·2.5). (A lone hexahedron's matrix, 12 edges only as SOFA builds it, is ρV/40 times
  // 2I + A with A the cube graph's adjacency, whose eigenvalue −3 makes it indefinite: the
  // Cholesky-type SparseLDLSolver refuses it.)
  for (const std::string& topology :
       {std::string(kTriangle),
        std::string(
            R"(<MeshTopology position="0 0 0  1 0 0  0 1 0  0 0 1" tetrahedra="0 1 2 3"/>)")}) {
    for (const std::string& solver :
         {std::string("<EulerExplicitSolver/>"), std::string("<EulerImplicitSolver/>")}) {
      Simulation simulation =
          Scene(topology, R"(<MeshMatrixMass massDensity="40"/>)", "", "0 -10 0", solver);
      simulation.Step();
      const auto v = simulation.velocity(0);
      for (Index i = 0; i < v.size() / 3; ++i)
        EXPECT_NEAR(v[3 * i + 1], -5.0, 1e-12) << topology << " " << solver << " point " << i;
    }
  }
}

TEST_F(MeshMatrixMass, KineticEnergyIsHalfVTransposeMV) {
  // v = (1,0,0) on point 0, (−1,0,0) on point 1: ½·(2 + 2 − 2·1) = 1. Uniform v = (1,0,0):
  // ½·ΣM = ½·ρA = 6.
  EXPECT_NEAR(
      Scene(kTriangle, R"(<MeshMatrixMass massDensity="6"/>)", "", "0 0 0",
            "<EulerExplicitSolver/>",
            R"(<MechanicalObject position="0 0 0  2 0 0  0 2 0" velocity="1 0 0  -1 0 0  0 0 0"/>)")
          .KineticEnergy(),
      1.0, kTol);
  EXPECT_NEAR(
      Scene(kTriangle, R"(<MeshMatrixMass massDensity="6"/>)", "", "0 0 0",
            "<EulerExplicitSolver/>",
            R"(<MechanicalObject position="0 0 0  2 0 0  0 2 0" velocity="1 0 0  1 0 0  1 0 0"/>)")
          .KineticEnergy(),
      6.0, kTol);
}

TEST_F(MeshMatrixMass, LumpedIsTheRowSum) {
  // lumping=1: vertex mass × 2 (surfaces): 2·2 = 4 per point; a unit force gives a = 1/4.
  Simulation simulation = Scene(kTriangle, R"(<MeshMatrixMass massDensity="6" lumping="1"/>)",
                                R"(<ConstantForceField force="1 0 0"/>)");
  EXPECT_THAT(VelocitiesX(simulation), ::testing::Each(DoubleNear(0.125, kTol)));
}

TEST_F(MeshMatrixMass, LumpedVertexMassIsScaledByTheLumpingCoefficientAsInSofa) {
  // SOFA stores vertex masses: with lumping the point mass is vertexMass × 2 for a triangle.
  Simulation simulation = Scene(kTriangle, R"(<MeshMatrixMass vertexMass="1 2 4" lumping="1"/>)",
                                R"(<ConstantForceField force="1 0 0"/>)");
  EXPECT_THAT(VelocitiesX(simulation),
              ::testing::ElementsAre(DoubleNear(0.25, kTol), DoubleNear(0.125, kTol),
                                     DoubleNear(0.0625, kTol)));
}

TEST_F(MeshMatrixMass, VertexAndEdgeMassesGiven) {
  // vertexMass + edgeMass, one per edge of the topology (MeshTopology derives the triangle's 3
  // edges): the same matrix as ρ = 6.
  Simulation simulation =
      Scene(kTriangle, R"(<MeshMatrixMass vertexMass="2 2 2" edgeMass="1 1 1"/>)",
            R"(<ConstantForceField indices="0" forces="1 0 0"/>)");
  EXPECT_THAT(VelocitiesX(simulation),
              ::testing::ElementsAre(DoubleNear(0.375, kTol), DoubleNear(-0.125, kTol),
                                     DoubleNear(-0.125, kTol)));
}

TEST_F(MeshMatrixMass, AnExplicitSolverWithoutLinearSolverIsASceneError) {
  try {
    LoadScene(R"(<Node name="root">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  2 0 0  0 2 0" triangles="0 1 2"/>
  <MechanicalObject/>
  <MeshMatrixMass massDensity="6"/>
</Node>)");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("inline.scn:2: EulerExplicitSolver needs a linear solver "
                                        "to invert the consistent mass matrix"));
    EXPECT_THAT(error.what(), HasSubstr("or lumping=\"1\""));
  }
}

TEST_F(MeshMatrixMass, EdgeOnlyTopologyIsRefused) {
  try {
    LoadScene(R"(<Node name="root">
  <EulerExplicitSolver/>
  <SparseLDLSolver/>
  <MeshTopology position="0 0 0  2 0 0" edges="0 1"/>
  <MechanicalObject/>
  <MeshMatrixMass massDensity="6"/>
</Node>)");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("no triangles, quads, tetrahedra or hexahedra"));
  }
}

}  // namespace
}  // namespace fluxion
