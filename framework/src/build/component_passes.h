// Passes 2–5 of the scene builder: components built by kind, in document order, through their
// registered build functions; the solver systems laid out; plugin force fields; mass checks.
#pragma once

#include <initializer_list>

#include "build/build_state.h"
#include "build/collision_pipeline.h"

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

/// Every moving point needs a mass or a fixed constraint, with two exceptions SOFA's implicit
/// solvers share (nothing accelerates such a point: its row of the system and its right-hand side
/// are 0, so CG leaves dv = 0): an object whose node has no mass component, and a massless point
/// in no element of its node's topology that nothing else acts on (build/point_use.h; `contacts`
/// the scene's collision models, may be null). Both are held still (their DOFs fixed), with a
/// warning (at debug level on a rebuild after a topological change: said once, at load).
void CheckMasses(BuildState& state, const ContactPlan* contacts);

}  // namespace fluxion::internal
