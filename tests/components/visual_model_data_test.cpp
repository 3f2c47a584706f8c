// SOFA's OglModel as a source of geometry (components/visual_model_data.cpp): ignored unless a
// link names it, then its points moved by VisualModelImpl's scale, rotation and translation and
// its elements passed through. Expected points are worked by hand (exact in binary: scales by
// powers of two, a quarter turn up to the rounding of cos(π/2)).
#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using testing::LoadScene;

std::vector<double> Positions(const Simulation& simulation, int object) {
  const Vector& x = simulation.objects().at(object).position;
  return {x.data(), x.data() + x.size()};
}

class VisualModelData : public testing::QuietTest {};

TEST_F(VisualModelData, ALinkedModelGivesItsTranslatedPoints) {
  // SOFA's MeshSampler.scn pattern: the model takes its points from a topology (src) and moves
  // them by dy; drawing options (color, material) are ignored.
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology name="mesh" position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  <OglModel name="Visual" src="@mesh" color="red" material="shiny" dy="20"/>
  <MechanicalObject position="@Visual.position"/><UniformMass vertexMass="1"/>
</Node>)");
  EXPECT_THAT(Positions(simulation, 0), ElementsAre(0, 20, 0, 1, 20, 0, 0, 21, 0));
}

TEST_F(VisualModelData, ScaleThenRotationThenTranslation) {
  // (1 0 0): scale3d 2 → (2 0 0); a quarter turn about z → (0 2 0); translation → (1 2 3).
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  <VisualModel name="skin" position="1 0 0" scale3d="2 2 2" rotation="0 0 90"
               translation="1 0 3"/>
  <MechanicalObject position="@skin.position"/><UniformMass vertexMass="1"/>
</Node>)");
  EXPECT_THAT(Positions(simulation, 0),
              ElementsAre(DoubleNear(1, 1e-15), DoubleNear(2, 1e-15), DoubleNear(3, 1e-15)));
}

TEST_F(VisualModelData, LegacyScaleIsOneNumberAsInSofa) {
  // scale="2": (1 1 0) → (2 2 0); sx="3" alone: (3 1 0). scale="0.3 0.3 0.3" is not one number:
  // SOFA's getAttributeAsFloat fails and keeps 1, so the point stays (1 1 0) (with a warning).
  const auto scaled = [](const std::string& attributes) {
    const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  <OglModel name="v" position="1 1 0" )" + attributes +
                                            R"(/>
  <MechanicalObject position="@v.position"/><UniformMass vertexMass="1"/>
</Node>)");
    return Positions(simulation, 0);
  };
  EXPECT_THAT(scaled(R"(scale="2")"), ElementsAre(2, 2, 0));
  EXPECT_THAT(scaled(R"(sx="3")"), ElementsAre(3, 1, 0));
  ExpectWarnings(1);
  EXPECT_THAT(scaled(R"(scale="0.3 0.3 0.3")"), ElementsAre(1, 1, 0));
}

TEST_F(VisualModelData, ItsElementsPassThrough) {
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  <OglModel name="Visual" position="0 0 0  1 0 0  0 1 0  1 1 0" triangles="0 1 2  1 3 2"/>
  <MeshTopology name="copy" position="@Visual.position" triangles="@Visual.triangles"/>
  <MechanicalObject/><UniformMass vertexMass="1"/>
</Node>)");
  const ObjectModel& object = simulation.objects().at(0);
  ASSERT_NE(object.topology, nullptr);
  EXPECT_EQ(object.topology->triangles.size(), 2u);
  EXPECT_EQ(object.topology->triangles[1], (std::array<Index, 3>{1, 3, 2}));
}

TEST_F(VisualModelData, AModelNoLinkNamesStaysIgnoredWhateverItsAttributes) {
  // Not read at all: not even its own fields are checked.
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  <OglModel name="Visual" src="@nowhere" scale3d="1" anything="at all"/>
  <MechanicalObject position="1 2 3"/><UniformMass vertexMass="1"/>
</Node>)");
  EXPECT_THAT(Positions(simulation, 0), ElementsAre(1, 2, 3));
}

}  // namespace
}  // namespace fluxion
