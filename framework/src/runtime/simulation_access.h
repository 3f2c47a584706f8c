// How the scene builder creates a public Simulation: the runtime's own constructor.
#pragma once

#include <memory>
#include <vector>

#include "fluxion/simulation.h"
#include "mechanics/assembled_system.h"
#include "registry/component_registry.h"

namespace fluxion::internal {

struct SimulationAccess {
  /// A simulation of `model` whose solver nodes are `nodes` (each node's system an
  /// AssembledSystem). `registry` (may be null) creates replacement solvers for ReplaceSolver.
  /// Throws ConfigError when a solver refuses the system at initialisation.
  static Simulation Create(std::shared_ptr<const Model> model, std::vector<SolverNode> nodes,
                           std::shared_ptr<const ComponentRegistry> registry);
};

}  // namespace fluxion::internal
