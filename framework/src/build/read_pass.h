// Pass 1 of the scene builder: the node tree with every component's fields parsed and checked,
// unknown components reported, and each node's composition checked (at most one object, mass,
// topology and ODE solver per node).
#pragma once

#include "build/build_state.h"

namespace fluxion::internal {

/// Reads the whole scene into `state.root`; problems are recorded in `state.problems`.
void ReadSceneTree(BuildState& state);

/// Records a second object, mass, topology or ODE solver in a node as a problem and sets each
/// node's `solver`.
void CheckNodeComposition(BuildState& state, Node& node);

}  // namespace fluxion::internal
