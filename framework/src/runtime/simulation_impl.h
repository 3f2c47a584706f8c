// The private state of a public Simulation, shared by the runtime's files.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/node_topologies.h"
#include "fluxion/simulation.h"
#include "mechanics/assembled_system.h"
#include "mechanics/step_start.h"
#include "registry/component_registry.h"
#include "runtime/repeated_warnings.h"
#include "runtime/simulation_access.h"
#include "runtime/step_clock.h"
#include "runtime/topology_change_stage.h"

namespace fluxion {

namespace internal {
/// The largest |x_i| and |v_i| of a state.
struct StateSize {
  double position = 0.0;
  double velocity = 0.0;
};
}  // namespace internal

struct Simulation::Impl {
  std::shared_ptr<const Model> model;
  /// Each node's topology in the current build (NodeTopologies), empty when released.
  std::vector<TopologyModel> topologies;
  std::shared_ptr<const internal::ComponentRegistry> registry;
  std::vector<SolverNode> nodes;
  /// SOFA's node time: the start time plus dt added once per step (SOFA's DefaultAnimationLoop
  /// accumulates). What the mechanics, the solvers' State::time and the observers see.
  double time = 0.0;
  long step_count = 0;
  /// t₀ + n·h, computed afresh per step: the time Simulation::time() reports.
  internal::StepClock clock;
  /// The scene's observers, in document order; emptied by Finish.
  std::vector<internal::ObserverSlot> observers;
  bool finished = false;
  /// Current positions / velocities of static objects (an observer may play them), indexed like
  /// Model::objects; empty vectors for objects a solver moves.
  std::vector<Vector> static_position, static_velocity;
  /// Per solver node, the size of its objects' initial state (for the message of a rejected
  /// step), taken when the simulation is created: a load may release the model's initial
  /// vectors afterwards (LoadOptions::keep_initial_data).
  std::vector<internal::StateSize> start_sizes;
  /// Mapped objects: their current state is kept in static_position / static_velocity, computed
  /// from their system's by UpdateMapped after every change of a solver state.
  std::vector<internal::MappedRuntime> mapped;
  /// The collision pipeline (null without one), and each node's position vector for it.
  std::unique_ptr<internal::ContactStage> contact_stage;
  std::vector<const Vector*> state_positions;
  /// Per-step warnings (a step whose inner iteration missed its tolerance): the first of each
  /// kind logged, the rest summarised when the run ends (Finish, a failure, or destruction).
  internal::RepeatedWarnings repeated_warnings;
  /// The component fields SetComponentField may change, in document order.
  std::vector<internal::RuntimeField> runtime_fields;
  /// The values SetComponentField set, the last per component and field, in the order set: a
  /// rebuild after a topological change builds the components from the scene again and sets
  /// them once more (runtime/topology_adoption.cpp).
  struct FieldChange {
    std::string component, field;
    std::vector<double> values;
    bool mass = false;
  };
  std::vector<FieldChange> field_changes;
  /// The force fields and masses of each component, for ComponentMatrix.
  std::vector<internal::MatrixSource> matrix_sources;
  /// Run before each step (SimulationAccess::SetStepStarts).
  std::vector<internal::StepStart> step_starts;
  /// Topological changes applied at the start of steps (null without a
  /// TopologicalChangeProcessor), and the first model once a change replaced it: observers built
  /// on it may still point into it.
  std::unique_ptr<internal::TopologyChangeStage> topology_changes;
  std::vector<std::shared_ptr<const Model>> retired_models;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() { repeated_warnings.Flush(); }
  /// Reports a step of `node` that was accepted with its inner iteration short of its tolerance.
  void ReportNotConverged(const SolverNode& node, const StepResult& result);

  /// x_c = φ(x), v_c = J·v for every mapped object (never allocates).
  void UpdateMapped() {
    for (internal::MappedRuntime& m : mapped) {
      const State& state = nodes[static_cast<std::size_t>(m.system)].state;
      const auto k = static_cast<std::size_t>(m.object);
      m.mapping.Evaluate(state.x.data(), static_position[k].data());
      m.mapping.jacobian().Apply(state.v.data(), static_velocity[k].data());
    }
  }

  /// SOFA's collision phase at the start of a step: detection on the current positions, then
  /// the contacts handed to the systems' penalty fields.
  void RunContacts() {
    if (!contact_stage) return;
    for (std::size_t k = 0; k < nodes.size(); ++k) state_positions[k] = &nodes[k].state.x;
    contact_stage->Run(*model, state_positions, static_position);
  }

  class Observation;
  class Setter;
  enum class Moment { kBegin, kAfterStep, kEnd };
  /// Drives (except at the end), then notifies every observer of `moment`, in document order.
  /// Throws SceneError located at the failing observer's line.
  void Notify(Moment moment);

  internal::AssembledSystem& assembled(SolverNode& node) {
    return static_cast<internal::AssembledSystem&>(*node.system);
  }
  /// Current positions / velocities of `object` (number `index`).
  Eigen::Map<const Vector> Position(const ObjectModel& object, int index) const;
  Eigen::Map<const Vector> Velocity(const ObjectModel& object, int index) const;
  /// The object `index`; UsageError naming `what` when there is none.
  const ObjectModel& ObjectAt(int index, const char* what) const {
    if (index < 0 || index >= static_cast<int>(model->objects.size()))
      throw UsageError(std::string(what) + ": no object " + std::to_string(index) +
                       " (the scene has " + std::to_string(model->objects.size()) + ")");
    return model->objects[static_cast<std::size_t>(index)];
  }
  SolverNode& NodeOf(int index, const char* what) {
    const ObjectModel& object = ObjectAt(index, what);
    if (object.mapped_from >= 0)
      throw UsageError(std::string(what) + ": object '" + object.id + "' is mapped from '" +
                       model->objects[static_cast<std::size_t>(object.mapped_from)].id +
                       "' (set the state of the object it is mapped from)");
    if (object.system < 0)
      throw UsageError(std::string(what) + ": object '" + object.id +
                       "' is static (no solver moves it)");
    return nodes[static_cast<std::size_t>(object.system)];
  }
};

}  // namespace fluxion
