// SOFA's link paths for objects: "@name", "@child/name", "@../sibling", "@/absolute/path",
// resolved from the component's node.
// Also links that can only name a node ("@../"), for the components that take a node's topology.
#include <algorithm>

#include "build/component_build_context.h"
#include "core/text_parsing.h"

namespace fluxion::internal {

namespace {

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    if (end > start) segments.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return segments;
}

}  // namespace

int ResolveObjectLink(BuildState& state, const Node& node, const std::string& type,
                      const std::string& field, const std::string& text, int line) {
  Problems& problems = state.problems;
  if (text.empty()) {
    // The node's object, else the nearest ancestor's (SOFA's Node::getMechanicalState).
    for (const Node* current = &node; current != nullptr; current = current->parent)
      if (current->object >= 0) return current->object;
    problems.Scene(line, "<" + type + "> needs a MechanicalObject in node '" + node.path +
                             "' or above it (or '" + field + "' pointing to one)");
    return -1;
  }
  if (text.front() != '@') {
    problems.Scene(line, "'" + field + "' is '" + text + "' (expected a link starting with '@')");
    return -1;
  }
  std::string path = text.substr(1);
  const Node* current = &node;
  // SOFA's Node::findLinkDestClass: a path is "based" once it is absolute or has passed a
  // segment; until then a name found neither as a child node nor as the object of the current
  // node is looked for in the ancestors (SOFA's PlaneForceField.scn maps onto "@Collis" from
  // inside node Collis: found as the child Collis of the parent).
  bool based = false;
  if (!path.empty() && path.front() == '/') {
    current = state.root.get();
    path.erase(0, 1);
    based = true;
  }
  const auto object_name = [&](const Node& n) -> const std::string& {
    return state.objects[static_cast<std::size_t>(n.object)].name;
  };
  std::vector<std::string> segments;
  for (std::string_view segment : SplitPath(path)) segments.emplace_back(segment);
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    const bool last = i + 1 == segments.size();
    if (segment == ".") {
      based = true;
      continue;
    }
    if (segment == "..") {
      if (current->parent == nullptr) {
        problems.Scene(line, "link '" + text + "' goes above the root node");
        return -1;
      }
      current = current->parent;
      based = true;
      continue;
    }
    const Node* searched = current;
    const Node* child = nullptr;
    while (true) {
      child = searched->Child(segment);
      if (child != nullptr) break;
      if (last && searched->object >= 0 && object_name(*searched) == segment)
        return searched->object;
      if (based || searched->parent == nullptr) break;
      searched = searched->parent;
    }
    if (child == nullptr) {
      // What is there, the first few only: a node may have any number of children.
      constexpr std::size_t kShownNames = 10;
      std::string available;
      if (current->object >= 0) available += " " + object_name(*current);
      for (std::size_t k = 0; k < current->children.size() && k < kShownNames; ++k)
        available += " " + current->children[k]->description->name;
      if (current->children.size() > kShownNames) available += " …";
      problems.Scene(line, "link '" + text + "' does not resolve: no node or object '" + segment +
                               "' in '" + current->path + "'" + (based ? "" : " or above") +
                               " (found:" + (available.empty() ? " nothing" : available) + ")");
      return -1;
    }
    current = child;
    based = true;
  }
  if (current->object < 0) {
    problems.Scene(line, "link '" + text + "' names node '" + current->path +
                             "', which has no MechanicalObject (expected a node or object with "
                             "DOFs)");
    return -1;
  }
  return current->object;
}

Node* ResolveNodeLink(Node& root, Node& from, std::string_view text, std::string& why) {
  std::string_view path = text;
  while (!path.empty() && (path.front() == ' ' || path.front() == '@')) path.remove_prefix(1);
  while (!path.empty() && path.back() == ' ') path.remove_suffix(1);
  const bool names_node = !path.empty() && (path.back() == '/' || path == "." || path == ".." ||
                                            path.ends_with("/.") || path.ends_with("/.."));
  if (!names_node) return nullptr;
  Node* current = &from;
  if (path.front() == '/') current = &root;
  std::size_t start = 0;
  while (start < path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string segment(path.substr(start, end - start));
    start = end + 1;
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (current->parent == nullptr) {
        why = "goes above the root node";
        return nullptr;
      }
      current = current->parent;
      continue;
    }
    Node* child = current->Child(segment);
    if (child == nullptr) {
      why = "does not resolve: no node '" + Shown(segment) + "' in '" + current->path + "'";
      return nullptr;
    }
    current = child;
  }
  return current;
}

}  // namespace fluxion::internal
