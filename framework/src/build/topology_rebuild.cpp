// The runtime side of TopologicalChangeProcessor (see the header). SOFA's processor reads its
// file lazily, a block of lines per time stamp, and acts on the lines whose time has come; the
// reader below follows its readNext line for line, quirks included (a time is "come" within one
// machine epsilon; an empty line repeats the previous keyword).
#include "build/topology_rebuild.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "build/scene_builder.h"
#include "build/topology_in_place.h"
#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "fluxion/simulation.h"
#include "mechanics/mapped_topology_follow.h"
#include "mechanics/points_in_triangles.h"
#include "mechanics/topology_addition.h"
#include "mechanics/topology_removal.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// Where SOFA's readNext is in a processor's file.
struct FileReader {
  std::size_t next_line = 0;
  bool at_end = false;
  double next_time = 0.0;
  double loop_time = 0.0;
};

struct ProcessorRuntime {
  ProcessorPlan plan;
  FileReader reader;
  double time_to_remove = 0.0;  // useDataInputs
};

struct NodeRuntime {
  ChangingNode state;  // its topology, initial vectors and index lists, kept current
  std::vector<ProcessorRuntime> processors;
  // The in-place follow of its removals, made at the first one (and after each rebuild, which
  // replaces what it points into); `refused` once it could not be made for the current build.
  std::unique_ptr<InPlaceFollower> in_place;
  bool refused = false;
  // The in-place follow changed the index lists (points removed: the point lists and vertex
  // masses too) since the scene description last took them: written before a build reads it
  // (WriteDeferred), not at each change, whose cost would then be the lists' length.
  bool lists_behind = false, points_behind = false;
};

// FLUXION_TOPOLOGY_REBUILD=1 in the environment: every change goes through the rebuild (the
// reference the in-place follow is compared with, in tests and benchmarks).
bool RebuildAlways() {
  const char* value = std::getenv("FLUXION_TOPOLOGY_REBUILD");
  return value != nullptr && std::string_view(value) == "1";
}

// SOFA's "the time has come": nextTime < time or |nextTime − time| < ε (double epsilon).
bool Reached(double next_time, double time) {
  return next_time < time || std::fabs(next_time - time) < std::numeric_limits<double>::epsilon();
}

// One change of a processor: a removal (removeItems of the listed elements) or an addition (the
// listed elements' vertices, AddedSize each).
struct DueChange {
  bool add = false;
  std::vector<Index> values;
  // ADD= PointsInTriangle: `values` the triangles, these their two coordinates each.
  bool points_in_triangle = false;
  std::vector<double> coordinates;
};

// readNext then processTopologicalChanges (file mode): the REMOVE= and ADD= lines whose time has
// come, in file order.
std::vector<DueChange> DueFromFile(const ProcessorPlan& plan, FileReader& reader, double time,
                                   TopologyLevel level) {
  std::vector<std::size_t> valid;
  std::string keyword;  // SOFA's `cmd`: kept when a line has no word
  while (Reached(reader.next_time, time)) {
    if (reader.at_end) {
      if (!plan.loop) break;
      reader.next_line = 0;
      reader.at_end = false;
      reader.loop_time = reader.next_time;
    }
    const std::size_t k = reader.next_line++;
    reader.at_end = reader.next_line >= plan.lines.size();
    const std::vector<std::string_view> words = SplitWords(plan.lines[k]);
    if (!words.empty()) keyword = std::string(words[0]);
    if (keyword == "T=") {
      // A failed `str >> nextTime` stores 0, as the C++ stream does.
      const std::optional<double> read =
          words.size() >= 2 && words[0] == "T=" ? ParseReal(words[1]) : std::nullopt;
      reader.next_time = read.value_or(0.0) + reader.loop_time;
      if (Reached(reader.next_time, time)) valid.clear();
    }
    if (Reached(reader.next_time, time)) valid.push_back(k);
  }
  std::vector<DueChange> changes;
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const std::vector<std::string_view> words = SplitWords(plan.lines[valid[i]]);
    if (words.empty() || i + 1 >= valid.size()) continue;
    DueChange change;
    long count = 0;  // checked at build
    if (words[0] == "REMOVE=") {
      count = ParseInteger(words[1]).value_or(0);
    } else if (words[0] == "ADD=" && IsPointsInTriangle(words[1])) {
      change.add = change.points_in_triangle = true;
      const std::vector<std::string_view> records = SplitWords(plan.lines[valid[++i]]);
      for (long n = 0; n < ParseInteger(words[2]).value_or(0); ++n) {  // checked at build
        change.values.push_back(static_cast<Index>(*ParseInteger(records[3 * n])));
        change.coordinates.push_back(*ParseReal(records[3 * n + 1]));
        change.coordinates.push_back(*ParseReal(records[3 * n + 2]));
      }
      changes.push_back(std::move(change));
      continue;
    } else if (words[0] == "ADD=") {
      change.add = true;
      count = ParseInteger(words[2]).value_or(0) * static_cast<long>(AddedSize(level));
    } else {
      continue;
    }
    const std::vector<std::string_view> indices = SplitWords(plan.lines[valid[++i]]);
    // A short REMOVE= line: SOFA's failed reads leave 0 (warned at build).
    for (long n = 0; n < count; ++n)
      change.values.push_back(
          static_cast<std::size_t>(n) < indices.size()
              ? static_cast<Index>(*ParseInteger(indices[static_cast<std::size_t>(n)]))
              : Index{0});
    changes.push_back(std::move(change));
  }
  return changes;
}

std::string JoinIndices(const std::vector<Index>& indices) {
  std::string text;
  for (const Index i : indices) text += (text.empty() ? "" : " ") + std::to_string(i);
  return text;
}

ElementDescription* FindElement(NodeDescription& node, int line) {
  for (ElementDescription& element : node.components)
    if (element.line == line) return &element;
  for (NodeDescription& child : node.children)
    if (ElementDescription* found = FindElement(child, line)) return found;
  return nullptr;
}

// Removes attribute `name` of the element at `line`, if it has one.
void RemoveAttribute(SceneDescription& scene, int line, const std::string& name) {
  ElementDescription* element = FindElement(scene.root, line);
  if (element == nullptr) return;
  std::erase_if(element->attributes,
                [&](const AttributeText& attribute) { return attribute.name == name; });
}

// Sets (or adds) attribute `name` of the element at `line` to `value`.
void SetAttribute(SceneDescription& scene, int line, const std::string& name, std::string value) {
  ElementDescription* element = FindElement(scene.root, line);
  if (element == nullptr) return;
  for (AttributeText& attribute : element->attributes)
    if (attribute.name == name) {
      attribute.value = std::move(value);
      return;
    }
  element->attributes.push_back({name, std::move(value), line});
}

// The warnings of a rebuild repeat those of the first build (a scene's oddities do not change
// with its topology): they are dropped while it runs, the level restored after it.
class QuietRebuild {
 public:
  QuietRebuild() {
    for (const LogLevel level :
         {LogLevel::kTrace, LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarn, LogLevel::kError})
      if (ShouldLog(level)) {
        previous_ = level;
        break;
      }
    if (previous_ <= LogLevel::kWarn) SetLogLevel(LogLevel::kError);
  }
  ~QuietRebuild() { SetLogLevel(previous_); }
  QuietRebuild(const QuietRebuild&) = delete;
  QuietRebuild& operator=(const QuietRebuild&) = delete;

 private:
  LogLevel previous_ = LogLevel::kError;
};

class TopologyRebuildStage final : public TopologyChangeStage {
 public:
  TopologyRebuildStage(const SceneDescription& scene,
                       std::shared_ptr<const ComponentRegistry> registry,
                       const LoadOptions& options, std::vector<ChangingNode> changing)
      : scene_(scene),
        registry_(std::move(registry)),
        options_(options),
        rebuild_always_(RebuildAlways()) {
    for (ChangingNode& node : changing) {
      NodeRuntime runtime;
      for (ProcessorPlan& plan : node.processors) {
        ProcessorRuntime processor;
        processor.time_to_remove = plan.time_to_remove;
        processor.plan = std::move(plan);
        runtime.processors.push_back(std::move(processor));
      }
      node.processors.clear();
      // A rebuild gives the object its current vectors (RebuildInputs), which the scene's own
      // per-point lists would otherwise be checked against first: a velocity listed for every
      // point was refused once points went (more velocities than positions) and warned about
      // once points came.
      for (const char* field : {"velocity", "rest_position", "externalForce"})
        RemoveAttribute(scene_, node.object_line, field);
      runtime.state = std::move(node);
      nodes_.push_back(std::move(runtime));
    }
  }

  void BeforeStep(Simulation& simulation) override {
    const double now = simulation.sofa_time();
    // Nothing is copied or allocated on a step without a change (the state is taken when the
    // first removal of a node is due).
    // A removal is followed in place when the node's components allow it; once a change of
    // the step needs the rebuild, the step's later changes join it.
    std::vector<SimulationAccess::ObjectState> states;
    bool rebuild = false;
    for (NodeRuntime& node : nodes_) {
      ChangingNode& current = node.state;
      std::optional<SimulationAccess::ObjectState> state;
      for (ProcessorRuntime& processor : node.processors) {
        for (const DueChange& change : Due(processor, simulation, current, state, now)) {
          if (!change.points_in_triangle && !rebuild &&
              ChangeInPlace(simulation, processor.plan, node, change, now))
            continue;
          rebuild = true;
          WriteDeferred();
          TakeLiveOutputs(current);
          if (change.points_in_triangle)
            AddPoints(processor.plan, current, change, StateOf(simulation, current, state), now);
          else if (change.add)
            Add(processor.plan, current, change.values, StateOf(simulation, current, state), now);
          else
            Remove(processor.plan, current, change.values, StateOf(simulation, current, state),
                   now);
        }
      }
      if (state) states.push_back(std::move(*state));
    }
    if (!rebuild) return;
    WriteDeferred();
    for (NodeRuntime& node : nodes_) TakeLiveOutputs(node.state);
    RebuildInputs inputs = Inputs(nullptr);
    SimulationAccess::AdoptRebuilt(simulation, Build(inputs), states);
    for (NodeRuntime& node : nodes_) {
      node.in_place.reset();
      node.refused = false;
    }
  }

 private:
  // The mapped outputs an in-place follower changed, back into their FollowedMapping (the rebuild
  // follows them from there; the follower goes with the rebuild).
  static void TakeLiveOutputs(ChangingNode& node) {
    for (FollowedMapping& mapping : node.mappings)
      if (mapping.live) {
        mapping.mapped.topology = mapping.live->topology;
        mapping.mapped.glob2loc.clear();
        const std::vector<Index>& glob2loc = mapping.live->glob2loc;
        for (std::size_t glob = 0; glob < glob2loc.size(); ++glob)
          if (glob2loc[glob] >= 0)
            mapping.mapped.glob2loc.emplace_hint(mapping.mapped.glob2loc.end(),
                                                 static_cast<Index>(glob), glob2loc[glob]);
        mapping.live.reset();
      }
  }

  // The current state of the node's object, taken once per step when first needed.
  static SimulationAccess::ObjectState& StateOf(
      const Simulation& simulation, const ChangingNode& node,
      std::optional<SimulationAccess::ObjectState>& state) {
    if (!state)
      state.emplace(SimulationAccess::ObjectState{node.object, simulation.position(node.object),
                                                  simulation.velocity(node.object)});
    return *state;
  }

  // The removals processor `processor` makes at SOFA time `now` (its handleEvent on
  // AnimateBeginEvent).
  std::vector<DueChange> Due(ProcessorRuntime& processor, const Simulation& simulation,
                             const ChangingNode& node,
                             std::optional<SimulationAccess::ObjectState>& state, double now) {
    const ProcessorPlan& plan = processor.plan;
    if (!plan.use_data_inputs)
      return DueFromFile(plan, processor.reader, now + plan.shift, node.level);
    if (processor.time_to_remove >= now) return {};
    // SOFA reads its list when it acts: an engine it links to (BoxROI) computes it then, on
    // the current positions and topology. So does a build of the scene on them.
    std::vector<Index> ids = plan.triangles_to_remove;
    if (plan.list_linked) {
      WriteDeferred();
      RebuildInputs probe = Inputs(&StateOf(simulation, node, state));
      (void)Build(probe);
      for (const auto& [line, list] : probe.data_lists)
        if (line == plan.line) ids = list;
    }
    // The next time: `interval` later, or never (SOFA sets (Index)-1).
    if (processor.plan.interval != 0.0)
      processor.time_to_remove += processor.plan.interval;
    else
      processor.time_to_remove = static_cast<double>(static_cast<std::uint32_t>(-1));
    if (ids.empty()) return {};
    DueChange removal;
    removal.values = std::move(ids);
    return {std::move(removal)};
  }

  // removeItems(ids) or an addition of elements followed in place (build/topology_in_place.h,
  // build/addition_in_place.h), when the node's components and this change allow it; false
  // (nothing changed) otherwise, the reason logged at debug.
  bool ChangeInPlace(Simulation& simulation, const ProcessorPlan& plan, NodeRuntime& node,
                     const DueChange& change, double now) {
    const std::vector<Index>& ids = change.values;
    if (rebuild_always_) return false;
    const auto [file, line] = scene_.Locate(plan.line);
    const std::string where = file + ":" + std::to_string(line) + ": TopologicalChangeProcessor";
    std::string why;
    if (!node.in_place && !node.refused) {
      node.in_place = CreateInPlaceFollower(simulation, node.state, scene_, why);
      node.refused = !node.in_place;
    }
    if (!node.in_place) {
      if (!why.empty())
        LogDebug(where + ": the changes of node '" + node.state.node_path +
                 "' rebuild the scene: " + why);
      return false;
    }
    const std::size_t before = ElementCount(*node.state.topology, node.state.level);
    if (change.add) {
      if (!node.in_place->Add(simulation, node.state, ids, why)) {
        LogDebug(where + ": the addition at t = " + FormatReal(now) +
                 " rebuilds the scene: " + why);
        return false;
      }
      if (ShouldLog(LogLevel::kDebug))
        LogDebug(where + ": the addition at t = " + FormatReal(now) + " of " +
                 std::to_string(ElementCount(*node.state.topology, node.state.level) - before) +
                 " " + AddedName(node.state.level) + " is followed in place");
      return true;
    }
    if (!node.in_place->Remove(simulation, node.state, ids, why)) {
      LogDebug(where + ": the removal at t = " + FormatReal(now) + " rebuilds the scene: " + why);
      return false;
    }
    // The points it removed and the lists it changed: the scene a later build reads follows, as
    // after Remove (WriteDeferred).
    if (!node.in_place->removed_points().empty()) node.points_behind = true;
    node.lists_behind = true;
    const std::span<const Index> skipped = node.in_place->out_of_range();
    if (!skipped.empty())
      LogWarn(where + ": " + std::to_string(skipped.size()) + " element indices (first " +
              std::to_string(skipped.front()) + ") are not below the " + std::to_string(before) +
              " elements: skipped, as SOFA does");
    return true;
  }

  // The scene's copy of what the in-place follows changed since it was last written.
  void WriteDeferred() {
    for (NodeRuntime& node : nodes_) {
      if (node.points_behind) WritePointFollowers(node.state);
      if (node.lists_behind)
        for (const FollowedIndexList& list : node.state.triangle_lists)
          SetAttribute(scene_, list.element_line, list.field, JoinIndices(list.indices));
      node.points_behind = node.lists_behind = false;
    }
  }

  // The scene's copy of what follows a removal of points (the index lists, renumbered by the
  // caller; UniformMass's vertexMass), for the builds after it.
  void WritePointFollowers(const ChangingNode& node) {
    for (const FollowedIndexList& list : node.index_lists)
      SetAttribute(scene_, list.element_line, list.field, JoinIndices(list.indices));
    for (const FollowedSprings& list : node.spring_lists)
      SetAttribute(scene_, list.element_line, "spring", SpringText(list));
    for (const auto& [mass_line, vertex_mass] : node.vertex_masses) {
      RemoveAttribute(scene_, mass_line, "totalMass");
      SetAttribute(scene_, mass_line, "vertexMass", FormatReal(vertex_mass));
    }
  }

  // removeItems(ids) on the node's elements; everything the node keeps follows the renumbering,
  // and each mapped topology follows as SOFA's mapping does.
  void Remove(const ProcessorPlan& plan, ChangingNode& node, const std::vector<Index>& ids,
              SimulationAccess::ObjectState& state, double now) {
    const auto [file, line] = scene_.Locate(plan.line);
    TopologyRemoval removal;
    try {
      removal = RemoveElements(*node.topology, node.level, ids);
      for (FollowedMapping& mapping : node.mappings)
        FollowRemoval(mapping.mapped, *node.topology, removal);
    } catch (const ConfigError& error) {
      throw SceneError({SceneDiagnostic{
          file, line,
          "TopologicalChangeProcessor cannot remove elements at t = " + FormatReal(now) + ": " +
              error.what()}});
    }
    if (!removal.out_of_range.empty())
      LogWarn(file + ":" + std::to_string(line) +
              ": TopologicalChangeProcessor: " + std::to_string(removal.out_of_range.size()) +
              " element indices (first " + std::to_string(removal.out_of_range.front()) +
              ") are not below the " + std::to_string(ElementCount(*node.topology, node.level)) +
              " elements: skipped, as SOFA does");
    const int d = node.dimension;
    node.position = RenumberPointValues(node.position, d, removal.point_origin);
    node.velocity = RenumberPointValues(node.velocity, d, removal.point_origin);
    node.rest_position = RenumberPointValues(node.rest_position, d, removal.point_origin);
    state.x = RenumberPointValues(state.x, d, removal.point_origin);
    state.v = RenumberPointValues(state.v, d, removal.point_origin);
    for (FollowedIndexList& list : node.index_lists) {
      list.indices = RenumberPointSubset(list.indices, removal.point_map);
      SetAttribute(scene_, list.element_line, list.field, JoinIndices(list.indices));
    }
    for (FollowedIndexList& list : node.triangle_lists) {
      list.indices = RenumberPointSubset(list.indices, TriangleMapOf(node, list, removal));
      SetAttribute(scene_, list.element_line, list.field, JoinIndices(list.indices));
    }
    for (FollowedSprings& list : node.spring_lists) {
      RemoveSpringPoints(list, removal.removed_points,
                         static_cast<Index>(removal.point_map.size()));
      SetAttribute(scene_, list.element_line, "spring", SpringText(list));
    }
    if (!removal.removed_points.empty())
      for (const auto& [mass_line, vertex_mass] : node.vertex_masses) {
        RemoveAttribute(scene_, mass_line, "totalMass");
        SetAttribute(scene_, mass_line, "vertexMass", FormatReal(vertex_mass));
      }
    for (const auto& [mass_line, density] : node.mass_densities) {
      RemoveAttribute(scene_, mass_line, "totalMass");
      SetAttribute(scene_, mass_line, "massDensity", FormatReal(density));
    }
    node.topology = std::make_shared<const Topology>(std::move(removal.topology));
  }

  // The map of the triangles `list` indexes through the removal: the container's, or that of
  // the mapped output it is on.
  static const std::vector<Index>& TriangleMapOf(const ChangingNode& node,
                                                 const FollowedIndexList& list,
                                                 const TopologyRemoval& removal) {
    for (const FollowedMapping& mapping : node.mappings)
      if (list.topology_line != 0 && mapping.topology_line == list.topology_line)
        return mapping.mapped.element_map;
    return removal.triangle_map;
  }

  // add{Triangles,Quads,…}(elements) on the node's container; the mapped topologies follow. No
  // point is added: the object's state and index lists stay as they are.
  void Add(const ProcessorPlan& plan, ChangingNode& node, const std::vector<Index>& vertices,
           SimulationAccess::ObjectState& /*state*/, double now) {
    const auto [file, line] = scene_.Locate(plan.line);
    const std::size_t size = AddedSize(node.level);
    std::vector<std::vector<Index>> elements;
    for (std::size_t k = 0; k + size <= vertices.size(); k += size)
      elements.emplace_back(vertices.begin() + static_cast<std::ptrdiff_t>(k),
                            vertices.begin() + static_cast<std::ptrdiff_t>(k + size));
    TopologyAddition addition;
    try {
      addition = AddElements(*node.topology, node.level, elements);
      for (FollowedMapping& mapping : node.mappings) FollowAddition(mapping.mapped, addition);
    } catch (const ConfigError& error) {
      throw SceneError({SceneDiagnostic{file, line,
                                        "TopologicalChangeProcessor cannot add elements at t = " +
                                            FormatReal(now) + ": " + error.what()}});
    }
    // A list on a mapped output follows the faces the addition covers (the output removes
    // them); the container's own lists keep their triangles (added ones join none).
    for (FollowedIndexList& list : node.triangle_lists)
      if (list.topology_line != 0) {
        list.indices = RenumberPointSubset(list.indices, TriangleMapOf(node, list, {}));
        SetAttribute(scene_, list.element_line, list.field, JoinIndices(list.indices));
      }
    node.topology = std::make_shared<const Topology>(std::move(addition.topology));
  }

  // SOFA's addPoints with ancestors (ADD= PointsInTriangle): every point vector gains the new
  // points' weighted sums; no element is added, index lists keep their points.
  void AddPoints(const ProcessorPlan& plan, ChangingNode& node, const DueChange& change,
                 SimulationAccess::ObjectState& state, double now) {
    const auto [file, line] = scene_.Locate(plan.line);
    PointsInTriangles points;
    try {
      if (!node.mappings.empty())
        throw ConfigError("", "points added under a topological mapping are not followed yet");
      points = LocatePointsInTriangles(*node.topology, change.values, change.coordinates);
    } catch (const ConfigError& error) {
      throw SceneError({SceneDiagnostic{file, line,
                                        "TopologicalChangeProcessor cannot add points at t = " +
                                            FormatReal(now) + ": " + error.what()}});
    }
    const int d = node.dimension;
    node.position = AppendPoints(node.position, d, points);
    node.velocity = AppendPoints(node.velocity, d, points);
    node.rest_position = AppendPoints(node.rest_position, d, points);
    state.x = AppendPoints(state.x, d, points);
    state.v = AppendPoints(state.v, d, points);
    for (const auto& [mass_line, vertex_mass] : node.vertex_masses) {
      RemoveAttribute(scene_, mass_line, "totalMass");
      SetAttribute(scene_, mass_line, "vertexMass", FormatReal(vertex_mass));
    }
    node.topology = std::make_shared<const Topology>(AppendPoints(*node.topology, points));
  }

  // What a build takes from the nodes: their topologies and objects' vectors; `probe`, when
  // given, puts one object's current positions in place of its initial ones.
  RebuildInputs Inputs(const SimulationAccess::ObjectState* probe) const {
    RebuildInputs inputs;
    for (const NodeRuntime& node : nodes_) {
      const ChangingNode& s = node.state;
      inputs.topologies[s.topology_line] = s.topology;
      for (const FollowedMapping& mapping : s.mappings)
        inputs.topologies[mapping.topology_line] = std::make_shared<const Topology>(
            mapping.live ? mapping.live->topology : mapping.mapped.topology);
      RebuildInputs::ObjectStart start{s.position, s.velocity, s.rest_position};
      if (probe != nullptr && probe->object == s.object) start.position = probe->x;
      inputs.objects[s.object_line] = std::move(start);
    }
    return inputs;
  }

  Simulation Build(RebuildInputs& inputs) const {
    const QuietRebuild quiet;
    return BuildSimulation(scene_, registry_, nullptr, options_, &inputs);
  }

  SceneDescription scene_;
  std::shared_ptr<const ComponentRegistry> registry_;
  LoadOptions options_;
  std::vector<NodeRuntime> nodes_;
  bool rebuild_always_ = false;
};

}  // namespace

std::unique_ptr<TopologyChangeStage> CreateTopologyRebuildStage(
    const SceneDescription& scene, std::shared_ptr<const ComponentRegistry> registry,
    const LoadOptions& options, std::vector<ChangingNode> changing) {
  return std::make_unique<TopologyRebuildStage>(scene, std::move(registry), options,
                                                std::move(changing));
}

}  // namespace fluxion::internal
