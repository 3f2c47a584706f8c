// SOFA's <include href="…"> (framework/src/scene/xml_reader.cpp): fragments read as if written
// in place — a "Group" root gives its contents to the including node, another root node becomes
// a child — with the include's attributes replacing those of the fragment (SOFA's
// simulation/common/xml/XML.cpp, includeNode and recReplaceAttribute), found under the input
// policy, and errors naming the fragment's own file and line.
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

class Include : public testing::QuietTest {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    folder_ = fs::path(::testing::TempDir()) /
              ("fluxion_include_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(folder_);
    fs::create_directories(folder_ / "scenes");
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(folder_);
  }
  std::string Write(const std::string& relative, const std::string& text) {
    const fs::path file = folder_ / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file.string();
  }
  Simulation Load(const std::string& scene_text) {
    return testing::TestHost().LoadFile(Write("scenes/scene.scn", scene_text));
  }
  std::vector<std::string> Errors(const std::string& scene_text) {
    try {
      Load(scene_text);
    } catch (const SceneError& error) {
      std::vector<std::string> messages;
      for (const SceneDiagnostic& d : error.diagnostics()) messages.push_back(d.Format());
      return messages;
    }
    return {};
  }
  static std::vector<double> Position(const Simulation& simulation, const std::string& id) {
    const int index = simulation.FindObject(id);
    EXPECT_GE(index, 0) << id;
    if (index < 0) return {};
    const auto x = simulation.position(index);
    return {x.data(), x.data() + x.size()};
  }
  fs::path folder_;
};

constexpr const char* kGroup = R"(<Node name="Group">
  <MechanicalObject name="dofs" position="1 2 3"/>
  <UniformMass name="mass" vertexMass="1"/>
</Node>
)";

std::string SceneWith(const std::string& include) {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + include +
         "\n</Node>\n";
}

TEST_F(Include, AGroupGivesItsContentsToTheIncludingNode) {
  Write("scenes/fragments/point.xml", kGroup);
  const Simulation simulation = Load(SceneWith(R"(<include href="fragments/point.xml"/>)"));
  EXPECT_THAT(Position(simulation, "root/dofs"), ElementsAre(1, 2, 3));
}

TEST_F(Include, MergeModeMergesNamedElementsAndAppendsTheRest) {
  // The fragment's root attributes land on the including node (gravity), its `dofs` object and
  // `sub` node merge into those already there (position replaced, velocity kept), and its
  // unnamed mass is appended. Free flight for one symplectic Euler step with h = 0.01.
  Write("scenes/fragments/merge.xml", R"(<Node name="whatever" gravity="0 0 0">
  <MechanicalObject name="dofs" position="1 2 3"/>
  <UniformMass vertexMass="1"/>
  <Node name="sub"><MechanicalObject name="sub_dofs" position="7 8 9"/><UniformMass name="m" vertexMass="2"/></Node>
</Node>
)");
  const Simulation simulation = Load(R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" position="0 0 0" velocity="100 0 0"/>
  <Node name="sub"><MechanicalObject name="sub_dofs" position="0 0 0"/><UniformMass name="m" vertexMass="1"/></Node>
  <include href="fragments/merge.xml" name="_Merge_"/>
</Node>
)");
  EXPECT_EQ(simulation.model().objects.size(), 2u);
  EXPECT_THAT(Position(simulation, "root/dofs"), ElementsAre(1, 2, 3));
  EXPECT_THAT(Position(simulation, "root/sub/sub_dofs"), ElementsAre(7, 8, 9));
  Simulation stepped = Load(R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" position="0 0 0" velocity="100 0 0"/>
  <include href="fragments/merge.xml" name="_Merge_"/>
</Node>
)");
  stepped.Step();
  EXPECT_THAT(Position(stepped, "root/dofs"), ElementsAre(2, 2, 3));  // x += h·100, no gravity
}

TEST_F(Include, AnotherRootNodeBecomesAChildNamedByTheInclude) {
  Write("scenes/body.xml", R"(<Node name="body">
  <MechanicalObject name="dofs" position="1 2 3"/>
  <UniformMass vertexMass="1"/>
</Node>)");
  const Simulation simulation =
      Load(SceneWith(R"(<include href="body.xml"/><include href="body.xml" name="twin"/>)"));
  EXPECT_THAT(Position(simulation, "root/body/dofs"), ElementsAre(1, 2, 3));
  EXPECT_THAT(Position(simulation, "root/twin/dofs"), ElementsAre(1, 2, 3));
}

TEST_F(Include, AttributesReplaceThoseTheFragmentAlreadySets) {
  Write("scenes/point.xml", kGroup);
  // "position" is set in the fragment: replaced. "velocity" is not: not added (SOFA).
  Simulation simulation =
      Load(SceneWith(R"(<include href="point.xml" position="4 5 6" velocity="1 1 1"/>)"));
  EXPECT_THAT(Position(simulation, "root/dofs"), ElementsAre(4, 5, 6));
  EXPECT_THAT(Position(simulation, "root/dofs").size(), 3u);
  simulation.Step();
  EXPECT_THAT(Position(simulation, "root/dofs"), ElementsAre(4, 5, 6));  // no velocity given

  // "NAME__attribute": only in the elements named NAME.
  const Simulation only =
      Load(SceneWith(R"(<include href="point.xml" mass__vertexMass="2" dofs__position="7 8 9"/>)"));
  EXPECT_THAT(Position(only, "root/dofs"), ElementsAre(7, 8, 9));
}

TEST_F(Include, NestedIncludesAreRelativeToTheIncludingFile) {
  Write("scenes/parts/outer.xml", R"(<Node name="Group">
  <include href="inner.xml"/>
</Node>)");
  Write("scenes/parts/inner.xml", kGroup);
  const Simulation simulation = Load(SceneWith(R"(<include href="parts/outer.xml"/>)"));
  EXPECT_THAT(Position(simulation, "root/dofs"), ElementsAre(1, 2, 3));
}

TEST_F(Include, ErrorsNameTheFragmentAndItsLine) {
  Write("scenes/bad.xml", R"(<Node name="Group">
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="heavy"/>
</Node>)");
  const std::vector<std::string> errors = Errors(SceneWith(R"(<include href="bad.xml"/>)"));
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("scenes/bad.xml:3: "));
  EXPECT_THAT(errors[0], HasSubstr("vertexMass"));
}

// A scene with two root elements is refused; a fragment with two is too, at the second root's
// line in the fragment, instead of losing it unread (issue #25, item 17).
TEST_F(Include, AFragmentWithTwoRootElementsIsRefusedAtTheSecond) {
  Write("scenes/two_roots.xml", std::string(kGroup) + R"(<Node name="lost">
  <MechanicalObject position="4 5 6"/>
</Node>
)");
  const std::vector<std::string> errors = Errors(SceneWith(R"(<include href="two_roots.xml"/>)"));
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("scenes/two_roots.xml:5: a second root element <Node> after "
                                   "the <Node> root (expected one root element)"));
}

TEST_F(Include, FilesOutsideTheAllowedFoldersMissingFilesAndCyclesAreRefused) {
  Write("outside.xml", kGroup);
  std::vector<std::string> errors = Errors(SceneWith(R"(<include href="../outside.xml"/>)"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], HasSubstr("scene.scn:3: <include>: '../outside.xml' leads to "));
  EXPECT_THAT(errors[0], HasSubstr("outside the folders a scene may read"));

  errors = Errors(SceneWith(R"(<include href="nothing.xml"/>)"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], HasSubstr("'nothing.xml' was not found (searched "));

  Write("scenes/loop.xml", R"(<Node name="Group"><include href="loop.xml"/></Node>)");
  errors = Errors(SceneWith(R"(<include href="loop.xml"/>)"));
  ASSERT_FALSE(errors.empty());
  EXPECT_THAT(errors[0], HasSubstr("more than 30 included files"));

  errors = Errors(SceneWith(R"(<include/>)"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], HasSubstr("<include> without 'href'"));
}

}  // namespace
}  // namespace fluxion
