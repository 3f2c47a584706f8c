// SOFA's HexahedralFEMForceField (components/hexahedral_fem_force_field.h): on axis-aligned cubes
// it is HexahedronFEMForceField's `large` element (SOFA's closed-form stiffness equals the exact
// one there: the header gives the comparison), so a cantilever of cubes bends exactly as with
// HexahedronFEMForceField method="large"; any other shape, and method="polar", is one
// `FILE:LINE:` error.
#include <gmock/gmock.h>

#include <string>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::ExpectSceneError;
using testing::LoadScene;

class HexahedralFemScenes : public testing::QuietTest {};

// A 1 × 1 × 4 beam of 2 × 2 × 8 cells (cubes of edge 0.5 when `length` is 4), clamped at z = 0,
// pulled down at its tip; one static Newton step.
std::string Beam(const std::string& force_field, double length) {
  return R"(<Node name="root" dt="1" gravity="0 0 0">
  <StaticSolver/>
  <NewtonRaphsonSolver maxNbIterationsNewton="20" absoluteResidualStoppingThreshold="1e-12"/>
  <SparseLDLSolver/>
  <RegularGridTopology name="grid" n="3 3 9" min="0 0 0" max="1 1 )" +
         std::to_string(length) + R"("/>
  <MechanicalObject name="beam"/>
  <UniformMass totalMass="1"/>
  )" + force_field +
         R"(
  <BoxROI name="clamp" box="-0.1 -0.1 -0.1 1.1 1.1 0.001"/>
  <FixedProjectiveConstraint indices="@clamp.indices"/>
  <BoxROI name="tip" box="-0.1 -0.1 3.999 1.1 1.1 4.1"/>
  <ConstantForceField indices="@tip.indices" totalForce="0 -1 0"/>
</Node>)";
}

TEST_F(HexahedralFemScenes, CubesBendAsHexahedronFemLarge) {
  Simulation hexahedral =
      LoadScene(Beam(R"(<HexahedralFEMForceField youngModulus="1e5" poissonRatio="0.3"/>)", 4));
  Simulation hexahedron = LoadScene(Beam(
      R"(<HexahedronFEMForceField youngModulus="1e5" poissonRatio="0.3" method="large"/>)", 4));
  hexahedral.Step();
  hexahedron.Step();
  const auto a = hexahedral.position(0);
  const auto b = hexahedron.position(0);
  ASSERT_EQ(a.size(), b.size());
  for (Index k = 0; k < a.size(); ++k) EXPECT_EQ(a[k], b[k]) << "coordinate " << k;
  // The beam did bend: its last point, (1, 1, 4) at rest, moved down.
  EXPECT_LT(a[a.size() - 2], 1.0 - 1e-4);
}

TEST_F(HexahedralFemScenes, RefusesOtherShapesAndPolar) {
  // Cells of 0.5 × 0.5 × 1: boxes, not cubes.
  ExpectSceneError(Beam(R"(<HexahedralFEMForceField youngModulus="1e5" poissonRatio="0.3"/>)", 8),
                   "is not an axis-aligned cube at rest");
  ExpectSceneError(
      Beam(R"(<HexahedralFEMForceField youngModulus="1e5" poissonRatio="0.3" method="polar"/>)", 4),
      "'method' = 'polar' is not supported");
}

}  // namespace
}  // namespace fluxion
