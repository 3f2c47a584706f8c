// A force field that ends up with nothing to act on (issue 27, item 6): SOFA runs a
// StiffSpringForceField without 'spring' silently, and the scene author never learns that the
// springs were forgotten. Fluxion warns, at the component's line. The warning's text is read from
// stderr (spdlog's sink), and the fixture fails on any warning the test did not announce, so the
// scenes that do act (and the scene without a solver) are checked to stay silent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;

class ActsOnNothing : public testing::QuietTest {
 protected:
  // What loading `components` after a two-point object under an explicit solver logs.
  std::string Logged(const std::string& components) {
    ::testing::internal::CaptureStderr();
    {
      const Simulation simulation =
          testing::LoadScene(R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  )" + components + R"(
</Node>
)",
                             "springs.scn");
    }
    return ::testing::internal::GetCapturedStderr();
  }
};

TEST_F(ActsOnNothing, ASpringForceFieldWithoutSpringsIsAWarningAtItsLine) {
  ExpectWarnings(1);
  EXPECT_THAT(Logged("<StiffSpringForceField/>"),
              HasSubstr("warning: springs.scn:5: <StiffSpringForceField> acts on nothing and adds "
                        "no force"));
}

TEST_F(ActsOnNothing, AnEmptyIndexListIsAWarningToo) {
  ExpectWarnings(1);
  EXPECT_THAT(Logged(R"(<SpringForceField indices1="" indices2=""/>)"),
              HasSubstr("warning: springs.scn:5: <SpringForceField> acts on nothing"));
}

TEST_F(ActsOnNothing, AMeshSpringForceFieldOnAMeshWithoutEdgesIsAWarning) {
  ExpectWarnings(1);
  EXPECT_THAT(Logged(R"(<PointSetTopologyContainer/>
  <MeshSpringForceField/>)"),
              HasSubstr("warning: springs.scn:6: <MeshSpringForceField> acts on nothing"));
}

TEST_F(ActsOnNothing, FieldsThatActAreSilent) {
  EXPECT_EQ(Logged(R"(<StiffSpringForceField spring="0 1 100 0 1"/>)"), "");
  EXPECT_EQ(Logged(R"(<ConstantForceField indices="1" forces="0 1 0"/>)"), "");
}

}  // namespace
}  // namespace fluxion
