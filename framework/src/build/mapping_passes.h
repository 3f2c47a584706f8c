// The scene builder's handling of mechanical mappings (BuildContext::MapObject): mapped objects
// have no DOFs of their own; what their components contribute is mapped onto the system that
// integrates the object they are mapped from.
#pragma once

#include "build/build_state.h"

namespace fluxion::internal {

/// After LayOutSystems: composes each mapping with its parent's down to the independent DOFs
/// (J ← J·J_parent, so a chain of mappings becomes one Jacobian onto the system), gives each
/// mapped object the system of the object it descends from, its initial state from that
/// object's, and its own parts (child DOFs, masses zero) for its components to fill.
void ComposeMappings(BuildState& state);

/// After the components: each mapped object's mass becomes Jᵀ·M·J in its system's mass, its
/// external force Jᵀ·f, and its force fields one MappedForceField (f += Jᵀ·f_c, K += Jᵀ·K_c·J).
/// Fills state.mapped_runtime for the simulation.
void FinalizeMappings(BuildState& state);

}  // namespace fluxion::internal
