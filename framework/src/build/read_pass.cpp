#include "build/read_pass.h"

#include <algorithm>
#include <map>
#include <set>

#include "build/collision_pipeline.h"
#include "build/component_build_context.h"
#include "build/data_links.h"
#include "build/node_spec.h"
#include "core/parameter_parsing.h"
#include "core/renamed_attributes.h"
#include "core/solver_replacement.h"
#include "core/text_parsing.h"
#include "fluxion/log.h"
#include "fluxion/text.h"
#include "registry/sofa_catalog.h"
#include "registry/sofa_fields.h"

namespace fluxion::internal {

namespace {

class TreeReader {
 public:
  explicit TreeReader(BuildState& state)
      : state_(state),
        collision_pipeline_(FindCollisionPipeline(state.scene.root)),
        problems_(state.problems) {
    CountLinkedNames(state.scene.root, linked_names_);
    CollectLinkTargets(state.scene.root, link_targets_);
    changes_topologies_ = HasElement(state.scene.root, "TopologicalChangeProcessor");
  }

  std::unique_ptr<Node> ReadNode(const NodeDescription& description, Node* parent) {
    auto node = std::make_unique<Node>();
    node->description = &description;
    node->parent = parent;
    std::vector<ParameterProblem> found;
    std::vector<AttributeText> attributes = Filter(description.attributes, false, nullptr);
    if (parent != nullptr) {
      // SOFA copies gravity, dt and time from the parent at every step: a child cannot override
      // them (the Gravity component can).
      std::erase_if(attributes, [&](const AttributeText& a) {
        if (a.name != "gravity" && a.name != "dt" && a.name != "time") return false;
        LogWarn(problems_.Where(a.line) + ": '" + a.name +
                "' on a child node is ignored (SOFA takes it from the root node)");
        return true;
      });
    }
    static const ComponentSpec kNodeSpec = NodeSpec();  // made once, not once per node
    node->parameters = ParseAttributes(kNodeSpec, attributes, found);
    Report(found, description.line);
    if (found.empty()) CheckNodeFields(*node);
    const std::string name =
        description.name.empty() ? (parent ? "Node" : "root") : description.name;
    CheckIdName(description.line, "node", name);
    node->path = parent ? parent->path + "/" + name : name;

    for (const ElementDescription& element : description.components) ReadComponent(*node, element);
    std::set<std::string> child_names;
    for (const NodeDescription& child : description.children) {
      if (IsVisualSubtree(child)) {
        LogDebug(problems_.Where(child.line) + ": node '" + Shown(child.name) +
                 "' only draws (visual models and the mappings feeding them): skipped");
        continue;
      }
      const std::string child_name = child.name.empty() ? "Node" : child.name;
      if (!child_names.insert(child_name).second)
        problems_.Scene(child.line,
                        "a second child node named '" + child_name + "' in '" + node->path +
                            "' (expected distinct names: they identify objects in the output)");
      node->children.push_back(ReadNode(child, node.get()));
    }
    node->IndexNames();
    return node;
  }

 private:
  // Node and object names make the output's column ids ("root/bob/dofs/p0.x"): no '/', no ','
  // (the CSV separator) and no control character (a newline would break the header row).
  void CheckIdName(int line, const char* what, const std::string& name) {
    const bool control = std::any_of(name.begin(), name.end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
    if (name.find_first_of("/,") != std::string::npos || control)
      problems_.Scene(line, std::string(what) + " name '" + Shown(name) +
                                "' contains '/', ',' or a control character (expected a plain "
                                "name: it is part of the output's column names)");
  }

  void CheckNodeFields(const Node& node) {
    const NodeDescription& description = *node.description;
    if (node.parameters.reals("gravity").size() != 3)
      problems_.Scene(description.line,
                      "Node 'gravity' has " +
                          std::to_string(node.parameters.reals("gravity").size()) +
                          " numbers (expected 3, as in SOFA)");
    if (!node.parameters.flag("activated"))
      problems_.Scene(description.line,
                      "Node 'activated=0' is not supported (expected an active node)");
  }

  std::vector<AttributeText> Filter(const std::vector<AttributeText>& attributes,
                                    bool keep_template, std::string* name) {
    std::vector<AttributeText> kept;
    for (const AttributeText& attribute : attributes) {
      if (attribute.name == "name") {
        if (name) *name = attribute.value;
        continue;
      }
      if (attribute.name == "template" && !keep_template) continue;
      if (IsIgnoredAttribute(attribute.name)) {
        LogDebug(problems_.Where(attribute.line) + ": attribute '" + attribute.name +
                 "' ignored (display or bookkeeping option)");
        continue;
      }
      kept.push_back(attribute);
    }
    return kept;
  }

  // SOFA's rule for an attribute no field of the component reads: a warning ("Unused
  // Attribute", Sofa/framework/Simulation/Common/src/sofa/simulation/common/xml/
  // ObjectElement.cpp, once the object is created), and the scene goes on. Fluxion
  // follows it where SOFA's own component has no such attribute either (the generated table
  // registry/sofa_fields.inc, complete for that component): ignoring it cannot change the result.
  // An attribute SOFA's component reads and Fluxion's does not, or one SOFA renamed, stays an
  // error (ParseAttributes), since ignoring it would give another result than SOFA's; so does a
  // plausible misspelling of one of the component's fields (`vertexMas`), whose "did you mean"
  // is worth more than SOFA's silence about the field left at its default.
  void DropAttributesSofaIgnores(const ElementDescription& element, const ComponentSpec& spec,
                                 std::vector<AttributeText>& attributes) {
    std::vector<std::string> known;
    for (const FieldSpec& field : spec.fields) {
      known.push_back(field.name);
      known.insert(known.end(), field.aliases.begin(), field.aliases.end());
    }
    std::erase_if(attributes, [&](const AttributeText& attribute) {
      if (spec.FindField(attribute.name) != nullptr ||
          !RenamedAttributeHint(spec.name, attribute.name).empty() ||
          !SofaIgnoresAttribute(spec.name, attribute.name) ||
          !SuggestClosest(attribute.name, known).empty())
        return false;
      LogWarn(problems_.Where(attribute.line > 0 ? attribute.line : element.line) +
              ": attribute '" + Shown(attribute.name) + "' ignored: " + spec.name +
              " has no such field, in SOFA either (SOFA ignores it with a warning too)");
      return true;
    });
  }

  void Report(const std::vector<ParameterProblem>& found, int fallback_line) {
    for (const ParameterProblem& problem : found)
      problems_.Scene(problem.line > 0 ? problem.line : fallback_line, problem.message);
  }

  // A node that only draws: visual models (components Fluxion ignores), the mappings that feed
  // them from the mechanical state above, the mesh loaders they read and the topologies they draw
  // (containers, topological mappings), with children of the same kind. SOFA builds it for its GUI;
  // nothing in it acts on the mechanics, so Fluxion skips it whole. A mapping next to a
  // MechanicalObject (a mechanical mapping) keeps its node.
  bool IsVisualSubtree(const NodeDescription& node) const {
    // A loader an engine outside links to by its node (HausdorffDistance
    // points1="@mesh1/loader.position"), or a topology another node copies (SOFA's
    // BarycentricTetraMapping.scn: a TetrahedronSetTopologyContainer src="@../MeshVolume/Container"
    // made by a Hexa2TetraTopologicalMapping in a node without a state), is data, not only
    // drawing: its node is read.
    std::map<std::string, int> inside;
    CountLinkedNames(node, inside);
    if (HasDataLinkedFromOutside(node, inside)) return false;
    return DrawsOnly(node);
  }

  // The component names that end a link anywhere in the scene ("@../Visual.position" and
  // "@Visual" give "Visual"), for components read only when something links to them.
  static void CollectLinkTargets(const NodeDescription& node, std::set<std::string>& targets) {
    for (const ElementDescription& element : node.components)
      for (const AttributeText& attribute : element.attributes) {
        const std::size_t at = attribute.value.find_first_not_of(" \t\r\n");
        if (at == std::string::npos || attribute.value[at] != '@') continue;
        std::string path = attribute.value.substr(at + 1);
        path = path.substr(0, path.find_first_of(" \t\r\n"));
        const std::size_t slash = path.rfind('/');
        const std::string last = path.substr(slash == std::string::npos ? 0 : slash + 1);
        targets.insert(last.substr(0, last.find('.')));
      }
    for (const NodeDescription& child : node.children) CollectLinkTargets(child, targets);
  }

  bool IsLinkTarget(const ElementDescription& element) const {
    const AttributeText* name = element.Find("name");
    return name != nullptr && link_targets_.count(name->value) != 0;
  }

  // How often each "node/component" ends a link in the subtree ("@a/b/c.data" counts "b/c").
  // A link without a node in its path cannot name a component of a child node: SOFA looks a
  // plain name up in the linking node and its ancestors only.
  static void CountLinkedNames(const NodeDescription& node, std::map<std::string, int>& counts) {
    const auto count = [&](const std::vector<AttributeText>& attributes) {
      for (const AttributeText& attribute : attributes) {
        const std::size_t at = attribute.value.find_first_not_of(" \t\r\n");
        if (at == std::string::npos || attribute.value[at] != '@') continue;
        std::string path = attribute.value.substr(at + 1);
        path = path.substr(0, path.find_first_of(" \t\r\n"));
        const std::size_t slash = path.rfind('/');
        if (slash == std::string::npos || slash == 0) continue;
        const std::size_t before = path.rfind('/', slash - 1);
        const std::string owner =
            path.substr(before == std::string::npos ? 0 : before + 1,
                        slash - (before == std::string::npos ? 0 : before + 1));
        const std::string last = path.substr(slash + 1, path.find('.', slash) - slash - 1);
        if (!owner.empty() && owner != "." && owner != ".." && !last.empty())
          ++counts[owner + "/" + last];
      }
    };
    for (const ElementDescription& element : node.components) count(element.attributes);
    for (const NodeDescription& child : node.children) CountLinkedNames(child, counts);
  }

  bool HasDataLinkedFromOutside(const NodeDescription& node,
                                const std::map<std::string, int>& inside) const {
    for (const ElementDescription& element : node.components) {
      const AttributeText* name = element.Find("name");
      const ComponentEntry* entry = state_.registry.Find(element.type);
      const bool data = element.type.ends_with("Loader") ||
                        (entry != nullptr && entry->spec.kind == ComponentKind::kTopology);
      if (!data || name == nullptr) continue;
      const std::string key = node.name + "/" + name->value;
      const auto total = linked_names_.find(key);
      const auto own = inside.find(key);
      if (total != linked_names_.end() && total->second > (own == inside.end() ? 0 : own->second))
        return true;
    }
    for (const NodeDescription& child : node.children)
      if (HasDataLinkedFromOutside(child, inside)) return true;
    return false;
  }

  static bool HasElement(const NodeDescription& node, std::string_view type) {
    for (const ElementDescription& element : node.components)
      if (element.type == type) return true;
    for (const NodeDescription& child : node.children)
      if (HasElement(child, type)) return true;
    return false;
  }

  bool DrawsOnly(const NodeDescription& node) const {
    bool draws = false;
    for (const ElementDescription& element : node.components) {
      const ComponentEntry* entry = state_.registry.Find(element.type);
      const SofaComponent* sofa = FindSofaComponent(element.type);
      if (entry != nullptr && entry->spec.kind == ComponentKind::kIgnored) {
        draws = true;
      } else if (entry == nullptr && sofa != nullptr && sofa->ignored) {
        draws = true;
      } else if ((entry == nullptr && sofa != nullptr &&
                  std::string_view(sofa->category) == "Mapping") ||
                 (entry != nullptr && entry->spec.kind == ComponentKind::kMapping)) {
        // a mapping: allowed next to visual models only (beside a MechanicalObject, the
        // object makes the node mechanical)
      } else if (entry != nullptr && entry->spec.kind == ComponentKind::kEngine &&
                 element.type.ends_with("Loader")) {
        // a mesh loader the visual model reads
      } else if (entry != nullptr && !changes_topologies_ &&
                 (entry->spec.kind == ComponentKind::kTopology ||
                  entry->spec.kind == ComponentKind::kTopologicalMapping)) {
        // the topology the visual model draws, e.g. a Hexa2QuadTopologicalMapping's surface (in
        // a scene whose topologies change, a topology follows the changes and is read: a
        // topology comparison records it, as SOFA's does)
      } else {
        return false;
      }
    }
    for (const NodeDescription& child : node.children)
      if (!DrawsOnly(child)) return false;
    return draws || (node.components.empty() && !node.children.empty());
  }

  // SOFA's old name of a component Fluxion implements under its new name (SOFA's
  // ComponentChange "Renamed" list), or null.
  const ComponentEntry* RenamedEntry(const ElementDescription& element) const {
    const SofaComponent* sofa = FindSofaComponent(element.type);
    if (sofa == nullptr) return nullptr;
    const std::string_view category = sofa->category;
    if (!category.starts_with("renamed:")) return nullptr;
    const ComponentEntry* entry = state_.registry.Find(category.substr(8));
    if (entry != nullptr)
      LogDebug(problems_.Where(element.line) + ": <" + element.type + "> is SOFA's old name of <" +
               entry->spec.name + ">");
    return entry;
  }

  // One rule for a component that is not available. A component known to come from a plugin
  // that is not loaded (a bundled plugin's, also under SOFA's old name, or any component of a
  // scene whose RequiredPlugin was not found) is a plugin problem naming the plugin; a real SOFA
  // component Fluxion does not implement is unsupported; any other name is unknown, a scene
  // problem, with a suggestion only when it is a plausible misspelling.
  void ReportUnknownComponent(const ElementDescription& element) {
    const SofaComponent* sofa = FindSofaComponent(element.type);
    std::string plugin = Host::BundledPluginFor(element.type);
    if (plugin.empty() && sofa != nullptr &&
        std::string_view(sofa->category).starts_with("renamed:"))
      plugin = Host::BundledPluginFor(std::string_view(sofa->category).substr(8));
    if (!plugin.empty()) {
      problems_.Plugin(element.line, "component '" + element.type +
                                         "' is provided by plugin 'fluxion_" + plugin +
                                         ".so', which is not on the plugin search path" +
                                         state_.SearchPathText() + "; " + kAddPluginFolder);
      return;
    }
    if (sofa != nullptr) {
      if (sofa->ignored) {
        LogDebug(problems_.Where(element.line) + ": <" + element.type + "> ignored (SOFA " +
                 sofa->category + ": no effect on the mechanics)");
      } else {
        std::string category = sofa->category;
        if (category.starts_with("renamed:"))
          category = "renamed " + category.substr(8) + " in SOFA";
        problems_.Scene(element.line, "SOFA component '" + element.type +
                                          "' is not supported by Fluxion (category: " + category +
                                          ")");
      }
      return;
    }
    if (const char* replacement = RetiredSofaComponent(element.type)) {
      problems_.Scene(element.line, "'" + element.type +
                                        "' is a component SOFA no longer has, nor Fluxion (" +
                                        replacement + ")");
      return;
    }
    // A missing required plugin explains an unknown name better than a near built-in name does
    // (JacobiPreconditionedCGSolver, a plugin's, is close to SOFA's JacobiPreconditioner).
    const std::string suggestion = SuggestClosest(element.type, state_.registry.Names());
    if (!suggestion.empty() && state_.missing_plugins.empty()) {
      problems_.Scene(element.line, "unknown component '" + Shown(element.type) +
                                        "' (did you mean '" + suggestion + "'?)");
    } else if (!state_.missing_plugins.empty()) {
      std::string required;
      for (const std::string& name : state_.missing_plugins)
        required += (required.empty() ? "'" : "', '") + name;
      problems_.Plugin(element.line, "component '" + Shown(element.type) +
                                         "' is not available: no loaded plugin provides it, and "
                                         "the scene requires plugin " +
                                         required + "', which is not on the plugin search path; " +
                                         kAddPluginFolder);
    } else {
      problems_.Scene(element.line, "unknown component '" + Shown(element.type) +
                                        "' (expected one listed by scene-runner "
                                        "--list-components; a plugin's component needs the "
                                        "plugin's folder on the search path: --plugin-dir DIR or "
                                        "FLUXION_PLUGIN_PATH)");
    }
  }

  static constexpr const char* kAddPluginFolder =
      "add the folder holding it with --plugin-dir DIR or FLUXION_PLUGIN_PATH=DIR";

  void ReadComponent(Node& node, const ElementDescription& element) {
    const ComponentEntry* entry = state_.registry.Find(element.type);
    if (entry == nullptr) entry = RenamedEntry(element);
    if (entry != nullptr && entry->spec.kind == ComponentKind::kOdeSolver &&
        state_.options.solver) {
      OverrideSolver(node, element, *entry);
      return;
    }
    if (entry == nullptr) {
      ReportUnknownComponent(element);
      return;
    }
    Component component;
    component.element = &element;
    component.entry = entry;
    // An ignored component is dropped, unless it has a build function (a visual model's
    // geometry) and a link names it: then it is read for the fields it declares, the others
    // being drawing options, and built when the link needs it.
    const bool link_source = entry->spec.kind == ComponentKind::kIgnored &&
                             entry->builder != nullptr && IsLinkTarget(element);
    if (entry->spec.kind == ComponentKind::kIgnored && !link_source) {
      LogDebug(problems_.Where(element.line) + ": <" + element.type + "> ignored (" +
               entry->spec.summary + ")");
      return;
    }
    const bool keep_template = entry->spec.FindField("template") != nullptr;
    std::vector<AttributeText> attributes =
        Filter(element.attributes, keep_template, &component.name);
    if (link_source)
      std::erase_if(attributes, [&](const AttributeText& a) {
        return entry->spec.FindField(a.name) == nullptr;
      });
    DropAttributesSofaIgnores(element, entry->spec, attributes);
    component.data_links = TakeDataLinks(entry->spec, attributes);  // resolved when built
    std::vector<ParameterProblem> found;
    component.parameters = ParseAttributes(entry->spec, attributes, found);
    Report(found, element.line);
    component.valid = found.empty();
    if (component.name.empty()) component.name = entry->spec.name;
    if (entry->spec.kind == ComponentKind::kState)
      CheckIdName(element.line, "object", component.name);
    node.components.push_back(std::move(component));
    if (entry->spec.kind == ComponentKind::kCollisionModel && collision_pipeline_ == nullptr)
      LogInfo(problems_.Where(element.line) + ": <" + element.type +
              "> is inert: the scene has no collision pipeline (SOFA runs collision models "
              "only through one)");
    // Loaders (RequiredPlugin) act as soon as they are read: what they require must be there
    // before the components that need it are looked at.
    const Component& added = node.components.back();
    if (added.valid && added.kind() == ComponentKind::kLoader && entry->builder != nullptr) {
      ComponentBuildContext context(state_, node, added);
      entry->builder(context);
    }
  }

  // --solver NAME --param key=value: the scene's solver element is replaced; the new solver
  // keeps the scene's parameters it declares (CarryOverSolverAttributes), --param over them, and
  // the others are named in one warning.
  void OverrideSolver(Node& node, const ElementDescription& element, const ComponentEntry& scene) {
    const SolverChoice& replacement = *state_.options.solver;
    const ComponentEntry* entry = state_.registry.Find(replacement.name);
    if (entry == nullptr || entry->spec.kind != ComponentKind::kOdeSolver) {
      const std::string suggestion = SuggestClosest(replacement.name, state_.registry.Names());
      const std::string message =
          "--solver " + replacement.name + ": no ODE solver of that name" +
          (suggestion.empty() ? state_.SearchPathText() : " (did you mean '" + suggestion + "'?)");
      if (suggestion.empty())
        problems_.Plugin(element.line, message);
      else
        problems_.Scene(element.line, message);
      return;
    }
    Component component;
    component.element = &element;
    component.entry = entry;
    component.name = entry->spec.name;
    const CarriedAttributes carried = CarryOverSolverAttributes(
        entry->spec,
        Filter(element.attributes, entry->spec.FindField("template") != nullptr, nullptr),
        replacement.parameters);
    if (!carried.dropped.empty())
      LogWarn(problems_.Where(element.line) + ": --solver " + entry->spec.name + " drops " +
              scene.spec.name + "'s " + DroppedText(carried.dropped) + " (" + entry->spec.name +
              " has no such parameter)");
    std::vector<ParameterProblem> found;
    component.parameters = ParseAttributes(entry->spec, carried.kept, found);
    for (const ParameterProblem& problem : found)
      problems_.Scene(problem.line > 0 ? problem.line : element.line,
                      (problem.line > 0 ? "" : "--param: ") + problem.message);
    component.valid = found.empty();
    node.components.push_back(std::move(component));
  }

  BuildState& state_;
  const ElementDescription* collision_pipeline_;  ///< FindCollisionPipeline of the whole scene
  std::map<std::string, int> linked_names_;       ///< CountLinkedNames of the whole scene
  std::set<std::string> link_targets_;            ///< CollectLinkTargets of the whole scene
  Problems& problems_;
  bool changes_topologies_ = false;  ///< the scene has a TopologicalChangeProcessor
};

}  // namespace

void ReadSceneTree(BuildState& state) {
  state.root = TreeReader(state).ReadNode(state.scene.root, nullptr);
}

void CheckNodeComposition(BuildState& state, Node& node) {
  std::map<ComponentKind, const Component*> first;
  for (const Component& component : node.components) {
    const ComponentKind kind = component.kind();
    // SOFA's node keeps one topology too, but a second one replaces the first with a warning
    // (Node::addMeshTopology); SOFA's VTKExporter.scn and BlenderExporter.scn rely on it. The
    // node's topology is then the last one, and a link still names either (their data stay
    // published per component).
    if (kind == ComponentKind::kTopology) {
      if (node.topology_component != nullptr)
        LogWarn(state.problems.Where(component.element->line) + ": a second topology <" +
                component.element->type + "> in node '" + node.path + "' replaces <" +
                node.topology_component->element->type + "> of " +
                state.problems.Reference(node.topology_component->element->line,
                                         component.element->line) +
                " as the node's topology (as in SOFA; links may still name either)");
      node.topology_component = &component;
      continue;
    }
    const bool single = kind == ComponentKind::kState || kind == ComponentKind::kOdeSolver ||
                        kind == ComponentKind::kMass;
    if (!single) continue;
    if (const auto it = first.find(kind); it != first.end()) {
      state.problems.Scene(
          component.element->line,
          "a second " + std::string(ComponentKindName(kind)) + " <" + component.element->type +
              "> in node '" + node.path + "' (expected at most one per node; the first is <" +
              it->second->element->type + "> at " +
              state.problems.Reference(it->second->element->line, component.element->line) + ")");
      continue;
    }
    first[kind] = &component;
    if (kind == ComponentKind::kOdeSolver) node.solver = &component;
  }
}

}  // namespace fluxion::internal
