#include "build/data_links.h"

#include <algorithm>
#include <functional>
#include <new>
#include <optional>

#include "build/component_build_context.h"
#include "build/empty_element_fields.h"
#include "build/memory_charges.h"
#include "core/text_parsing.h"
#include "fluxion/log.h"
#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

std::string Trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// A data value as scene text, so that it is parsed (and checked) like a value written in the
// scene by the field that takes it.
std::string AsText(const FieldValue& value) {
  struct Formatter {
    std::string operator()(bool b) const { return b ? "1" : "0"; }
    std::string operator()(long n) const { return std::to_string(n); }
    std::string operator()(double x) const { return FormatReal(x); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<double>& list) const {
      std::string text;
      for (const double x : list) {
        if (!text.empty()) text += ' ';
        text += FormatReal(x);
      }
      return text;
    }
    std::string operator()(const std::vector<Index>& list) const {
      std::string text;
      for (const Index i : list) {
        if (!text.empty()) text += ' ';
        text += std::to_string(i);
      }
      return text;
    }
  };
  return std::visit(Formatter{}, value);
}

// Splits "@path.data" at the last '.' that follows the last '/' and is not part of "." or "..".
std::pair<std::string, std::string> SplitDataLink(const std::string& text) {
  const std::string path = text.substr(1);
  const std::size_t slash = path.rfind('/');
  const std::size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {path, ""};
  const std::string last = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (last == "." || last == "..") return {path, ""};
  return {path.substr(0, dot), path.substr(dot + 1)};
}

// SOFA's "[-k]": the element written k places before `owner` in its node, visual and ignored
// elements counted as SOFA counts them; "[0]" (or a positive index, as in SOFA) is the owner.
std::pair<Node*, Component*> ResolveIndexLink(BuildState& state, Node& node,
                                              const std::string& text, int line,
                                              const Component* owner) {
  const auto fail = [&](const std::string& why) -> std::pair<Node*, Component*> {
    state.problems.Scene(line, "link '" + Shown(text) + "' " + why);
    return {nullptr, nullptr};
  };
  std::string path = Trimmed(text);
  if (path.front() == '@') path.erase(0, 1);
  const std::optional<long> index = ParseInteger(path.substr(1, path.size() - 2), nullptr);
  if (!index) return fail("has no index between its brackets (expected e.g. @[-1])");
  // The owner's place among the node's elements, from its address (they are one vector), and
  // the target's component by binary search (components are in element order): constant and
  // logarithmic time, whatever the number of components in the node.
  const auto& elements = node.description->components;
  const std::less<const ElementDescription*> before;
  if (owner == nullptr || before(owner->element, elements.data()) ||
      !before(owner->element, elements.data() + elements.size()))
    return fail("is an index-based path where none can be used");
  const long position = (owner->element - elements.data()) + std::min(*index, 0L);
  if (position < 0)
    return fail("goes before the first component of node '" + node.path +
                "' (expected an index of an earlier component)");
  const ElementDescription& target = elements[static_cast<std::size_t>(position)];
  const auto found =
      std::lower_bound(node.components.begin(), node.components.end(), &target,
                       [&](const Component& component, const ElementDescription* element) {
                         return before(component.element, element);
                       });
  if (found != node.components.end() && found->element == &target) return {&node, &*found};
  return fail("names <" + Shown(target.type) +
              ">, a component Fluxion ignores (expected a component with data)");
}

// The text of data `data` of `source`: published, else a field of its own with a value. A field's
// alias names the same data (SOFA's MeshTopology publishes its points as `position`, also read
// as `@topology.points`).
std::optional<std::string> DataText(const BuildState& state, const Component& source,
                                    const std::string& data) {
  const FieldSpec* field = source.entry->spec.FindField(data);
  if (const auto found = state.outputs.find(&source); found != state.outputs.end()) {
    for (const std::string& name : {data, field != nullptr ? field->name : data})
      if (const auto value = found->second.find(name); value != found->second.end())
        return AsText(value->second.value());
  }
  if (field != nullptr && field->type != FieldType::kLink &&
      source.parameters.has_value(field->name))
    return source.parameters.source_text(field->name);
  return std::nullopt;
}

std::string DataNames(const BuildState& state, const Component& source) {
  std::vector<std::string> names;
  if (const auto found = state.outputs.find(&source); found != state.outputs.end())
    for (const auto& [name, value] : found->second) names.push_back(name);
  for (const FieldSpec& field : source.entry->spec.fields)
    if (field.type != FieldType::kLink && source.parameters.has_value(field.name))
      names.push_back(field.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

// Sets `field` of `component` from `text` (the value of the linked data), as if written there.
bool SetLinked(BuildState& state, Component& component, const FieldSpec& field,
               const std::string& text, const std::string& link, int line) {
  FieldValue value;
  const std::string problem = ParseFieldValue(field, text, value);
  if (!problem.empty()) {
    state.problems.Scene(line, component.entry->spec.name + " '" + field.name + "' = '" +
                                   Shown(link) + "': " + problem);
    return false;
  }
  // Each reader keeps its own copy: counted, so that one large object read by many engines
  // stays within the memory budget.
  ChargeData(state, HeldBytes(value), line,
             "link '" + Shown(link) + "' into <" + component.element->type + "> '" +
                 Shown(component.name) + "'");
  component.parameters.Set(field.name, std::move(value), link, true);
  return true;
}

// A data link to nothing that SOFA ignores and Fluxion follows it in: BoxROI's `position`. SOFA's
// BaseData::setParent (Sofa/framework/Core/src/sofa/core/objectmodel/BaseData.cpp) records the
// path of a parent it cannot find and marks the data set, so that BaseROI::init
// (Sofa/Component/Engine/Select/.../BaseROI.inl) takes no positions from the context and
// BaseROI::doUpdate, finding none, warns and selects nothing. SOFA's
// TriangularForceFieldTopologyChangeHandling.scn and TriangularForceFieldComparison.scn link
// `position="@../Volume.position"` to a node that does not exist. Any other link to nothing
// stays a load error: there SOFA's component would run on a default the author did not mean.
bool EmptyWhenUnresolved(const Component& component, const std::string& field) {
  return component.entry->spec.name == "BoxROI" && field == "position";
}

// How many components may wait for the ones they link to (BuildComponent recursion).
constexpr std::size_t kMaxLinkDepth = 256;

// Makes sure `source` is built before its data is read; false (reported) for a cycle or a chain
// too deep.
bool EnsureBuilt(BuildState& state, Node& source_node, Component& source, const std::string& link,
                 int line) {
  // Only components that make data are built ahead of their pass (a mass or a force field needs
  // the systems laid out first); the others' data are their fields as given. An ignored component
  // that was read at all is a source of data (a visual model's geometry): built only here.
  const ComponentKind kind = source.kind();
  if (kind != ComponentKind::kEngine && kind != ComponentKind::kTopology &&
      kind != ComponentKind::kState && kind != ComponentKind::kContext &&
      kind != ComponentKind::kIgnored)
    return true;
  if (state.building.count(&source) != 0) {
    state.problems.Scene(line, "link '" + Shown(link) +
                                   "' closes a cycle of links (expected each component to take "
                                   "its data from components that do not depend on it)");
    return false;
  }
  // Each component built ahead of its turn is a level of recursion: a hostile chain of links
  // written backwards must not exhaust the stack.
  if (state.building.size() >= kMaxLinkDepth) {
    state.problems.Scene(line, "link '" + Shown(link) + "' makes a chain of more than " +
                                   std::to_string(kMaxLinkDepth) +
                                   " components, each linking to the next, built ahead of their "
                                   "turn (expected a shorter chain, or the chain in document "
                                   "order)");
    return false;
  }
  BuildComponent(state, source_node, source);
  return true;
}

bool ResolveLinks(BuildState& state, Node& node, Component& component) {
  bool ok = true;
  for (const DataLink& link : component.data_links) {
    const auto [path, data] = SplitDataLink(link.text);
    if (data.empty()) {
      state.problems.Scene(link.line, "'" + link.field + "' is '" + Shown(link.text) +
                                          "' (expected a value, or a link to data: @path.data)");
      ok = false;
      continue;
    }
    std::string unresolved;
    const bool may_be_unresolved = EmptyWhenUnresolved(component, link.field);
    const auto [source_node, source] = ResolveComponentLink(
        state, node, "@" + path, link.line, &component, may_be_unresolved ? &unresolved : nullptr);
    if (source == nullptr && !unresolved.empty()) {
      // SOFA's BaseData::setParent keeps the path of a parent not found and marks the data set:
      // its value stays the default (empty), with SOFA's warning at init.
      LogWarn(state.problems.Where(link.line) + ": " + unresolved + ": ignored, as SOFA does: <" +
              component.element->type + "> '" + link.field + "' stays empty");
      ok = SetLinked(state, component, *component.entry->spec.FindField(link.field), "", link.text,
                     link.line) &&
           ok;
      continue;
    }
    if (source == nullptr || !EnsureBuilt(state, *source_node, *source, link.text, link.line)) {
      ok = false;
      continue;
    }
    const std::optional<std::string> text = DataText(state, *source, data);
    if (!text && (!source->valid || state.failed.count(source) != 0)) {
      ok = false;  // the source's own error says why it published nothing
      continue;
    }
    if (!text) {
      state.problems.Scene(link.line, "link '" + Shown(link.text) + "': <" + source->element->type +
                                          "> '" + source->name + "' has no data '" + Shown(data) +
                                          "' (it has: " + DataNames(state, *source) + ")");
      ok = false;
      continue;
    }
    const FieldSpec& field = *component.entry->spec.FindField(link.field);
    ok = SetLinked(state, component, field, *text, link.text, link.line) && ok;
  }

  // src="@loader": every data the source publishes that names one of this component's fields,
  // except fields the scene gives (SOFA's BaseComponent::setSrc).
  const ComponentSpec& spec = component.entry->spec;
  const FieldSpec* src = spec.FindField("src");
  if (src == nullptr || src->type != FieldType::kLink || !component.parameters.has("src") ||
      Trimmed(component.parameters.text("src")).empty())
    return ok;
  const std::string link = Trimmed(component.parameters.text("src"));
  const int line = component.element->line;
  // src="@" alone names nothing: SOFA ignores it with a warning (BaseComponent::parse,
  // Sofa/framework/Core/src/sofa/core/objectmodel/BaseComponent.cpp); its examples/Objects/
  // *SetTopology.xml fragments write it.
  if (link == "@") {
    LogWarn(state.problems.Where(line) +
            ": src=\"@\" names nothing and does nothing (as in SOFA, "
            "which warns the same; expected src=\"@name\" to take a component's data)");
    return ok;
  }
  const auto [source_node, source] = ResolveComponentLink(state, node, link, line, &component);
  if (source == nullptr || !EnsureBuilt(state, *source_node, *source, link, line)) return false;
  const auto published = state.outputs.find(source);
  if (published == state.outputs.end()) return ok;
  for (const FieldSpec& field : spec.fields) {
    if (field.type == FieldType::kLink || component.parameters.has(field.name)) continue;
    const auto value = published->second.find(field.name);
    if (value == published->second.end()) continue;
    ok = SetLinked(state, component, field, AsText(value->second.value()),
                   link + (link.front() == '@' ? "" : "@") + "." + field.name, line) &&
         ok;
  }
  return ok;
}

}  // namespace

std::vector<DataLink> TakeDataLinks(const ComponentSpec& spec,
                                    std::vector<AttributeText>& attributes) {
  std::vector<DataLink> links;
  std::erase_if(attributes, [&](const AttributeText& attribute) {
    const FieldSpec* field = spec.FindField(attribute.name);
    if (field == nullptr || field->type == FieldType::kLink) return false;
    const std::string value = Trimmed(attribute.value);
    if (value.empty() || value.front() != '@') return false;
    links.push_back(DataLink{field->name, value, attribute.line});
    return true;
  });
  return links;
}

std::pair<Node*, Component*> ResolveComponentLink(BuildState& state, Node& node,
                                                  const std::string& text, int line,
                                                  const Component* owner, std::string* unresolved) {
  std::string path = Trimmed(text);
  if (!path.empty() && path.front() == '@') path.erase(0, 1);
  const auto fail = [&](const std::string& why) -> std::pair<Node*, Component*> {
    state.problems.Scene(line, "link '" + Shown(text) + "' " + why);
    return {nullptr, nullptr};
  };
  // A path that names nothing: reported, or written to `unresolved`.
  const auto nothing = [&](const std::string& why) -> std::pair<Node*, Component*> {
    if (unresolved == nullptr) return fail(why);
    *unresolved = "link '" + Shown(text) + "' " + why;
    return {nullptr, nullptr};
  };
  if (path.empty()) return fail("names nothing (expected @name or @path/to/name)");
  if (path.front() == '[' && path.back() == ']')
    return ResolveIndexLink(state, node, text, line, owner);

  // An unqualified name: this node, then its ancestors.
  if (path.find('/') == std::string::npos && path != "." && path != "..") {
    for (Node* current = &node; current != nullptr; current = current->parent)
      if (Component* found = current->FindComponent(path)) return {current, found};
    return nothing("does not resolve: no component '" + Shown(path) + "' in '" + node.path +
                   "' or its ancestors (expected the name of a component)");
  }
  Node* current = &node;
  if (path.front() == '/') {
    current = state.root.get();
    path.erase(0, 1);
    // "/root/x": the root node may be named in an absolute path.
    const std::size_t slash = path.find('/');
    if (path.substr(0, slash) == state.root->path)
      path = slash == std::string::npos ? "" : path.substr(slash + 1);
  }
  std::vector<std::string> segments;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    if (end > start) segments.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  if (segments.empty()) return fail("names a node (expected a component: @path/to/name)");
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    const std::string& segment = segments[i];
    if (segment == ".") continue;
    if (segment == "..") {
      if (current->parent == nullptr) return fail("goes above the root node");
      current = current->parent;
      continue;
    }
    Node* child = current->Child(segment);
    if (child == nullptr)
      return nothing("does not resolve: no node '" + Shown(segment) + "' in '" + current->path +
                     "' (expected a path of node names)");
    current = child;
  }
  if (Component* found = current->FindComponent(segments.back())) return {current, found};
  return nothing("does not resolve: no component '" + Shown(segments.back()) + "' in '" +
                 current->path + "' (expected the name of a component)");
}

namespace {
// A force field under a solver that, without any error, gave no force to anything: an empty
// list (a StiffSpringForceField without 'spring'), a topology without the elements it needs, a
// selection of no points, or ends on static objects. SOFA runs such a component silently; a
// scene author almost always forgot something, so it is said, at its line.
void WarnActsOnNothing(const BuildState& state, const Component& component) {
  const std::string& type = component.element->type;
  LogWarn(state.problems.Where(component.element->line) + ": <" + type +
          "> acts on nothing and adds no force: it was given no springs, elements or points of "
          "a moving object (expected at least one: see scene-runner --list-components " +
          type + ")");
}
}  // namespace

namespace {

// A rebuild after a topological change (build/topology_rebuild.h): a topology component given
// its reduced topology is built as that topology; a MechanicalObject is built from its fields
// and then given its renumbered vectors; observers are not built again (the running simulation
// keeps its own). True when the component's own build is not to run.
bool BuildFromRebuildInputs(BuildState& state, Node& node, const Component& component,
                            ComponentBuildContext& context) {
  // A dynamic container without elements in a node that a TopologicalChangeProcessor changes
  // (before it adds them, or once it has removed them all): its force fields act on nothing, as
  // SOFA's run on empty element lists (with a warning at init); built, some would refuse a topology
  // without elements.
  const Topology* topology = node.topology.get();
  const auto changes_here = [&] {
    for (const Node* up = &node; up != nullptr; up = up->parent)
      for (const ElementDescription& element : up->description->components)
        if (element.type == "TopologicalChangeProcessor") return true;
    return false;
  };
  if (component.kind() == ComponentKind::kForceField && topology != nullptr &&
      node.topology_component != nullptr && node.topology_component->entry != nullptr &&
      node.topology_component->entry->spec.name.ends_with("SetTopologyContainer") &&
      topology->edges.empty() && topology->triangles.empty() && topology->quads.empty() &&
      topology->tetrahedra.empty() && topology->hexahedra.empty() && changes_here()) {
    if (state.rebuild == nullptr)
      LogWarn(state.problems.Where(component.element->line) + ": <" + component.element->type +
              "> acts on nothing: its topology '" + node.topology_component->name +
              "' has no element yet (SOFA's warns too; elements a TopologicalChangeProcessor "
              "adds later get it)");
    // The membranes and volumes the additions follow in place exist without elements
    // (build/empty_element_fields.h).
    if (const ObjectModel* object = context.NodeObject(); object != nullptr)
      BuildEmptyElementField(context, component.entry->spec.name, *component.element, *object,
                             node.topology);
    return true;
  }
  if (state.rebuild == nullptr) return false;
  if (component.kind() == ComponentKind::kObserver) return true;
  const bool changed_topology =
      node.topology_component != nullptr &&
      state.rebuild->topologies.count(node.topology_component->element->line) != 0;
  // A topological mapping whose output follows the change as SOFA's does: the output was built
  // as given (build/topological_changes.h, FollowedMapping), not derived again.
  if (component.kind() == ComponentKind::kTopologicalMapping && changed_topology) return true;
  const int line = component.element->line;
  if (const auto found = state.rebuild->topologies.find(line);
      found != state.rebuild->topologies.end()) {
    context.SetTopology(*found->second);
    return true;
  }
  if (const auto found = state.rebuild->objects.find(line); found != state.rebuild->objects.end()) {
    component.entry->builder(context);
    if (node.object < 0) return true;  // the build failed: reported
    ObjectModel& object = state.objects[static_cast<std::size_t>(node.object)];
    object.position = found->second.position;
    object.velocity = found->second.velocity;
    object.rest_position = found->second.rest_position;
    object.num_points = object.dimension == 0 ? 0 : object.position.size() / object.dimension;
    // SOFA's externalForce acts during the first step only: long past.
    object.external_force = Vector::Zero(object.position.size());
    return true;
  }
  return false;
}

}  // namespace

void BuildComponent(BuildState& state, Node& node, Component& component) {
  if (state.built.count(&component) != 0) return;
  if (!component.valid) {
    state.failed.insert(&component);  // its fields' problems are reported
    return;
  }
  const ComponentEntry& entry = *component.entry;
  state.building.insert(&component);
  const bool linked = ResolveLinks(state, node, component);  // reports why when false
  state.building.erase(&component);
  state.built.insert(&component);
  const std::size_t problems_before = state.problems.count();
  const std::size_t fields_before = state.force_fields_added;
  const int warnings_before = WarningCount();  // a component may explain itself (LinearForceField)
  if (linked && entry.force_field_factory != nullptr) {
    state.plugin_force_fields.emplace_back(&node, &component);
  } else if (linked && entry.builder != nullptr) {
    ComponentBuildContext context(state, node, component);
    try {
      if (!BuildFromRebuildInputs(state, node, component, context)) entry.builder(context);
    } catch (const ConfigError& error) {
      context.Error(entry.spec.name + (error.field().empty() ? "" : " '" + error.field() + "'") +
                    ": " + error.what());
    } catch (const std::bad_alloc&) {
      // The estimate let it through but the system refused: still the component's line.
      context.Error(entry.spec.name + " ran out of memory while it was built (expected a scene " +
                    "that fits the memory budget, " + state.MemoryBudgetText() + ")");
    }
  }
  if (!linked || state.problems.count() > problems_before) {
    state.failed.insert(&component);
  } else if (entry.builder != nullptr && component.kind() == ComponentKind::kForceField &&
             node.system >= 0 && state.force_fields_added == fields_before &&
             WarningCount() == warnings_before) {
    WarnActsOnNothing(state, component);
  }
}

}  // namespace fluxion::internal
