// Passes 2–5 of the scene builder: components built by kind, in document order, through their
// registered build functions; the solver systems laid out; plugin force fields; mass checks.
#pragma once

#include <initializer_list>

#include "build/build_state.h"

namespace fluxion::internal {

/// Calls the build function of every valid component of `node` whose kind is in `kinds`, in
/// document order (force fields from a ForceFieldFactory are only collected, for
/// BuildPluginForceFields).
void BuildComponents(BuildState& state, Node& node, std::initializer_list<ComponentKind> kinds);

/// Gives each node its governing solver system and each object its place in it (offset), and
/// sizes the systems' parts (masses, fixed flags, external forces).
void LayOutSystems(BuildState& state);

/// Creates the force fields registered by plugins (ForceFieldFactory), once every mass is known.
void BuildPluginForceFields(BuildState& state);

/// Every moving point needs a mass or a fixed constraint.
void CheckMasses(BuildState& state);

}  // namespace fluxion::internal
