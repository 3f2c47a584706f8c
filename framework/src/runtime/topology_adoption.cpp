// A running simulation continuing on a rebuilt one after a topological change
// (SimulationAccess::AdoptRebuilt): the structure is the rebuilt simulation's, the time, step
// count and observers the running one's, the state carried point by point.
#include <utility>

#include "core/continued_linear_solver.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "runtime/simulation_access.h"
#include "runtime/simulation_impl.h"

namespace fluxion::internal {

void SimulationAccess::SetTopologyChanges(Simulation& simulation,
                                          std::unique_ptr<TopologyChangeStage> stage) {
  simulation.impl_->topology_changes = std::move(stage);
}

void SimulationAccess::AdoptRebuilt(Simulation& running, Simulation rebuilt,
                                    const std::vector<ObjectState>& states) {
  Simulation::Impl& old = *running.impl_;
  Simulation::Impl& fresh = *rebuilt.impl_;
  const std::vector<ObjectModel>& objects = fresh.model->objects;
  if (objects.size() != old.model->objects.size())
    throw UsageError("AdoptRebuilt: the rebuilt scene has " + std::to_string(objects.size()) +
                     " objects (expected " + std::to_string(old.model->objects.size()) + ")");
  // Every object's state on the rebuilt layout: the given one, else the running one.
  for (std::size_t k = 0; k < objects.size(); ++k) {
    const ObjectModel& object = objects[k];
    const auto index = static_cast<int>(k);
    Vector x, v;
    bool given = false;
    for (const ObjectState& state : states)
      if (state.object == index) {
        x = state.x;
        v = state.v;
        given = true;
      }
    if (!given) {
      x = old.Position(old.model->objects[k], index);
      v = old.Velocity(old.model->objects[k], index);
    }
    if (x.size() != object.num_dofs() || v.size() != object.num_dofs())
      throw UsageError("AdoptRebuilt: object '" + object.id + "' has " +
                       std::to_string(object.num_dofs()) + " DOFs after the change and " +
                       std::to_string(x.size()) + " values to carry");
    if (object.mapped_from >= 0) continue;  // computed from its parent below
    if (object.system < 0) {
      fresh.static_position[k] = std::move(x);
      fresh.static_velocity[k] = std::move(v);
      continue;
    }
    State& state = fresh.nodes[static_cast<std::size_t>(object.system)].state;
    state.x.segment(object.offset, object.num_dofs()) = x;
    state.v.segment(object.offset, object.num_dofs()) = v;
  }
  for (SolverNode& node : fresh.nodes) node.state.time = old.time;
  // A linear solver's counters go on (core/continued_linear_solver.h): SOFA keeps the component.
  for (SolverNode& node : fresh.nodes) {
    auto* continued = dynamic_cast<ContinuedLinearSolver*>(node.linear_solver.get());
    if (continued == nullptr) continue;
    for (const SolverNode& running_node : old.nodes)
      if (running_node.node_path == node.node_path && running_node.linear_solver != nullptr)
        continued->ContinueFrom(*running_node.linear_solver);
  }

  // Observers are built once, on the first model: that one is kept (not every later one, which
  // nothing built once points into: a long run of changes must not accumulate meshes).
  if (old.retired_models.empty()) old.retired_models.push_back(old.model);
  old.model = std::move(fresh.model);
  old.topologies = std::move(fresh.topologies);
  old.nodes = std::move(fresh.nodes);
  old.mapped = std::move(fresh.mapped);
  old.contact_stage = std::move(fresh.contact_stage);
  old.runtime_fields = std::move(fresh.runtime_fields);
  old.matrix_sources = std::move(fresh.matrix_sources);
  old.step_starts = std::move(fresh.step_starts);  // the rebuilt components' (they catch up)
  old.static_position = std::move(fresh.static_position);
  old.static_velocity = std::move(fresh.static_velocity);
  old.start_sizes = std::move(fresh.start_sizes);
  old.state_positions.assign(old.nodes.size(), nullptr);
  old.UpdateMapped();

  // The fields set between steps, set again on the rebuilt components (which the scene built
  // with its own values): a gravity or a stiffness changed by a controller or fluxion-view's
  // panel stays changed across the change. Not a mass: its rule (a total spread over the points)
  // would not give the masses the change keeps (SOFA's UniformMass keeps each point's mass as
  // points go), so the scene's mass stands, and the log says so.
  const std::vector<Simulation::Impl::FieldChange> changes = old.field_changes;
  for (const Simulation::Impl::FieldChange& change : changes) {
    const std::string name = change.component + "." + change.field;
    if (change.mass) {
      LogWarn(name +
              " set between steps is not kept after the topological change rebuilt the "
              "scene (the scene's mass stands)");
      std::erase_if(old.field_changes, [&](const Simulation::Impl::FieldChange& c) {
        return c.component == change.component && c.field == change.field;
      });
      continue;
    }
    try {
      running.SetComponentField(change.component, change.field, change.values);
    } catch (const UsageError& error) {
      LogWarn(name +
              " set between steps is not kept after the topological change rebuilt the "
              "scene: " +
              error.what());
    }
  }
}

void SimulationAccess::SetStepStarts(Simulation& simulation, std::vector<StepStart> hooks) {
  simulation.impl_->step_starts = std::move(hooks);
}

void SimulationAccess::SetNodeTopologies(Simulation& simulation,
                                         std::vector<TopologyModel> topologies) {
  simulation.impl_->topologies = std::move(topologies);
}

std::vector<TopologyModel> SimulationAccess::NodeTopologies(const Simulation& simulation) {
  return simulation.impl_->topologies;
}

}  // namespace fluxion::internal

namespace fluxion {

std::vector<TopologyModel> NodeTopologies(const Simulation& simulation) {
  return internal::SimulationAccess::NodeTopologies(simulation);
}

}  // namespace fluxion
