#include "build/build_state.h"

namespace fluxion::internal {

void Problems::ThrowIfAny() const {
  if (!plugin_.empty()) {
    std::string text;
    for (const SceneDiagnostic& d : plugin_) text += (text.empty() ? "" : "\n") + d.Format();
    for (const SceneDiagnostic& d : scene_) text += "\n" + d.Format();
    throw PluginError(text);
  }
  if (!scene_.empty()) throw SceneError(scene_);
}

std::string BuildState::SearchPathText() const {
  if (plugins == nullptr) return " (no plugin search path)";
  std::string text = " (searched:";
  if (plugins->directories().empty()) text += " no folder";
  for (const auto& [directory, source] : plugins->directories()) text += " " + directory.string();
  text += ")";
  for (const PluginRecord& record : plugins->records())
    if (!record.loaded) text += "; note: " + record.path + " was refused: " + record.error;
  return text;
}

}  // namespace fluxion::internal
