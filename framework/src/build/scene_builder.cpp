// The scene builder's pipeline. Each pass visits the node tree in document order; the problems
// of a pass are all reported before the build stops:
//   read     — nodes and components, fields parsed against their specs, unknown names reported,
//              loaders (RequiredPlugin) applied;
//   compose  — at most one object, mass, topology and ODE solver per node;
//   setup    — context components (Gravity), topologies and topological mappings (in document
//              order: a mapping fills its output container from its input's topology);
//   objects  — mechanical objects;
//   mappings — mechanical mappings: an object becomes mapped from another (no DOFs of its own);
//   layout   — solver systems: which object each integrates, and where its DOFs go; mappings
//              composed down to those DOFs;
//   components — masses, constraints and force fields, then plugin force fields (they see the
//              masses), then the mapped objects' contributions mapped onto their systems, then
//              the collision plan and the mass check (which counts the collision models' points);
//   solvers  — ODE and linear solvers, assembled systems, and the model.
#include "build/scene_builder.h"

#include "build/collision_pipeline.h"
#include "build/component_passes.h"
#include "build/data_links.h"
#include "build/gravity_sources.h"
#include "build/mapping_passes.h"
#include "build/memory_charges.h"
#include "build/read_pass.h"
#include "build/solver_creation.h"
#include "build/topological_changes.h"
#include "build/topology_rebuild.h"
#include "fluxion/log.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// The model's component list, in document order (ignored components are not part of it).
void DescribeComponents(const BuildState& state, Model& model) {
  ForEachNode(static_cast<const Node&>(*state.root), [&](const Node& node) {
    for (const Component& c : node.components)
      model.components.push_back(ComponentModel{c.element->type, c.name, node.path, c.kind(),
                                                state.scene.Locate(c.element->line).second});
  });
}

// The model's topologies: each node's topology component and what it holds (read before a
// release drops them).
std::vector<TopologyModel> DescribeTopologies(const BuildState& state) {
  std::vector<TopologyModel> topologies;
  ForEachNode(static_cast<const Node&>(*state.root), [&](const Node& node) {
    if (node.topology_component == nullptr || node.topology == nullptr) return;
    topologies.push_back(TopologyModel{
        node.path, node.topology_component->name,
        state.scene.Locate(node.topology_component->element->line).second, node.topology});
  });
  return topologies;
}

// LoadOptions::keep_initial_data = false, once every component is built: the topologies (the
// objects', the nodes', and the data they publish for links), which nothing reads any more.
void ReleaseTopologies(BuildState& state) {
  ForEachNode(*state.root, [](Node& node) { node.topology.reset(); });
  // Their published data (for links, resolved before each component is built) hold them too.
  for (const auto& [component, topology] : state.topologies) state.outputs.erase(component);
  state.topologies.clear();
  for (ObjectModel& object : state.objects) object.topology.reset();
}

// Then, once the solver nodes' states are filled from them, the initial vectors of the objects a
// solver moves (static and mapped objects keep theirs: the simulation starts their states from
// them).
void ReleaseInitialVectors(BuildState& state) {
  for (ObjectModel& object : state.objects) {
    if (object.system < 0 || object.mapped_from >= 0) continue;
    object.position = Vector();
    object.velocity = Vector();
    object.rest_position = Vector();
    object.external_force = Vector();
  }
}
}  // namespace

Simulation BuildSimulation(const SceneDescription& scene,
                           std::shared_ptr<const ComponentRegistry> registry,
                           const PluginLoader* plugins, const LoadOptions& options,
                           RebuildInputs* rebuild) {
  BuildState state(scene, *registry, plugins, options);
  state.rebuild = rebuild;
  Problems& problems = state.problems;

  // The scene's structure against the memory budget first: reading it allocates per node and
  // component, whatever their size.
  if (!ChargeSceneStructure(state)) problems.ThrowIfAny();
  ReadSceneTree(state);
  problems.ThrowIfAny();
  ForEachNode(*state.root, [&](Node& node) { CheckNodeComposition(state, node); });
  problems.ThrowIfAny();
  ForEachNode(*state.root, [&](Node& node) {
    BuildComponents(
        state, node,
        {ComponentKind::kContext, ComponentKind::kTopology, ComponentKind::kTopologicalMapping});
  });
  ForEachNode(*state.root,
              [&](Node& node) { BuildComponents(state, node, {ComponentKind::kState}); });
  problems.ThrowIfAny();
  ForEachNode(*state.root, [&](Node& node) {
    for (Component& component : node.components) {
      if (component.kind() != ComponentKind::kMapping) continue;
      if (node.object < 0) {
        // A mapping next to a visual model in a node that is read for another reason.
        LogDebug(problems.Where(component.element->line) + ": <" + component.element->type +
                 "> maps to no MechanicalObject of node '" + node.path +
                 "': ignored (it feeds "
                 "a visual model)");
        continue;
      }
      BuildComponent(state, node, component);
    }
  });
  problems.ThrowIfAny();
  LayOutSystems(state);
  ComposeMappings(state);
  ForEachNode(*state.root, [&](Node& node) {
    // Collision models and the pipeline's components are never built, but their data may be
    // links (SOFA's RegularGridTopology.scn: listRadius="@[-2].listRadius"): resolved here,
    // before PlanContacts reads them.
    BuildComponents(state, node,
                    {ComponentKind::kEngine, ComponentKind::kMass, ComponentKind::kConstraint,
                     ComponentKind::kForceField, ComponentKind::kObserver,
                     ComponentKind::kCollisionModel, ComponentKind::kCollisionPipeline});
  });
  problems.ThrowIfAny();
  BuildPluginForceFields(state);
  problems.ThrowIfAny();
  FinalizeMappings(state);
  // The collision models are planned first: their points count as used by the mass check.
  std::optional<ContactPlan> contacts = PlanContacts(state);
  CheckMasses(state, contacts ? &*contacts : nullptr);
  problems.ThrowIfAny();
  // Topological changes: read once, at the first build; a rebuild reports the processors' data
  // lists as its links give them now.
  std::vector<ChangingNode> changing;
  if (rebuild == nullptr)
    changing = PlanTopologicalChanges(state);
  else
    rebuild->data_lists = ProcessorDataLists(state);
  problems.ThrowIfAny();
  // Without observers (exporters and recorders read the model), a caller that reads only the
  // state lets the build drop what nothing reads again (LoadOptions::keep_initial_data).
  const bool release = !options.keep_initial_data && state.observers.empty();
  std::vector<TopologyModel> topologies;
  if (release)
    ReleaseTopologies(state);
  else
    topologies = DescribeTopologies(state);
  std::vector<SolverNode> nodes = CreateSolverNodes(state);
  if (contacts) CheckContactSolvers(state, *contacts, nodes);
  RecordLinearSystems(state, nodes);
  problems.ThrowIfAny();
  if (release) ReleaseInitialVectors(state);

  auto model = std::make_shared<Model>();
  model->file = scene.file;
  model->dt = options.dt ? *options.dt : state.root->parameters.real("dt");
  model->start_time = state.root->parameters.real("time");
  if (state.root->gravity) {
    model->gravity = *state.root->gravity;  // a Gravity component in the root node
  } else if (const std::vector<double>& g = state.root->parameters.reals("gravity");
             g.size() == 3) {
    model->gravity = {g[0], g[1], g[2]};
  }
  DescribeComponents(state, *model);
  for (const SolverNode& node : nodes) {
    SolverNodeModel described{node.node_path, node.solver_type, "", node.objects};
    if (node.linear_solver) described.linear_solver_type = node.linear_solver->name();
    model->solver_nodes.push_back(std::move(described));
  }
  for (ObjectModel& object : state.objects) object.line = scene.Locate(object.line).second;
  model->objects = std::move(state.objects);
  if (nodes.empty() && state.observers.empty())
    LogWarn(scene.file + ": the scene has no ODE solver: nothing moves");
  // The root's gravity first: the root node comes before its components in document order.
  state.runtime_fields.insert(state.runtime_fields.begin(), RootGravityField(state));
  try {
    Simulation simulation =
        SimulationAccess::Create(std::move(model), std::move(nodes), registry,
                                 std::move(state.observers), std::move(state.mapped_runtime),
                                 contacts ? CreateContactStage(std::move(*contacts)) : nullptr,
                                 std::move(state.runtime_fields), std::move(state.matrix_sources));
    SimulationAccess::SetNodeTopologies(simulation, std::move(topologies));
    SimulationAccess::SetStepStarts(simulation, std::move(state.step_starts));
    if (!changing.empty())
      SimulationAccess::SetTopologyChanges(
          simulation, CreateTopologyRebuildStage(scene, registry, options, std::move(changing)));
    return simulation;
  } catch (const ConfigError& error) {
    problems.Scene(scene.root.line, error.what());
    problems.ThrowIfAny();
    throw;
  }
}

}  // namespace fluxion::internal
