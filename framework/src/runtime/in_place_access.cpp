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

}  // namespace fluxion::internal
