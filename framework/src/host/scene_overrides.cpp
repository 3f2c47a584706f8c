#include "host/scene_overrides.h"

#include <string>
#include <string_view>

#include "build/node_spec.h"
#include "fluxion/errors.h"
#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

// Names as the build gives them (read_pass.cpp): an unnamed root is "root", an unnamed child
// node "Node", an unnamed component its type's registered name (the trajectory's column ids).
std::string NodeName(const NodeDescription& node, bool root) {
  if (!node.name.empty()) return node.name;
  return root ? "root" : "Node";
}

std::string ComponentName(const ElementDescription& element, const ComponentRegistry& registry) {
  if (const AttributeText* name = element.Find("name")) return name->value;
  const ComponentEntry* entry = registry.Find(element.type);
  return entry != nullptr ? entry->spec.name : element.type;
}

// Sets attribute `data` of `attributes` to `value`. An attribute naming the same field of
// `spec` (through an alias) is the one replaced; without one, it is added at `line`.
void SetAttribute(std::vector<AttributeText>& attributes, const ComponentSpec* spec,
                  const std::string& data, const std::string& value, int line) {
  const FieldSpec* field = spec != nullptr ? spec->FindField(data) : nullptr;
  for (AttributeText& attribute : attributes) {
    const bool same =
        attribute.name == data || (field != nullptr && spec->FindField(attribute.name) == field);
    if (!same) continue;
    attribute.value = value;
    return;
  }
  attributes.push_back(AttributeText{data, value, line});
}

// One override; the problem's text ("what is wrong (what was expected)"), empty when applied.
std::string Apply(SceneDescription& scene, const DataOverride& change,
                  const ComponentRegistry& registry) {
  static const ComponentSpec kNodeSpec = NodeSpec();
  if (change.path == "dt") {
    SetAttribute(scene.root.attributes, &kNodeSpec, "dt", change.value, scene.root.line);
    return {};
  }
  const std::size_t dot = change.path.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == change.path.size())
    return "is not a data path (expected node/path/object.data, e.g. "
           "root/cloth/springs.linesStiffness, or dt)";
  const std::string data = change.path.substr(dot + 1);
  const std::string_view target = std::string_view(change.path).substr(0, dot);

  // Walk the nodes the path's segments name; what is left is a component's name.
  std::vector<std::string> segments;
  for (std::size_t start = 0;;) {
    const std::size_t slash = target.find('/', start);
    segments.emplace_back(target.substr(start, slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (segments.front() != NodeName(scene.root, true))
    return "no node '" + Shown(segments.front()) + "' (expected a path from the root node '" +
           NodeName(scene.root, true) + "')";
  NodeDescription* node = &scene.root;
  std::string node_path = segments.front();
  std::size_t k = 1;
  for (; k < segments.size(); ++k) {
    NodeDescription* child = nullptr;
    for (NodeDescription& candidate : node->children)
      if (NodeName(candidate, false) == segments[k]) child = &candidate;
    if (child == nullptr) break;
    node = child;
    node_path += "/" + segments[k];
  }
  if (k == segments.size()) {  // a node's own data ("root.gravity")
    SetAttribute(node->attributes, &kNodeSpec, data, change.value, node->line);
    return {};
  }

  // The component: named segments[k] in `node`, and nothing may follow it.
  std::vector<ElementDescription*> matches;
  std::string names;
  for (ElementDescription& element : node->components) {
    const std::string name = ComponentName(element, registry);
    if (name == segments[k]) matches.push_back(&element);
    names += (names.empty() ? "" : ", ") + name;
  }
  if (matches.empty() || k + 1 != segments.size()) {
    std::string children;
    for (const NodeDescription& child : node->children)
      children += (children.empty() ? "" : ", ") + NodeName(child, false);
    return "no component or node '" + Shown(segments[k]) + "' in node '" + node_path +
           "' (expected one of its components: " + (names.empty() ? "none" : names) +
           "; or of its child nodes: " + (children.empty() ? "none" : children) + ")";
  }
  if (matches.size() > 1)
    return "names " + std::to_string(matches.size()) + " components of node '" + node_path +
           "' (expected one: give them distinct name attributes)";
  ElementDescription& element = *matches.front();
  const ComponentEntry* entry = registry.Find(element.type);
  SetAttribute(element.attributes, entry != nullptr ? &entry->spec : nullptr, data, change.value,
               element.line);
  return {};
}

}  // namespace

void ApplyOverrides(SceneDescription& scene, const std::vector<DataOverride>& overrides,
                    const ComponentRegistry& registry) {
  std::vector<SceneDiagnostic> problems;
  for (const DataOverride& change : overrides) {
    const std::string problem = Apply(scene, change, registry);
    if (!problem.empty())
      problems.push_back({scene.file, 0, "override " + Shown(change.path) + ": " + problem});
  }
  if (!problems.empty()) throw SceneError(std::move(problems));
}

}  // namespace fluxion::internal
