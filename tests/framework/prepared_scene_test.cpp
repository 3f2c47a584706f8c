// Host::Prepare + PreparedScene::Instantiate (build once, run many): an instance with changed data
// is the simulation of the XML with those values written in, bit for bit, and a bad value is
// refused with the error the XML would give, at the same FILE:LINE.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

// A small cloth: an unnamed spring field (addressed by its type, as trajectory ids name unnamed
// objects), a named mass, a load through an aliased field (LinearForceField's `indices` is an
// alias of `points`). One element per line, so that the edited XML keeps every line number.
const std::string kScene = R"(<Node name="root" gravity="0 -9.81 0" dt="1e-3">
  <EulerExplicitSolver/>
  <Node name="cloth">
    <RegularGridTopology n="4 1 4" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass name="mass" totalMass="1"/>
    <FixedProjectiveConstraint indices="0 3"/>
    <MeshSpringForceField linesStiffness="100" linesDamping="0.5"/>
    <LinearForceField indices="5" times="0 1" forces="0 0 0  0 2 0"/>
  </Node>
</Node>
)";

// kScene with `from` replaced by `to` (once: each is unique in kScene).
std::string Edited(const std::string& from, const std::string& to,
                   const std::string& scene = kScene) {
  std::string text = scene;
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

// Positions and velocities of every object after `steps` steps.
std::vector<Vector> StateAfter(Simulation simulation, int steps) {
  simulation.Run(steps);
  std::vector<Vector> state;
  for (int k = 0; k < static_cast<int>(simulation.objects().size()); ++k) {
    state.emplace_back(simulation.position(k));
    state.emplace_back(simulation.velocity(k));
  }
  return state;
}

// The diagnostics of the SceneError `load` throws, one formatted line each.
template <class Load>
std::vector<std::string> ErrorsOf(const Load& load) {
  try {
    load();
  } catch (const SceneError& error) {
    std::vector<std::string> lines;
    for (const SceneDiagnostic& diagnostic : error.diagnostics())
      lines.push_back(diagnostic.Format());
    return lines;
  }
  ADD_FAILURE() << "no SceneError";
  return {};
}

constexpr int kSteps = 40;

TEST(PreparedScene, OverridesEqualTheXmlWithTheValuesWrittenIn) {
  const PreparedScene prepared = testing::TestHost().PrepareString(kScene, "cloth.scn");
  // Several kinds of data at once: a component addressed by its type, one by its name, the
  // root node's own data, and dt.
  const std::vector<DataOverride> overrides = {
      {"root/cloth/MeshSpringForceField.linesStiffness", "250"},
      {"root/cloth/mass.totalMass", "1.5"},
      {"root.gravity", "0 -3 0"},
      {"dt", "5e-4"}};
  std::string xml = Edited(R"(linesStiffness="100")", R"(linesStiffness="250")");
  xml = Edited(R"(totalMass="1")", R"(totalMass="1.5")", xml);
  xml = Edited(R"(gravity="0 -9.81 0")", R"(gravity="0 -3 0")", xml);
  xml = Edited(R"(dt="1e-3")", R"(dt="5e-4")", xml);
  EXPECT_EQ(prepared.Instantiate(overrides).dt(), 5e-4);
  EXPECT_EQ(StateAfter(prepared.Instantiate(overrides), kSteps),
            StateAfter(testing::TestHost().LoadString(xml, "cloth.scn"), kSteps));
  // The changes are real: the instance is not the scene as written (guards against an override
  // that silently does nothing).
  EXPECT_NE(StateAfter(prepared.Instantiate(overrides), kSteps),
            StateAfter(prepared.Instantiate(), kSteps));
}

TEST(PreparedScene, InstancesAreIndependentOfEachOtherAndOfTheOrderMade) {
  const PreparedScene prepared = testing::TestHost().PrepareString(kScene, "cloth.scn");
  const std::vector<Vector> plain = StateAfter(prepared.Instantiate(), kSteps);
  (void)StateAfter(
      prepared.Instantiate({{"root/cloth/MeshSpringForceField.linesStiffness", "900"}}), kSteps);
  // The prepared scene is unchanged by an instance's overrides.
  EXPECT_EQ(StateAfter(prepared.Instantiate(), kSteps), plain);
  EXPECT_EQ(plain, StateAfter(testing::TestHost().LoadString(kScene, "cloth.scn"), kSteps));
}

TEST(PreparedScene, AnAliasedAttributeIsReplacedNotDuplicated) {
  const PreparedScene prepared = testing::TestHost().PrepareString(kScene, "cloth.scn");
  // `points` is the field the XML wrote as `indices`: the instance must act on point 9 only.
  const std::string xml = Edited(R"(indices="5")", R"(indices="9")");
  EXPECT_EQ(StateAfter(prepared.Instantiate({{"root/cloth/LinearForceField.points", "9"}}), kSteps),
            StateAfter(testing::TestHost().LoadString(xml, "cloth.scn"), kSteps));
}

TEST(PreparedScene, SolverChoiceEqualsLoadOptionsSolver) {
  const PreparedScene prepared = testing::TestHost().PrepareString(kScene, "cloth.scn");
  const SolverChoice rk4{"RungeKutta4Solver", {}};
  LoadOptions options;
  options.solver = rk4;
  EXPECT_EQ(StateAfter(prepared.Instantiate({}, rk4), kSteps),
            StateAfter(testing::TestHost().LoadString(kScene, "cloth.scn", options), kSteps));
}

TEST(PreparedScene, ABadValueGivesTheXmlsErrorAtTheSameLine) {
  const PreparedScene prepared = testing::TestHost().PrepareString(kScene, "cloth.scn");
  const std::vector<std::string> from_override = ErrorsOf([&] {
    return prepared.Instantiate({{"root/cloth/MeshSpringForceField.linesStiffness", "stiff"}});
  });
  const std::vector<std::string> from_xml = ErrorsOf([&] {
    return testing::TestHost().LoadString(
        Edited(R"(linesStiffness="100")", R"(linesStiffness="stiff")"), "cloth.scn");
  });
  ASSERT_EQ(from_override.size(), 1u);
  EXPECT_EQ(from_override, from_xml);
  EXPECT_EQ(from_override[0].rfind("cloth.scn:8: ", 0), 0u) << from_override[0];

  // Data the component does not declare (SOFA's UniformMass has `indices`, Fluxion's not): the
  // XML's "unknown attribute" error, at its line.
  const std::vector<std::string> unknown = ErrorsOf([&] {
    return prepared.Instantiate({{"root/cloth/mass.indices", "0"}});
  });
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_NE(unknown[0].find("unknown attribute 'indices'"), std::string::npos) << unknown[0];
  EXPECT_EQ(unknown, ErrorsOf([&] {
              return testing::TestHost().LoadString(
                  Edited(R"(totalMass="1")", R"(totalMass="1" indices="0")"), "cloth.scn");
            }));
}

TEST(PreparedScene, APathNamingNothingIsRefusedWithWhatExists) {
  const PreparedScene prepared = testing::TestHost().PrepareString(kScene, "cloth.scn");
  const std::vector<std::string> errors = ErrorsOf([&] {
    return prepared.Instantiate({{"root/cloth/springs.linesStiffness", "1"},
                                 {"root/rope/dofs.position", "0 0 0"},
                                 {"linesStiffness", "1"},
                                 {"world/cloth/mass.totalMass", "1"}});
  });
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[0],
            "cloth.scn: override root/cloth/springs.linesStiffness: no component or node "
            "'springs' in node 'root/cloth' (expected one of its components: "
            "RegularGridTopology, dofs, mass, FixedProjectiveConstraint, MeshSpringForceField, "
            "LinearForceField; or of its child nodes: none)");
  EXPECT_NE(errors[1].find("no component or node 'rope' in node 'root'"), std::string::npos)
      << errors[1];
  EXPECT_NE(errors[2].find("is not a data path (expected node/path/object.data"), std::string::npos)
      << errors[2];
  EXPECT_NE(errors[3].find("no node 'world' (expected a path from the root node 'root')"),
            std::string::npos)
      << errors[3];
}

TEST(PreparedScene, PrepareReportsTheScenesOwnProblems) {
  const std::vector<std::string> errors = ErrorsOf([&] {
    return testing::TestHost().PrepareString(Edited(R"(totalMass="1")", R"(totalMass="-1")"),
                                             "cloth.scn");
  });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("cloth.scn:6: ", 0), 0u) << errors[0];
}

}  // namespace
}  // namespace fluxion
