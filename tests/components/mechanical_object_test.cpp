// MechanicalObject's older attributes (components/mechanical_object.cpp; SOFA's
// MechanicalObject::parse and init): scale, sx/sy/sz, rx/ry/rz as replacements of scale3d and
// rotation; rotation2/translation2 (and rx2…dz2) applied after the rest position is taken; a
// shorter externalForce zero-filled; useTopology. Values are exact where the numbers make them so
// (scales by powers of two, quarter turns up to the rounding of cos(π/2)).
#include <gmock/gmock.h>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using testing::LoadScene;

std::string Scene(const std::string& object) {
  return R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + object +
         R"(
  <UniformMass vertexMass="1"/>
</Node>)";
}

std::vector<double> Values(const Vector& v) { return {v.data(), v.data() + v.size()}; }

const ObjectModel& TheObject(const Simulation& simulation) { return simulation.objects().at(0); }

class MechanicalObjectLegacy : public testing::QuietTest {};

TEST_F(MechanicalObjectLegacy, ScaleAndPerAxisScalesReplaceScale3d) {
  EXPECT_THAT(
      Values(TheObject(LoadScene(Scene(R"(<MechanicalObject position="1 2 3" scale="2"/>)")))
                 .position),
      ElementsAre(2, 4, 6));
  // sx given alone: sy and sz are 1 (SOFA reads the three together).
  EXPECT_THAT(
      Values(TheObject(
                 LoadScene(Scene(R"(<MechanicalObject position="1 2 3" scale3d="5 5 5" sx="2"/>)")))
                 .position),
      ElementsAre(2, 2, 3));
}

TEST_F(MechanicalObjectLegacy, RxRyRzReplaceRotation) {
  // A quarter turn about x takes (0, 1, 0) to (0, 0, 1).
  const std::vector<double> x = Values(
      TheObject(
          LoadScene(Scene(R"(<MechanicalObject position="0 1 0" rotation="0 0 45" rx="90"/>)")))
          .position);
  EXPECT_THAT(x, ElementsAre(DoubleNear(0, 1e-15), DoubleNear(0, 1e-15), DoubleNear(1, 1e-15)));
}

TEST_F(MechanicalObjectLegacy, SecondTransformsComeAfterTheRestPosition) {
  const Simulation simulation = LoadScene(Scene(
      R"(<MechanicalObject position="1 0 0" translation="1 0 0" translation2="0 0 5" rz2="90"/>)"));
  const ObjectModel& object = TheObject(simulation);
  EXPECT_THAT(Values(object.rest_position), ElementsAre(2, 0, 0));
  // rotation2 first (a quarter turn about z: (2, 0, 0) → (0, 2, 0)), then translation2.
  EXPECT_THAT(Values(object.position),
              ElementsAre(DoubleNear(0, 1e-15), DoubleNear(2, 1e-15), DoubleNear(5, 1e-15)));
}

TEST_F(MechanicalObjectLegacy, AShorterExternalForceIsZeroFilled) {
  Simulation simulation =
      LoadScene(Scene(R"(<MechanicalObject position="0 0 0  1 0 0" externalForce="2 0 0"/>)"));
  simulation.Step();
  // Symplectic Euler from rest, m = 1, h = 0.5: v = h·F = 1 for the pushed point, 0 for the other.
  EXPECT_THAT(Values(Vector(simulation.velocity(0))), ElementsAre(1, 0, 0, 0, 0, 0));
}

TEST_F(MechanicalObjectLegacy, UseTopologyOffKeepsOnePointAtTheOrigin) {
  const std::string grid = R"(<RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>
  )";
  EXPECT_EQ(TheObject(LoadScene(Scene(grid + "<MechanicalObject/>"))).num_points, 8);
  EXPECT_EQ(TheObject(LoadScene(Scene(grid + R"(<MechanicalObject useTopology="0"/>)"))).num_points,
            1);
}

TEST_F(MechanicalObjectLegacy, TrailingNumbersOfAnIncompletePointAreDroppedAsSofaReadsThem) {
  // SOFA reads a Vec3d list point by point and stops at the incomplete one (its STLExporter.scn
  // gives 10 numbers): three points, 9 and the extra number dropped, with one warning each.
  ExpectWarnings(2);
  const Simulation simulation = LoadScene(
      Scene(R"(<MechanicalObject position="0 1 2 3 4 5 6 7 8 9" velocity="1 0 0 2 0"/>)"));
  const ObjectModel& object = TheObject(simulation);
  EXPECT_EQ(object.num_points, 3);
  EXPECT_THAT(Values(object.position), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8));
  EXPECT_THAT(Values(object.velocity), ElementsAre(1, 0, 0, 0, 0, 0, 0, 0, 0));
}

TEST_F(MechanicalObjectLegacy, StateVectorsAreAccepted) {
  EXPECT_NO_THROW(LoadScene(Scene(
      R"(<MechanicalObject position="0 0 0" derivX="0 0 0" free_position="0 0 0" free_velocity="0 0 0" reset_position="0 0 0" reserve="10"/>)")));
}

}  // namespace
}  // namespace fluxion
