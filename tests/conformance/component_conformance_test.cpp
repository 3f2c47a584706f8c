// Conformance of every registered component, of every kind (built-ins, bundled plugins and any on
// FLUXION_PLUGIN_PATH): its declaration documents itself (a summary, a help text for every field:
// scene-runner --list-components and docs/scene-format.md print them), and an attribute it does
// not declare is refused, by the parameter parser (ConfigError) and in a scene (SceneError naming
// the attribute at the component's line) — unless SOFA's component of that name lacks it too:
// then the scene loader follows SOFA's rule, a warning (build/read_pass.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "conformance/conformance_scenes.h"
#include "conformance/solver_catalog.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "fluxion/parameters.h"
#include "registry/sofa_fields.h"
#include "support/test_support.h"

namespace fluxion::conformance {
namespace {

// An attribute no component declares, and not one the scene loader skips as a display or
// bookkeeping option (show*, draw*, _*, NO*, printLog, …).
constexpr const char* kUnknownAttribute = "conformanceUnknownAttribute";

struct ComponentCase {
  ComponentSpec spec;
};

void PrintTo(const ComponentCase& component, std::ostream* out) { *out << component.spec.name; }

std::string TestName(const ::testing::TestParamInfo<ComponentCase>& info) {
  std::string name;
  for (char ch : info.param.spec.name)
    name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

std::vector<ComponentCase> AllComponents() {
  std::vector<ComponentCase> components;
  for (ComponentSpec& spec : AllComponentSpecs()) components.push_back({std::move(spec)});
  return components;
}

// A scene every component kind can be put in, valid as it stands: an ODE solver (the first
// registered one that can be created) with a linear solver at the root, and a node with one
// point of 1 kg. `component` replaces the element of its own kind (solver, linear solver, state,
// mass) or joins the node (force fields, constraints, topologies, loaders).
std::string HostScene(ComponentKind kind, const std::string& component) {
  std::string host_solver;
  for (const SolverDescription& solver : AllSolvers())
    if (solver.problem.empty() && host_solver.empty()) host_solver = "<" + solver.name + "/>";
  const auto own = [&](ComponentKind k, const std::string& host) {
    return kind == k ? component : host;
  };
  const bool joins = kind != ComponentKind::kOdeSolver && kind != ComponentKind::kLinearSolver &&
                     kind != ComponentKind::kState && kind != ComponentKind::kMass;
  return Fill(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  {solver}
  {linear}
  <Node name="body">
    {state}
    {mass}
    {other}
  </Node>
</Node>)",
              {{"solver", own(ComponentKind::kOdeSolver, host_solver)},
               {"linear", own(ComponentKind::kLinearSolver, "<SparseLDLSolver/>")},
               {"state", own(ComponentKind::kState, "<MechanicalObject template=\"Vec3d\"/>")},
               {"mass", own(ComponentKind::kMass, R"(<UniformMass vertexMass="1"/>)")},
               {"other", joins ? component : ""}});
}

class ComponentConformance : public testing::QuietTest,
                             public ::testing::WithParamInterface<ComponentCase> {};

TEST_P(ComponentConformance, DocumentsEveryField) {
  const ComponentSpec& spec = GetParam().spec;
  EXPECT_FALSE(spec.summary.empty()) << spec.name << " has no summary";
  for (const FieldSpec& field : spec.fields)
    EXPECT_FALSE(field.help.empty()) << spec.name << " '" << field.name << "' has no help text";
}

TEST_P(ComponentConformance, ParametersRefuseAnUnknownAttribute) {
  const ComponentSpec& spec = GetParam().spec;
  try {
    (void)ParseParameters(spec, {{kUnknownAttribute, "1"}});
    ADD_FAILURE() << spec.name << " accepted '" << kUnknownAttribute << "'";
  } catch (const ConfigError& error) {
    EXPECT_EQ(error.field(), kUnknownAttribute) << spec.name << ": " << error.what();
    EXPECT_NE(std::string(error.what()).find(kUnknownAttribute), std::string::npos)
        << spec.name << ": " << error.what();
  }
}

// The diagnostics of loading `scene` (none when it loads), as formatted.
std::vector<std::string> Diagnostics(const std::string& scene) {
  try {
    (void)LoadScene(scene);
  } catch (const SceneError& error) {
    std::vector<std::string> messages;
    for (const SceneDiagnostic& diagnostic : error.diagnostics())
      messages.push_back(diagnostic.Format());
    return messages;
  }
  return {};
}

TEST_P(ComponentConformance, SceneRefusesAnUnknownAttribute) {
  const ComponentSpec& spec = GetParam().spec;
  if (spec.kind == ComponentKind::kIgnored)
    GTEST_SKIP() << spec.name << " is a visual-only component: the loader ignores it wholesale, "
                 << "attributes included (README: visual components are accepted and ignored)";
  const std::string scene =
      HostScene(spec.kind, "<" + spec.name + " " + kUnknownAttribute + "=\"1\"/>");
  if (internal::SofaIgnoresAttribute(spec.name, kUnknownAttribute)) {
    // SOFA's component of that name has no such attribute either (registry/sofa_fields.inc): SOFA's
    // rule, a warning and nothing else. The scene gives what it gives without the attribute
    // (the host scene may not suit the component), with one warning more.
    const std::vector<std::string> without =
        Diagnostics(HostScene(spec.kind, "<" + spec.name + "/>"));
    const int warnings_without = WarningCount();
    EXPECT_EQ(Diagnostics(scene), without) << spec.name;
    EXPECT_EQ(WarningCount(), 2 * warnings_without + 1) << spec.name;
    ExpectWarnings(WarningCount());
    return;
  }
  const int line = 1 + static_cast<int>(std::count(
                           scene.begin(), scene.begin() + scene.find(kUnknownAttribute), '\n'));
  try {
    (void)LoadScene(scene);
    ADD_FAILURE() << spec.name << ": the scene loaded with '" << kUnknownAttribute << "'";
  } catch (const SceneError& error) {
    // Attributes are parsed in the loader's first pass, which reports every problem it finds
    // before building anything: the unknown attribute must be the only one, at its line.
    ASSERT_EQ(error.diagnostics().size(), 1u) << spec.name << ": " << error.what();
    const SceneDiagnostic& diagnostic = error.diagnostics()[0];
    EXPECT_NE(diagnostic.message.find(std::string("'") + kUnknownAttribute + "'"),
              std::string::npos)
        << spec.name << ": " << diagnostic.Format();
    EXPECT_EQ(diagnostic.line, line) << spec.name << ": " << diagnostic.Format();
  }
}

INSTANTIATE_TEST_SUITE_P(Registered, ComponentConformance, ::testing::ValuesIn(AllComponents()),
                         TestName);

// The harness itself: the host scene loads, quietly, with nothing added.
class ComponentConformanceHost : public testing::QuietTest {};

TEST_F(ComponentConformanceHost, HostSceneLoads) {
  ASSERT_FALSE(AllSolvers().empty()) << "no ODE solver is registered";
  EXPECT_NO_THROW((void)LoadScene(HostScene(ComponentKind::kForceField, "")));
}

}  // namespace
}  // namespace fluxion::conformance
