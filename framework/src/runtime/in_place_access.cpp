// What a topological change followed in place reaches in a running simulation (declarations and
// purpose in runtime/simulation_access.h).
#include <algorithm>
#include <memory>
#include <utility>

#include "runtime/simulation_access.h"
#include "runtime/simulation_impl.h"

namespace fluxion::internal {

SolverNode* SimulationAccess::SolverNodeOf(Simulation& simulation, int object) {
  Simulation::Impl& impl = *simulation.impl_;
  if (object < 0 || object >= static_cast<int>(impl.model->objects.size())) return nullptr;
  const ObjectModel& model = impl.model->objects[static_cast<std::size_t>(object)];
  if (model.system < 0 || model.mapped_from >= 0) return nullptr;
  return &impl.nodes[static_cast<std::size_t>(model.system)];
}

const std::vector<MatrixSource>& SimulationAccess::MatrixSources(const Simulation& simulation) {
  return simulation.impl_->matrix_sources;
}

const Topology* SimulationAccess::NodeTopology(const Simulation& simulation,
                                               std::string_view node_path) {
  for (const TopologyModel& node : simulation.impl_->topologies)
    if (node.node_path == node_path) return node.topology.get();
  return nullptr;
}

void SimulationAccess::ReplaceNodeTopology(Simulation& simulation, std::string_view node_path,
                                           std::shared_ptr<const Topology> topology) {
  Simulation::Impl& impl = *simulation.impl_;
  const Topology* previous = NodeTopology(simulation, node_path);
  for (TopologyModel& node : impl.topologies)
    if (node.node_path == node_path) node.topology = topology;
  // The objects that share it (an object fed by a loader keeps the loader's mesh, as a rebuild
  // does).
  std::shared_ptr<Model> model;
  for (std::size_t k = 0; k < impl.model->objects.size(); ++k) {
    if (previous == nullptr || impl.model->objects[k].topology.get() != previous) continue;
    if (!model) model = std::make_shared<Model>(*impl.model);
    model->objects[k].topology = topology;
  }
  if (!model) return;
  if (impl.retired_models.empty()) impl.retired_models.push_back(impl.model);
  impl.model = std::move(model);
}

const char* SimulationAccess::PointRemovalRefusal(const Simulation& simulation, int object) {
  const Simulation::Impl& impl = *simulation.impl_;
  const ObjectModel& model = impl.model->objects[static_cast<std::size_t>(object)];
  const State& state = impl.nodes[static_cast<std::size_t>(model.system)].state;
  if (model.offset + model.num_dofs() != state.x.size())
    return "the object's points are not the last of its solver's system";
  for (const MappedRuntime& mapped : impl.mapped)
    if (mapped.system == model.system) return "a mapped object reads the object's system";
  // Contacts need nothing here: the object's points are the system's last, so the contacts of
  // other objects keep their DOFs, and those of the object's own collision models are found
  // again by the next step's detection (build/in_place_collision.h clears them).
  return nullptr;
}

void SimulationAccess::RemoveObjectPoints(Simulation& simulation, int object,
                                          std::span<const Index> removed,
                                          std::span<const Index> moved) {
  Simulation::Impl& impl = *simulation.impl_;
  // The first model stays as it is (observers built on it may point into it, as after a
  // rebuild); the running one is the simulation's own copy.
  if (impl.retired_models.empty() || impl.model.use_count() > 1) {
    if (impl.retired_models.empty()) impl.retired_models.push_back(impl.model);
    impl.model = std::make_shared<Model>(*impl.model);
  }
  auto& model = const_cast<Model&>(*impl.model);  // made non-const above, held here alone
  ObjectModel& o = model.objects[static_cast<std::size_t>(object)];
  State& state = impl.nodes[static_cast<std::size_t>(o.system)].state;
  const Index d = o.dimension;
  const auto move = [&](Vector& values, Index first) {
    for (std::size_t i = 0; i < removed.size(); ++i)
      if (removed[i] != moved[i] && values.size() >= first + (moved[i] + 1) * d)
        values.segment(first + removed[i] * d, d) = values.segment(first + moved[i] * d, d);
  };
  for (Vector* initial : {&o.position, &o.velocity, &o.rest_position, &o.external_force}) {
    if (initial->size() != o.num_dofs()) continue;  // released, or none
    move(*initial, 0);
    initial->conservativeResize(o.num_dofs() - static_cast<Index>(removed.size()) * d);
  }
  move(state.x, o.offset);
  move(state.v, o.offset);
  o.num_points -= static_cast<Index>(removed.size());
  state.x.conservativeResize(o.offset + o.num_dofs());
  state.v.conservativeResize(o.offset + o.num_dofs());
}

}  // namespace fluxion::internal
