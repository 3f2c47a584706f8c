// Masses spread from a topology (components/topology_mass.cpp, mechanics/lumped_mass.cpp), as
// SOFA's DiagonalMass and MeshMatrixMass (lumped) compute them. Each point's mass m is read from
// one symplectic Euler step from rest under a unit force per point (ConstantForceField), h = 0.5:
// v = h/m exactly when m is a power of two.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

// The mass of each point of `topology` under `mass`.
std::vector<double> Masses(const std::string& topology, const std::string& mass) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + topology + R"(
  <MechanicalObject/>
  )" + mass + R"(
  <ConstantForceField force="1 0 0"/>
</Node>)");
  simulation.Step();
  std::vector<double> masses;
  const auto v = simulation.velocity(0);
  for (Index i = 0; i < v.size() / 3; ++i) masses.push_back(0.5 / v[3 * i]);
  return masses;
}

constexpr const char* kTetrahedron =
    R"(<MeshTopology position="0 0 0  1 0 0  0 1 0  0 0 1" tetrahedra="0 1 2 3"/>)";
constexpr const char* kTriangle =
    R"(<MeshTopology position="0 0 0  2 0 0  0 2 0" triangles="0 1 2"/>)";
constexpr const char* kCube = R"(<RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>)";

class TopologyMass : public testing::QuietTest {};

TEST_F(TopologyMass, DensitySpreadsEachElementEquallyOverItsPoints) {
  // Tetrahedron: V = 1/6, ρ = 24 → 24·(1/6)/4 = 1 per point. Triangle: A = 2, ρ = 3 → 2 per
  // point. Unit cube: V = 1 (six tetrahedra), ρ = 16 → 2 per point.
  EXPECT_THAT(Masses(kTetrahedron, R"(<DiagonalMass massDensity="24"/>)"), Each(1.0));
  EXPECT_THAT(Masses(kTriangle, R"(<DiagonalMass massDensity="3"/>)"), Each(2.0));
  // The cube's volume is six tetrahedra's sum (SOFA's Hexahedron::volume): 1 up to round-off.
  EXPECT_THAT(Masses(kCube, R"(<DiagonalMass massDensity="16"/>)"), Each(DoubleNear(2.0, 1e-14)));
}

TEST_F(TopologyMass, TotalMassAndItsDefault) {
  EXPECT_THAT(Masses(kTetrahedron, R"(<DiagonalMass totalMass="2"/>)"), Each(0.5));
  // SOFA: totalMass = 1 when no mass is given; totalMass wins over massDensity.
  EXPECT_THAT(Masses(kCube, "<DiagonalMass/>"), Each(DoubleNear(0.125, 1e-15)));
  EXPECT_THAT(Masses(kCube, R"(<DiagonalMass totalMass="4" massDensity="99"/>)"),
              Each(DoubleNear(0.5, 1e-15)));
  EXPECT_THAT(Masses(kTriangle, R"(<DiagonalMass vertexMass="1 2 4"/>)"), ElementsAre(1, 2, 4));
}

TEST_F(TopologyMass, VertexMassOfTheWrongSizeFallsBackToTotalMassAsInSofa) {
  // SOFA's checkVertexMass warns and initialises from totalMass (1 kg): the unit cube's 8 points
  // get 1/8 each, as with no mass given (SOFA's tutorial 5_TopoMapping.scn writes vertexMass="1").
  ExpectWarnings(1);
  EXPECT_THAT(Masses(kCube, R"(<DiagonalMass vertexMass="1"/>)"), Each(DoubleNear(0.125, 1e-15)));
}

TEST_F(TopologyMass, TwoElementsShareTheirCommonPoints) {
  // Two triangles of area 1/2 on the unit square (diagonal 0–2), ρ = 6: each triangle gives 1 to
  // each of its points; points 0 and 2 belong to both.
  EXPECT_THAT(
      Masses(R"(<MeshTopology position="0 0 0  1 0 0  1 1 0  0 1 0" triangles="0 1 2  0 2 3"/>)",
             R"(<DiagonalMass massDensity="6"/>)"),
      ElementsAre(2, 1, 2, 1));
}

TEST_F(TopologyMass, MeshMatrixMassLumped) {
  // SOFA's lumped MeshMatrixMass: ρV/10 per vertex × 2.5 = ρV/4, DiagonalMass's distribution.
  EXPECT_THAT(Masses(kTetrahedron, R"(<MeshMatrixMass massDensity="24" lumping="1"/>)"),
              Each(DoubleNear(1.0, 1e-15)));
}

TEST_F(TopologyMass, MissingTopologyIsOneLine) {
  try {
    Masses("", R"(<DiagonalMass totalMass="1"/>)");
    ADD_FAILURE();
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1u);
    EXPECT_THAT(error.diagnostics()[0].message, HasSubstr("needs a topology in node 'root'"));
  }
}

}  // namespace
}  // namespace fluxion
