// Data links between components (framework/src/build/data_links.cpp): "@path.data" in a field
// takes another component's data, src="@path" takes every data of the same names, with SOFA's
// lookup rules. The numbers checked are the linked component's own: a 2 × 2 × 1 grid on
// [0, 1] × [0, 2] × {0} has the points (0 0 0), (1 0 0), (0 2 0), (1 2 0) (x fastest, SOFA's
// RegularGridTopology order).
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

const std::vector<double> kGridPoints = {0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 2, 0};

std::vector<double> InitialPosition(const Simulation& simulation, const std::string& id) {
  const int index = simulation.FindObject(id);
  EXPECT_GE(index, 0) << id;
  if (index < 0) return {};
  const auto position = simulation.position(index);
  return {position.data(), position.data() + position.size()};
}

// The messages of the scene's errors, one per problem.
std::vector<std::string> Errors(const std::string& xml) {
  return testing::LoadErrors(xml, "links.scn");
}

std::string Scene(const std::string& inner) {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <Node name="shape">
    <RegularGridTopology name="grid" n="2 2 1" min="0 0 0" max="1 2 0"/>
  </Node>
)" + inner +
         "\n</Node>\n";
}

class DataLinks : public testing::QuietTest {};

TEST_F(DataLinks, PathsRelativeAbsoluteAndFromAncestors) {
  for (const char* link : {"@../shape/grid.position", "@./../shape/grid.position",
                           "@/shape/grid.position", "@/root/shape/grid.position"}) {
    const Simulation simulation = LoadScene(Scene(R"(<Node name="body">
      <MechanicalObject name="dofs" position=")" + std::string(link) +
                                                  R"("/>
      <UniformMass vertexMass="1"/>
    </Node>)"));
    EXPECT_EQ(InitialPosition(simulation, "root/body/dofs"), kGridPoints) << link;
  }
  // "../" from a child, and an unqualified name found in an ancestor node.
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <RegularGridTopology name="grid" n="2 2 1" min="0 0 0" max="1 2 0"/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="1"/>
  <Node name="a">
    <MechanicalObject name="up" position="@../grid.position"/>
    <UniformMass vertexMass="1"/>
    <Node name="b">
      <MechanicalObject name="found" position="@grid.position"/>
      <UniformMass vertexMass="1"/>
    </Node>
  </Node>
</Node>)");
  EXPECT_EQ(InitialPosition(simulation, "root/a/up"), kGridPoints);
  EXPECT_EQ(InitialPosition(simulation, "root/a/b/found"), kGridPoints);
}

// SOFA's index-based paths: "@[-1]" is the element just before the linking one in its node,
// counted as SOFA counts them (a visual element Fluxion ignores is still a place).
TEST_F(DataLinks, IndexBasedPathsNameEarlierElementsOfTheNode) {
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <RegularGridTopology n="2 2 1" min="0 0 0" max="1 2 0"/>
  <OglModel/>
  <MechanicalObject name="dofs" position="@[-2].position"/>
  <UniformMass vertexMass="1"/>
</Node>)");
  EXPECT_EQ(InitialPosition(simulation, "root/dofs"), kGridPoints);
  const std::vector<std::string> errors = Errors(R"(<Node name="root">
  <EulerExplicitSolver/>
  <Node name="a">
    <OglModel/>
    <MechanicalObject position="@[-1].position"/>
  </Node>
  <Node name="b">
    <MechanicalObject position="@[-9].position"/>
  </Node>
</Node>)");
  ASSERT_GE(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("links.scn:5: link '@[-1]' names <OglModel>, a component "
                                   "Fluxion ignores"));
  EXPECT_THAT(errors[1], HasSubstr("links.scn:8: link '@[-9]' goes before the first component"));
}

TEST_F(DataLinks, SrcTakesEveryDataOfTheSameNameExceptThoseGiven) {
  const Simulation simulation = LoadScene(Scene(R"(<Node name="body">
      <MechanicalObject name="all" src="@../shape/grid"/>
      <UniformMass vertexMass="1"/>
    </Node>
    <Node name="own">
      <MechanicalObject name="given" src="@../shape/grid" position="5 5 5"/>
      <UniformMass vertexMass="1"/>
    </Node>)"));
  EXPECT_EQ(InitialPosition(simulation, "root/body/all"), kGridPoints);
  EXPECT_THAT(InitialPosition(simulation, "root/own/given"), ElementsAre(5, 5, 5));
}

TEST_F(DataLinks, SrcAloneDoesNothingWithAWarningAsInSofa) {
  // SOFA's BaseComponent::parse: 'src=@' does nothing, with a warning (its examples/Objects/
  // *SetTopology.xml fragments write it). The object keeps its own position.
  ExpectWarnings(1);
  const Simulation simulation = LoadScene(Scene(R"(<Node name="body">
      <MechanicalObject name="own" src="@" position="5 5 5"/>
      <UniformMass vertexMass="1"/>
    </Node>)"));
  EXPECT_THAT(InitialPosition(simulation, "root/body/own"), ElementsAre(5, 5, 5));
}

TEST_F(DataLinks, AFieldAliasNamesThePublishedData) {
  // SOFA's MeshTopology reads its points as `position` or `points`; MeshTetraStuffing.scn links
  // `@surface.points` to a topology whose points came from a file. The gallery's cloth mesh has
  // 169 points, the first two (-0.6 0.5 -0.6) and (-0.5 0.5 -0.6) (its first `v` lines).
  const Simulation simulation =
      LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology name="surface" filename="mesh/cloth_13x13.obj"/>
  <Node name="copy">
    <MechanicalObject position="@../surface.points"/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>)",
                std::string(FLUXION_TEST_SOURCE_DIR) + "/scenes/links.scn");
  const std::vector<double> x = InitialPosition(simulation, "root/copy/MechanicalObject");
  ASSERT_EQ(x.size(), 169u * 3);
  EXPECT_THAT(std::vector<double>(x.begin(), x.begin() + 6),
              ElementsAre(-0.6, 0.5, -0.6, -0.5, 0.5, -0.6));
}

TEST_F(DataLinks, LinkedValuesAreCheckedLikeWrittenOnes) {
  // A field given by a link is parsed by the field that takes it: the grid's 12 coordinates are
  // not one mass.
  const std::vector<std::string> errors = Errors(Scene(R"(<Node name="body">
      <MechanicalObject position="0 0 0"/>
      <UniformMass vertexMass="@/shape/grid.position"/>
    </Node>)"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0],
              HasSubstr("links.scn:8: UniformMass 'vertexMass' = '@/shape/grid.position'"));
}

TEST_F(DataLinks, LinksToNothingAreReportedAllAtOnce) {
  // Every problem of a pass is reported before the build stops.
  const std::vector<std::string> errors = Errors(Scene(R"(<Node name="body">
      <MechanicalObject position="@nowhere.position" velocity="@/shape/grid.positon"/>
      <UniformMass vertexMass="1"/>
    </Node>
    <Node name="other">
      <MechanicalObject position="@/shape/missing/grid.position"/>
      <UniformMass vertexMass="1"/>
    </Node>)"));
  ASSERT_EQ(errors.size(), 3u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("links.scn:7: link '@nowhere' does not resolve: no component "
                                   "'nowhere' in 'root/body' or its ancestors"));
  EXPECT_THAT(errors[1], HasSubstr("links.scn:7: link '@/shape/grid.positon': "
                                   "<RegularGridTopology> 'grid' has no data 'positon' (it has: "));
  EXPECT_THAT(errors[1], HasSubstr("position"));
  EXPECT_THAT(errors[2], HasSubstr("links.scn:11: link '@/shape/missing/grid' does not resolve: "
                                   "no node 'missing' in 'root/shape'"));
}

// After a real error, its consequences are not errors of their own: a TransformEngine that failed
// (a link to nothing, points that are not triples, a field that does not parse) publishes no
// output_position, and the object reading it adds nothing (issue #25, item 18).
TEST_F(DataLinks, ALinkToAComponentThatFailedAddsNoFollowUpError) {
  for (const char* engine :
       {R"(input_position="@/shape/missing.position")", R"(input_position="1 2 3 4")",
        R"(input_position="@/shape/grid.position" scale="big")"}) {
    const std::vector<std::string> errors = Errors(Scene(R"(<Node name="body">
      <TransformEngine name="move" )" + std::string(engine) +
                                                         R"(/>
      <MechanicalObject position="@move.output_position"/>
      <UniformMass vertexMass="1"/>
    </Node>)"));
    ASSERT_EQ(errors.size(), 1u) << engine << ::testing::PrintToString(errors);
    EXPECT_THAT(errors[0], HasSubstr("links.scn:7: "));
    EXPECT_THAT(errors[0], ::testing::Not(HasSubstr("has no data")));
  }
}

TEST_F(DataLinks, ACycleOfLinksIsAnError) {
  const std::vector<std::string> errors = Errors(R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="a">
    <MechanicalObject name="dofs" position="@/b/dofs.position"/>
    <UniformMass vertexMass="1"/>
  </Node>
  <Node name="b">
    <MechanicalObject name="dofs" position="@/a/dofs.position"/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>)");
  ASSERT_FALSE(errors.empty());
  EXPECT_THAT(errors[0], HasSubstr("closes a cycle of links"));
}

TEST_F(DataLinks, DataOfAComponentNotYetBuiltAreItsFields) {
  // A mass linking to a later mass's field: the value as written there.
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" position="0 0 0" externalForce="1 0 0"/>
  <UniformMass vertexMass="@/other/mass.vertexMass"/>
  <Node name="other">
    <MechanicalObject position="0 0 0"/>
    <UniformMass name="mass" vertexMass="4"/>
  </Node>
</Node>)");
  Simulation stepped = std::move(const_cast<Simulation&>(simulation));
  stepped.Step();
  // Symplectic Euler, one step from rest under F = 1 N with m = 4 kg: v = h F/m = 0.125.
  EXPECT_EQ(stepped.velocity(stepped.FindObject("root/dofs"))[0], 0.125);
}

}  // namespace
}  // namespace fluxion
