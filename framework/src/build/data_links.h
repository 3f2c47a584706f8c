// Data flow between components, as SOFA's Data links: a field written "@path.data" takes the
// data `data` of the component at `path`, and src="@path" takes every data the component at
// `path` publishes whose name is one of the field names (except fields given in the scene).
// A linked component is built before the component that links to it, whatever their order in
// the document or their pass; a cycle of links is an error.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "build/build_state.h"
#include "core/parameter_parsing.h"

namespace fluxion::internal {

/// Moves the attributes of `attributes` whose value is a link to data ("@…" in a field that is
/// not itself a link field) out of the list, into the returned data links.
std::vector<DataLink> TakeDataLinks(const ComponentSpec& spec,
                                    std::vector<AttributeText>& attributes);

/// The component `text` ("@path" or "path", without a ".data" suffix) names, seen from `node`:
/// "name" is looked for in `node`, then in its ancestors (SOFA's search for unqualified names);
/// "a/b/name", "../name", "/root/a/name" are paths from `node` or the root. Reports against
/// `line` and returns {nullptr, nullptr} when nothing matches. "[-k]" (SOFA's index-based path,
/// simulation/Node.cpp getObject) names the k-th element written before `owner` in its node.
/// With `unresolved` given, a path that names no node or component is not reported: the
/// problem is written there instead (other problems are still reported).
std::pair<Node*, Component*> ResolveComponentLink(BuildState& state, Node& node,
                                                  const std::string& text, int line,
                                                  const Component* owner = nullptr,
                                                  std::string* unresolved = nullptr);

/// Builds `component` of `node` once: first the components its links name (recursively), then
/// its linked fields, then its build function. Refused links are reported, and the component
/// is then not built.
void BuildComponent(BuildState& state, Node& node, Component& component);

}  // namespace fluxion::internal
