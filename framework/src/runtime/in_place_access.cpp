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

bool SimulationAccess::ReplaceTopology(Simulation& simulation, int object,
                                       std::shared_ptr<const Topology> topology) {
  Simulation::Impl& impl = *simulation.impl_;
  const Topology* previous = impl.model->objects[static_cast<std::size_t>(object)].topology.get();
  const auto same = [&](const TopologyModel& node) { return node.topology.get() == previous; };
  if (previous == nullptr || (!impl.topologies.empty() &&
                              std::none_of(impl.topologies.begin(), impl.topologies.end(), same)))
    return false;
  for (TopologyModel& node : impl.topologies)
    if (same(node)) node.topology = topology;
  auto model = std::make_shared<Model>(*impl.model);
  model->objects[static_cast<std::size_t>(object)].topology = std::move(topology);
  if (impl.retired_models.empty()) impl.retired_models.push_back(impl.model);
  impl.model = std::move(model);
  return true;
}

}  // namespace fluxion::internal
