#include "components/required_plugin.h"

#include "core/text_parsing.h"

namespace fluxion::internal {

ComponentSpec RequiredPluginComponent::Spec() {
  return ComponentSpec{
      .name = "RequiredPlugin",
      .kind = ComponentKind::kLoader,
      .summary =
          "Requires plugins by name: Fluxion plugins from the search path; SOFA module names "
          "(Sofa.*) are accepted when the scene's components are available",
      .fields = {FieldSpec::Text("pluginName", "", "plugin names, separated by spaces"),
                 FieldSpec::Bool("stopAfterFirstNameFound", false, "SOFA option, ignored"),
                 FieldSpec::Bool("stopAfterFirstSuffixFound", true, "SOFA option, ignored"),
                 FieldSpec::Bool("requireOne", false, "SOFA option, ignored"),
                 FieldSpec::Bool("requireAll", true, "SOFA option, ignored"),
                 FieldSpec::Text("suffixMap", "", "SOFA option, ignored")},
      .aliases = {}};
}

void RequiredPluginComponent::Build(BuildContext& context) {
  std::string names = context.parameters().text("pluginName");
  // SOFA: without pluginName, the component's name is the plugin's.
  if (names.empty()) names = context.name() == "RequiredPlugin" ? "" : context.name();
  if (names.empty()) {
    context.Error("RequiredPlugin without 'pluginName' (expected the plugin's name)");
    return;
  }
  for (const std::string_view word : SplitWords(names)) {
    const std::string name(word);
    if (name.find('/') != std::string::npos || name.find('\\') != std::string::npos ||
        name.find("..") != std::string::npos) {
      context.Error("RequiredPlugin '" + name +
                    "' is a path (expected a plain plugin name, resolved on the plugin "
                    "search path only)");
      continue;
    }
    // SOFA module names, and SOFA plugins whose components Fluxion implements under aliases
    // (MultiThreading's ParallelMeshSpringForceField, ParallelSpringForceField and
    // ParallelCGLinearSolver compute what their sequential twins compute): accepted; the
    // components they would provide are checked one by one.
    if (name.rfind("Sofa", 0) == 0 || name == "MultiThreading") continue;
    context.RequirePlugin(name);
  }
}

}  // namespace fluxion::internal
