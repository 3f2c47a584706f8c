// The last pass of the scene builder: each solver node's ODE solver, linear solver and assembled
// system.
#pragma once

#include <vector>

#include "build/build_state.h"
#include "fluxion/simulation.h"

namespace fluxion::internal {

/// One SolverNode per solver system, in document order; problems are recorded.
std::vector<SolverNode> CreateSolverNodes(BuildState& state);

}  // namespace fluxion::internal
