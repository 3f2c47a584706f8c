// How the scene builder creates a public Simulation: the runtime's own constructor.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/component.h"
#include "fluxion/node_topologies.h"
#include "fluxion/observer.h"
#include "fluxion/simulation.h"
#include "mechanics/assembled_system.h"
#include "mechanics/gravity_weights.h"
#include "mechanics/mapped_force_field.h"
#include "mechanics/mapping_jacobian.h"
#include "mechanics/step_start.h"
#include "registry/component_registry.h"
#include "runtime/contact_stage.h"
#include "runtime/topology_change_stage.h"

namespace fluxion::internal {

/// An observer of the scene with where it was declared, for its failures' messages.
struct ObserverSlot {
  std::unique_ptr<Observer> observer;
  std::string file;  ///< the scene file (or included file) declaring it
  int line = 0;      ///< its line there
  std::string type;  ///< its element name, e.g. "VTKExporter"
};

/// A mapped object's state, computed from its system's after every change: x_c = φ(x) (J·x for
/// a linear mapping), v_c = J·v.
struct MappedRuntime {
  int object = -1;  ///< index into Model::objects
  int system = -1;  ///< the solver node whose state it is mapped from
  MappingJacobian mapping{LinearMapping()};
  /// The child's force fields inside the system (for observers' forces), null when it has none.
  const MappedForceField* field = nullptr;
};

/// A component field that may change between steps (BuildContext::AddRuntimeField).
struct RuntimeField {
  std::string component;  ///< "<node path>/<component name>", e.g. "root/cloth/load"
  std::string field;      ///< e.g. "forces"
  RuntimeFieldSetter set;
  /// For a mass: what `set` fills with the new diagonal of M, which the simulation then writes
  /// into the system before restarting its solver. Null for every other field.
  std::shared_ptr<MassChange> mass;
};

/// What one component contributed to its system's matrices, for Simulation::ComponentMatrix.
/// Recorded by the builder when the component hands over a force field or a mass.
struct MatrixSource {
  std::string component;  ///< "<node path>/<component name>", e.g. "root/beam/FEM"
  ComponentMatrixKind kind = ComponentMatrixKind::kStiffness;
  int object = -1;  ///< index into Model::objects
  /// kStiffness: the force field (owned by the system, or by a mapped object's MappedForceField,
  /// for the simulation's lifetime); null for kMass.
  const ForceField* field = nullptr;
};

struct SimulationAccess {
  /// A simulation of `model` whose solver nodes are `nodes` (each node's system an
  /// AssembledSystem). `registry` (may be null) creates replacement solvers for ReplaceSolver.
  /// `observers` (document order) are notified of the start before it returns; `mapped` objects
  /// get their state from their system's; `contacts` (null without a collision pipeline) runs
  /// before the solvers of every step. `runtime_fields` are what SetComponentField may change,
  /// `matrix_sources` what ComponentMatrix assembles.
  /// Throws ConfigError when a solver refuses the system at initialisation, SceneError when an
  /// observer fails at the start.
  static Simulation Create(std::shared_ptr<const Model> model, std::vector<SolverNode> nodes,
                           std::shared_ptr<const ComponentRegistry> registry,
                           std::vector<ObserverSlot> observers = {},
                           std::vector<MappedRuntime> mapped = {},
                           std::unique_ptr<ContactStage> contacts = nullptr,
                           std::vector<RuntimeField> runtime_fields = {},
                           std::vector<MatrixSource> matrix_sources = {});
  /// Gives `simulation` its nodes' topologies (NodeTopologies).
  static void SetNodeTopologies(Simulation& simulation, std::vector<TopologyModel> topologies);
  static std::vector<TopologyModel> NodeTopologies(const Simulation& simulation);
  /// Gives `simulation` the hooks its components run before each step (mechanics/step_start.h).
  static void SetStepStarts(Simulation& simulation, std::vector<StepStart> hooks);
  /// Gives `simulation` the stage that applies its topological changes.
  static void SetTopologyChanges(Simulation& simulation,
                                 std::unique_ptr<TopologyChangeStage> stage);
  /// After a topological change: `running` continues with the model, solver nodes, mapped
  /// objects, contact stage, runtime fields and matrix sources of `rebuilt` (a build of the same
  /// scene on the changed topology). Its time, step count, observers and change stage stay. Each
  /// object's positions and velocities are `states`' for the objects listed there (by index),
  /// else the running ones (which must have the same size); the solvers start afresh (their
  /// workspace is the rebuilt one's, initialised for the new system).
  struct ObjectState {
    int object = -1;
    Vector x, v;
  };
  static void AdoptRebuilt(Simulation& running, Simulation rebuilt,
                           const std::vector<ObjectState>& states);
  // For topological changes followed in place (build/topology_in_place.h,
  // runtime/in_place_access.cpp).
  /// The solver node that moves `object`, or null (a static or mapped object).
  static SolverNode* SolverNodeOf(Simulation& simulation, int object);
  /// What ComponentMatrix assembles: each component's force fields and masses.
  static const std::vector<MatrixSource>& MatrixSources(const Simulation& simulation);
  /// The topology NodeTopologies reports for node `node_path`, or null.
  static const Topology* NodeTopology(const Simulation& simulation, std::string_view node_path);
  /// Node `node_path`'s topology becomes `topology`, and so does every object's that was the
  /// same (the running simulation then continues on a copy of its model; the first model stays
  /// alive, as AdoptRebuilt keeps it: observers built on it may point into it).
  static void ReplaceNodeTopology(Simulation& simulation, std::string_view node_path,
                                  std::shared_ptr<const Topology> topology);
  /// Why the points of `object` cannot be removed in place (RemoveObjectPoints), or null: they
  /// must be the last DOFs of their system, no mapped object may read that system, and the
  /// system may receive no contacts (a collision pipeline whose models are elsewhere is no
  /// obstacle).
  static const char* PointRemovalRefusal(const Simulation& simulation, int object);
  /// SOFA's removal of points from `object` (PointSetTopologyModifier::removePointsProcess): for
  /// each i, point removed[i] takes the values of point moved[i] (the object's last point then),
  /// in the state and the model's initial vectors; then the object has removed.size() points
  /// fewer. The state shrinks in place (conservativeResize of a vector keeps its buffer); the
  /// model is copied first if observers may point into it (the first change only). The system
  /// is the caller's.
  static void RemoveObjectPoints(Simulation& simulation, int object, std::span<const Index> removed,
                                 std::span<const Index> moved);
  /// The simulation's collision pipeline stage, null without one.
  static const ContactStage* ContactStageOf(const Simulation& simulation);
  /// The same, to follow a topological change in place (between steps).
  static ContactStage* MutableContactStageOf(Simulation& simulation);
};

}  // namespace fluxion::internal
