#include "build/build_state.h"

namespace fluxion::internal {

Node* Node::Child(const std::string& name) const {
  const auto found = children_by_name_.find(name);
  return found == children_by_name_.end() ? nullptr : found->second;
}

Component* Node::FindComponent(const std::string& name) const {
  const auto found = components_by_name_.find(name);
  return found == components_by_name_.end() ? nullptr : found->second;
}

void Node::IndexNames() {
  children_by_name_.clear();
  components_by_name_.clear();
  // The last child of a name, the first component of a name: as the lookups this index replaced
  // (two children of one name are an error of the read pass anyway).
  for (const std::unique_ptr<Node>& child : children)
    children_by_name_[child->description->name.empty() ? "Node" : child->description->name] =
        child.get();
  for (Component& component : components) components_by_name_.emplace(component.name, &component);
}

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
