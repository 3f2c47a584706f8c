// FastTetrahedralCorotationalForceField: SOFA's qr (and its alias large), polar2 and none (and
// linear, small) are TetrahedronFEMForceField's large, polar and small term by term (the
// component's header shows it), so a beam of tetrahedra swinging under gravity must follow the
// same trajectory to the bit. SOFA's polar (the polar factor of the deformation gradient, checked
// against its definition in tetrahedron_fem_test) swings the beam as the other corotational
// frames do, not as the linear element. Bad inputs are refused in one line.
#include <gmock/gmock.h>

#include <cstdio>
#include <string>

#include <Eigen/Core>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

class FastTetrahedral : public testing::QuietTest {};

// A 2 × 2 × 6 beam of cubes cut into tetrahedra by Hexa2TetraTopologicalMapping (as SOFA's
// FastTetrahedralCorotationalForceField.scn), clamped at z = 0, falling sideways under gravity
// (large rotations of its tip), SparseLDLSolver.
std::string Beam(const std::string& force_field) {
  return R"(<Node name="root" dt="0.02" gravity="0 -9 0">
  <RegularGridTopology name="grid" min="-1 -1 0" max="1 1 6" n="3 3 7"/>
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <SparseLDLSolver/>
    <MechanicalObject name="dofs" position="@../grid.position"/>
    <TetrahedronSetTopologyContainer name="tetra"/>
    <Hexa2TetraTopologicalMapping input="@../grid" output="@tetra" swapping="true"/>
    <UniformMass totalMass="5"/>
    )" + force_field +
         R"(
    <BoxROI name="clamp" box="-2 -2 -0.1 2 2 0.1"/>
    <FixedProjectiveConstraint indices="@clamp.indices"/>
  </Node>
</Node>)";
}

TEST_F(FastTetrahedral, MethodsGiveTetrahedronFemsTrajectoryToTheBit) {
  const char* kMaterial = R"(youngModulus="1000" poissonRatio="0.4")";
  const std::pair<const char*, const char*> pairs[] = {{"qr", "large"},     {"large", "large"},
                                                       {"polar2", "polar"}, {"none", "small"},
                                                       {"linear", "small"}, {"small", "small"}};
  for (const auto& [fast, tetrahedron] : pairs) {
    Simulation a = LoadScene(Beam(std::string("<FastTetrahedralCorotationalForceField ") +
                                  kMaterial + " method=\"" + fast + "\"/>"));
    Simulation b = LoadScene(Beam(std::string("<TetrahedronFEMForceField ") + kMaterial +
                                  " method=\"" + tetrahedron + "\"/>"));
    for (int n = 0; n < 20; ++n) {
      a.Step();
      b.Step();
    }
    // The tip moved (by about a tenth of the beam's length) and both agree to the bit.
    const auto x = a.position(0);
    EXPECT_GT(std::abs(x[3 * (3 * 3 * 7 - 1) + 1] - 1.0), 0.1) << fast;
    EXPECT_TRUE((a.position(0).array() == b.position(0).array()).all()) << fast;
    EXPECT_TRUE((a.velocity(0).array() == b.velocity(0).array()).all()) << fast;
  }
}

TEST_F(FastTetrahedral, PolarSwingsTheBeamAsTheOtherCorotationalFrames) {
  // After 20 steps (tip moved by about a tenth of the beam) the frames differ at the order of
  // the strain: polar is within 2 % of qr and polar2 at the tip, and further from none (the
  // linear element, which stretches a rotating beam).
  const auto tip = [](const char* method) {
    Simulation s = LoadScene(Beam(std::string("<FastTetrahedralCorotationalForceField "
                                              "youngModulus=\"1000\" poissonRatio=\"0.4\" "
                                              "method=\"") +
                                  method + "\"/>"));
    for (int n = 0; n < 20; ++n) s.Step();
    const int last = 3 * 3 * 7 - 1;
    return Eigen::Vector3d(s.position(0).segment<3>(3 * last));
  };
  const Eigen::Vector3d start(1, 1, 6), polar = tip("polar"), qr = tip("qr"),
                                        polar2 = tip("polar2"), none = tip("none");
  const double moved = (qr - start).norm();
  std::printf(
      "[ info ] tip displacement: polar %.5f, qr %.5f, polar2 %.5f, none %.5f; "
      "|polar − qr| %.2e\n",
      (polar - start).norm(), moved, (polar2 - start).norm(), (none - start).norm(),
      (polar - qr).norm());
  EXPECT_GT(moved, 0.1);
  EXPECT_LT((polar - qr).norm(), 0.02 * moved);
  EXPECT_LT((polar - polar2).norm(), 0.02 * moved);
  EXPECT_GT((polar - none).norm(), (polar - qr).norm());
}

TEST_F(FastTetrahedral, DefaultMethodIsQr) {
  Simulation a = LoadScene(Beam(R"(<FastTetrahedralCorotationalForceField/>)"));
  Simulation b = LoadScene(Beam(R"(<TetrahedronFEMForceField method="large"/>)"));
  for (int n = 0; n < 5; ++n) {
    a.Step();
    b.Step();
  }
  EXPECT_TRUE((a.position(0).array() == b.position(0).array()).all());
}

void ExpectError(const std::string& xml, const std::string& expected) {
  try {
    LoadScene(xml);
    ADD_FAILURE() << "no error for: " << expected;
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr(expected));
  }
}

TEST_F(FastTetrahedral, BadInputIsOneLineAtTheComponent) {
  ExpectError(Beam(R"(<FastTetrahedralCorotationalForceField method="svd"/>)"),
              "inline.scn:10: FastTetrahedralCorotationalForceField 'method': 'svd' is not one of "
              "the choices");
  ExpectError(Beam(R"(<FastTetrahedralCorotationalForceField poissonRatio="0.5"/>)"),
              "inline.scn:10: FastTetrahedralCorotationalForceField 'poissonRatio' has 0.500000");
}

}  // namespace
}  // namespace fluxion
