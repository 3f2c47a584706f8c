// What the passes of the scene builder share: the scene as read, the node tree with its parsed
// components, the objects and system parts built so far, and the problems found.
#pragma once

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "build/input_files.h"
#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/mapping.h"
#include "fluxion/model.h"
#include "mechanics/assembled_system.h"
#include "mechanics/gravity_weights.h"
#include "mechanics/linear_mapping.h"
#include "mechanics/step_start.h"
#include "plugin/plugin_loader.h"
#include "registry/component_registry.h"
#include "runtime/memory_budget.h"
#include "runtime/simulation_access.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

/// A field whose value in the scene is a link to another component's data: "@path.data".
struct DataLink {
  std::string field;  ///< the field's canonical name
  std::string text;   ///< the link as written, "@../loader.position"
  int line = 0;
};

/// One data a component published (BuildContext::SetOutput): its value, or for a topology's and an
/// object's data (point and element lists as large as the scene) a function that makes the value
/// when a link reads it, so that the scene does not hold a second copy of them while it is built.
class PublishedData {
 public:
  PublishedData() = default;
  explicit PublishedData(FieldValue value) : value_(std::move(value)) {}
  explicit PublishedData(std::function<FieldValue()> make) : make_(std::move(make)) {}
  FieldValue value() const { return make_ ? make_() : value_; }

 private:
  FieldValue value_;
  std::function<FieldValue()> make_;
};

/// One component element of a node, with its parsed fields.
struct Component {
  const ElementDescription* element = nullptr;
  const ComponentEntry* entry = nullptr;
  Parameters parameters;  ///< linked fields are set when the links are resolved, before Build
  std::string name;
  bool valid = false;
  std::vector<DataLink> data_links;
  ComponentKind kind() const { return entry->spec.kind; }
};

/// One node of the scene tree.
struct Node {
  const NodeDescription* description = nullptr;
  std::string path;
  Node* parent = nullptr;
  std::vector<std::unique_ptr<Node>> children;
  std::vector<Component> components;
  Parameters parameters;
  int object = -1;                    // index into the objects
  const Component* solver = nullptr;  // the node's own ODE solver
  int system = -1;                    // governing solver node (nearest ancestor-or-self solver)
  /// The node's topology: the last topology component of the node (SOFA's Node keeps the last
  /// one added), and what it built. Components of the node see this one.
  const Component* topology_component = nullptr;
  std::shared_ptr<const Topology> topology;
  std::optional<std::array<double, 3>> gravity;  // set by a Gravity component
  /// The Gravity component's changeable gravity (with gravity), null without one.
  std::shared_ptr<GravitySource> gravity_source;

  /// The child node named `name` ("Node" names an unnamed one), or null. Links are resolved
  /// through an index (IndexNamesOf), so that a scene's build takes time linear in its size
  /// however many siblings a node has.
  Node* Child(const std::string& name) const;
  /// The first component of this node named `name`, or null (the same index).
  Component* FindComponent(const std::string& name) const;
  /// Fills the index of this node's children and components: called by the read pass once the
  /// node is complete (neither list changes afterwards).
  void IndexNames();

 private:
  std::unordered_map<std::string, Node*> children_by_name_;
  std::unordered_map<std::string, Component*> components_by_name_;
};

/// The problems found so far, each tagged plugin (exit 3) or scene (exit 2).
class Problems {
 public:
  explicit Problems(const SceneDescription& scene) : file_(scene.file), scene_file_(scene) {}
  void Scene(int line, std::string message) {
    const auto [file, local] = scene_file_.Locate(line);
    scene_.push_back({file, local, std::move(message)});
  }
  void Plugin(int line, std::string message) {
    const auto [file, local] = scene_file_.Locate(line);
    plugin_.push_back({file, local, std::move(message)});
  }
  /// A problem at a line of another file the scene reads (a TopologicalChangeProcessor's file).
  void InFile(const std::string& file, int line, std::string message) {
    scene_.push_back({file, line, std::move(message)});
  }
  /// "FILE:LINE" of a scene line (an included file's lines name that file).
  std::string Where(int line) const {
    const auto [file, local] = scene_file_.Locate(line);
    return file + ":" + std::to_string(local);
  }
  /// How a message about `from` refers to scene line `line`: "line N" in the same file, else
  /// "FILE:N" (an included file, another Python file).
  std::string Reference(int line, int from) const {
    const auto [file, local] = scene_file_.Locate(line);
    return file == scene_file_.Locate(from).first ? "line " + std::to_string(local)
                                                  : file + ":" + std::to_string(local);
  }
  /// Throws PluginError (plugin problems first, then the scene's) or SceneError.
  void ThrowIfAny() const;
  /// How many problems were recorded so far.
  std::size_t count() const { return scene_.size() + plugin_.size(); }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  const SceneDescription& scene_file_;
  std::vector<SceneDiagnostic> scene_, plugin_;
};

/// What the builder charges against the memory budget (runtime/memory_budget.h), so that a scene
/// too large for the machine, or a hostile one, gets a clean error before anything is allocated
/// instead of exhausting memory. Upper bounds of what was measured with heaptrack on
/// RegularGridTopology cloths of 256² to 1024² points (docs/performance.md, "Memory"):
///  - per point: its topology's coordinates and elements, the object's four vectors, the
///    solver's state and scratch vectors (RK4 keeps the most), mass and output rows;
///  - per spring (3-D): the spring, the edge it comes from, its share of the builder's lists;
///  - per stiffness entry of the sparse pattern (4·d² per spring), when a solver assembles
///    matrices: the pattern and M (12 bytes per entry each), a slot (8), the solver's matrices
///    (K and A, 12 each), and the lists the pattern is built from while it is built (20).
inline constexpr double kBytesPerPoint = 480;
inline constexpr double kBytesPerSpring = 160;
inline constexpr double kBytesPerMatrixEntry = 76;
///  - per node, component and attribute of the scene, whatever its size (build/memory_charges.h):
///    its description, its parsed fields (every field of its spec, given or not), its entries in
///    the model and the builder's indexes. One-point nodes (a MechanicalObject and a UniformMass
///    each, four attributes) peaked at 8.4 to 10 kB a node with scene-runner (10⁴ and 2·10⁴ of
///    them, the process's own 40 MB included); these charge 9.5 kB for one.
inline constexpr double kBytesPerNode = 3500;
inline constexpr double kBytesPerComponent = 2500;
inline constexpr double kBytesPerAttribute = 250;

/// A mapped object (BuildContext::MapObject): its mapping, and what its components contributed in
/// its own DOF numbering (offset 0), mapped onto its solver's system by FinalizeMappings.
struct MappedObject {
  MappedObject() = default;
  MappedObject(MappedObject&&) noexcept = default;  // moved, never copied, when the list grows
  MappedObject(const MappedObject&) = delete;
  MappedObject& operator=(MappedObject&&) noexcept = default;
  MappedObject& operator=(const MappedObject&) = delete;

  int object = -1;  ///< index into the objects
  int parent = -1;  ///< the object it is mapped from (itself possibly mapped)
  /// Every object it is mapped from, in the order of J's columns: {parent}, or a multi-mapping's
  /// parents (BuildContext::MapObjectFromParents), `parent` being the first.
  std::vector<int> parents;
  int line = 0;  ///< the mapping's line
  /// Child DOFs × parent DOFs (all parents') as the mapping gave it; then (ComposeMappings)
  /// child DOFs × the DOFs of the system integrating the parents.
  LinearMapping::RowMajorMatrix jacobian;
  /// A nonlinear mapping (BuildContext::MapObject with a Mapping), else null; `jacobian` then
  /// holds its pattern with the values at the initial state.
  std::shared_ptr<const Mapping> nonlinear;
  bool composed = false;
  SystemParts parts;  ///< masses, force fields and external forces on the child's own DOFs
};

/// What a rebuild after a topological change (build/topology_rebuild.h) puts in place of what
/// the scene's own components would build, keyed by the components' element lines.
struct RebuildInputs {
  /// The initial vectors of a MechanicalObject, renumbered with its points.
  struct ObjectStart {
    Vector position, velocity, rest_position;
  };
  /// The reduced topology of a topology component (built as given, not from its fields).
  std::map<int, std::shared_ptr<const Topology>> topologies;
  /// The object built by a MechanicalObject, with these vectors instead of its fields'.
  std::map<int, ObjectStart> objects;
  /// Filled by the rebuild: each TopologicalChangeProcessor's trianglesToRemove as its links
  /// give it on the rebuilt scene (its element line, the list).
  std::vector<std::pair<int, std::vector<Index>>> data_lists;
};

/// Everything the passes read and write.
struct BuildState {
  BuildState(const SceneDescription& scene_, const ComponentRegistry& registry_,
             const PluginLoader* plugins_, const LoadOptions& options_)
      : scene(scene_),
        registry(registry_),
        plugins(plugins_),
        options(options_),
        problems(scene_),
        inputs(scene_.file, options_),
        memory(CurrentMemoryBudget(options_.memory_limit)) {}

  const SceneDescription& scene;
  const ComponentRegistry& registry;
  const PluginLoader* plugins;  // may be null: no plugin context
  /// Set when the scene is built again after a topological change (observers are not built
  /// again, plugins are not looked up again), else null.
  RebuildInputs* rebuild = nullptr;
  LoadOptions options;
  Problems problems;
  InputFolders inputs;
  MemoryBudget memory;  ///< what the scene may take, read when the build starts

  std::unique_ptr<Node> root;
  /// Plugins a RequiredPlugin names that are not loaded: the scene's unknown components are
  /// presumably theirs.
  std::vector<std::string> missing_plugins;
  /// Data each component published (SetOutput, its topology, its object), for links.
  std::map<const Component*, std::map<std::string, PublishedData, std::less<>>> outputs;
  std::set<const Component*> built;     ///< build function called (or refused)
  std::set<const Component*> building;  ///< being built: a link back to one is a cycle
  /// Invalid, or reported a problem while built: what it would have published is missing for a
  /// reason already reported, so a link to it adds no error of its own.
  std::set<const Component*> failed;
  /// What each topology component built (a node may hold several; the node's is Node::topology).
  std::map<const Component*, std::shared_ptr<const Topology>> topologies;
  std::vector<ObjectModel> objects;
  std::unordered_set<std::string> object_ids;  ///< the ids of `objects`, to refuse a second one
  std::vector<ComponentModel> components;      // the model's list, in document order
  std::vector<Node*> solver_owners;            // one per system
  std::vector<SystemParts> parts;              // one per system
  std::vector<MappedObject> mapped;            // in the order the mappings were built
  std::vector<MappedRuntime> mapped_runtime;   // filled by FinalizeMappings
  std::vector<std::pair<Node*, const Component*>> plugin_force_fields;
  std::vector<ObserverSlot> observers;  ///< in the order they were added (document order)
  Index topology_points = 0;            // points of every topology so far
  Index object_points = 0;              // points of every mechanical object so far
  std::size_t total_springs = 0;        // springs of every force field so far
  std::size_t force_fields_added = 0;   // force fields given to a simulated object so far
  double data_bytes = 0;  ///< the scene's structure and the data copied between components so far
  /// Fields components declared changeable between steps (BuildContext::AddRuntimeField).
  std::vector<RuntimeField> runtime_fields;
  /// The root's `gravity` attribute as a changeable gravity (created by the first mass under it).
  std::shared_ptr<GravitySource> root_gravity;
  /// Each component's force fields and masses (Simulation::ComponentMatrix).
  std::vector<MatrixSource> matrix_sources;
  /// The components' step-start hooks, in document order (mechanics/step_start.h).
  std::vector<StepStart> step_starts;

  /// The memory a scene of so many points and springs is estimated to take [bytes] (doubles:
  /// absurd sizes must not overflow).
  static double EstimatedBytes(double points, double springs) {
    return points * kBytesPerPoint + springs * kBytesPerSpring;
  }
  /// The estimate of what has been built so far.
  double estimated_bytes() const {
    return EstimatedBytes(static_cast<double>(std::max(topology_points, object_points)),
                          static_cast<double>(total_springs)) +
           data_bytes;
  }
  /// "21.3 GiB: the memory this machine has available (MemAvailable)", for messages.
  std::string MemoryBudgetText() const { return FormatBytes(memory.bytes) + ": " + memory.source; }

  /// The mapping record of object `object`, or null when it is not mapped.
  MappedObject* FindMapped(int object) {
    for (MappedObject& m : mapped)
      if (m.object == object) return &m;
    return nullptr;
  }

  /// " (searched: DIR…)" with the refused plugin files, for "not found" messages.
  std::string SearchPathText() const;
};

/// Visits `node` and its subtree in document order.
template <class F>
void ForEachNode(Node& node, F&& visit) {
  visit(node);
  for (auto& child : node.children) ForEachNode(*child, visit);
}
template <class F>
void ForEachNode(const Node& node, F&& visit) {
  visit(node);
  for (const auto& child : node.children) ForEachNode(static_cast<const Node&>(*child), visit);
}

}  // namespace fluxion::internal
