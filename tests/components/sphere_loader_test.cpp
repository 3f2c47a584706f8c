// SOFA's SphereLoader (components/sphere_loader.cpp) in a scene as SOFA's examples write it
// (RegularGridTopology.scn): a MechanicalObject takes the centres through "@[-1].position", a
// SphereCollisionModel the radii through "@[-2].listRadius". Two spheres, (0 0 0) r = 0.3 and
// (0.5 0 0) r = 0.5, loaded with scale 2 and translation (1 0 0): centres (1 0 0) and (2 0 0),
// one apart; radii unscaled (SOFA scales only the centres). With MinProximityIntersection
// (alarm 0.5, contact 0.1) the pair is in contact, as the alarm distance 0.5 + 0.3 + 0.5 = 1.3
// exceeds the gap 1, and the penalty keeps d = 0.1 + 0.3 + 0.5 = 0.9 between the centres: a
// penetration of 0.9 − 1 = −0.1 (no push yet). Scaled radii would give d = 1.7.
#include <gmock/gmock.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

class SphereLoading : public testing::QuietTest {
 protected:
  void SetUp() override {
    testing::QuietTest::SetUp();
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    folder_ = fs::path(::testing::TempDir()) /
              ("fluxion_sph_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    std::ofstream(folder_ / "two.sph") << "sph 1.0\nnums 2\nsphe 1 0 0 0 0.3\nsphe 2 0.5 0 0 0.5\n";
  }
  void TearDown() override {
    testing::QuietTest::TearDown();
    if (!HasFailure()) fs::remove_all(folder_);
  }
  Simulation Load(const std::string& loader_attributes) {
    std::ofstream(folder_ / "scene.scn") << R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.5" contactDistance="0.1"/>
  <CollisionResponse response="PenalityContactForceField"/>
  <Node name="balls">
    <EulerImplicitSolver/> <CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-12"/>
    <SphereLoader filename="two.sph" )" + loader_attributes +
                                                R"(/>
    <MechanicalObject position="@[-1].position"/>
    <UniformMass vertexMass="1"/>
    <SphereCollisionModel listRadius="@[-3].listRadius" selfCollision="1"/>
  </Node>
</Node>
)";
    return testing::TestHost().LoadFile((folder_ / "scene.scn").string());
  }
  fs::path folder_;
};

TEST_F(SphereLoading, CentresTransformedRadiiAsInTheFile) {
  Simulation simulation = Load(R"(scale="2 2 2" translation="1 0 0")");
  const Vector& x = simulation.objects().at(0).position;
  EXPECT_THAT(std::vector<double>(x.data(), x.data() + x.size()), ElementsAre(1, 0, 0, 2, 0, 0));
  simulation.Step();
  // A model with itself examines (0, 1) and (1, 0), two ids (docs/contact.md): two contacts.
  ASSERT_EQ(simulation.contacts().size(), 2u);
  for (const Contact& contact : simulation.contacts()) {
    EXPECT_THAT(contact.distance, DoubleNear(0.9, 1e-12));
    EXPECT_THAT(contact.penetration, DoubleNear(-0.1, 1e-12));
  }
}

TEST_F(SphereLoading, RotationTurnsTheCentres) {
  // 90° about z: (x, y) → (−y, x); the second centre (0.5 0 0) goes to (0 0.5 0).
  Simulation simulation = Load(R"(rotation="0 0 90")");
  const Vector& x = simulation.objects().at(0).position;
  EXPECT_NEAR(x[3], 0.0, 1e-15);
  EXPECT_NEAR(x[4], 0.5, 1e-15);
}

TEST_F(SphereLoading, AMissingOrMalformedFileIsOneError) {
  std::ofstream(folder_ / "bad.sph") << "sph 1.0\nsphe 1 0 0\n";
  try {
    std::ofstream(folder_ / "scene.scn") << R"(<Node name="root">
  <SphereLoader filename="bad.sph"/>
</Node>
)";
    testing::TestHost().LoadFile((folder_ / "scene.scn").string());
    FAIL() << "loaded";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1u);
    EXPECT_THAT(error.diagnostics()[0].Format(),
                HasSubstr("SphereLoader cannot read the spheres: "));
    EXPECT_THAT(error.diagnostics()[0].Format(), HasSubstr("bad.sph:2: 'sphe' has 3 number(s)"));
  }
}

}  // namespace
}  // namespace fluxion
