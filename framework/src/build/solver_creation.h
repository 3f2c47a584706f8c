// The last pass of the scene builder: each solver node's ODE solver, linear solver and assembled
// system.
#pragma once

#include <vector>

#include "build/build_state.h"
#include "fluxion/simulation.h"

namespace fluxion::internal {

/// One SolverNode per solver system, in document order; problems are recorded.
std::vector<SolverNode> CreateSolverNodes(BuildState& state);
/// Wraps the linear solver of each node that holds a MatrixLinearSystem in a recorder of the
/// last system it solved (Simulation::LastLinearSystem). Call once the linear solvers are final
/// (after CheckContactSolvers).
void RecordLinearSystems(const BuildState& state, std::vector<SolverNode>& nodes);

}  // namespace fluxion::internal
