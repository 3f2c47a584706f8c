// Which DOFs of a solver's system something acts on, besides their masses: what decides whether
// a massless point may be held still (CheckMasses, build/component_passes.h).
#pragma once

#include <vector>

#include "build/build_state.h"
#include "build/collision_pipeline.h"

namespace fluxion::internal {

/// Per DOF of system `system`, 1 where some component of the scene could move it or couple it to
/// another DOF; 0 where only its masses and FixedProjectiveConstraints reach it. What counts:
///  - every force field's stiffness entries (row and column), and its damping entries that couple
///    two DOFs (a diagonal −c·v on a point at rest is 0 and stays 0);
///  - the DOFs a force without a Jacobian lists: a ConstantForceField's or pressure's constant
///    forces, key-framed and sinusoidal loads, edge pressures and Cauchy tractions (gravity through
///    a mass is not: m·g is 0 on a massless point whatever g is set to);
///  - a force field Fluxion cannot see into (no entries at all, a plugin's): every DOF;
///  - the mass couplings of consistent masses, SOFA's externalForce where it is not 0;
///  - point projectors (planes, lines, directions; a full or partial fix is no projector) and the
///    points of state constraints (movements);
///  - the columns of every mapping onto the system (a mapped child's masses, forces and collision
///    models act there through Jᵀ);
///  - the points of collision models whose object the system moves (`contacts`, may be null).
/// Deterministic (the scene's order); called only for a system with a massless free point.
std::vector<char> DofsInUse(const BuildState& state, int system, const ContactPlan* contacts);

}  // namespace fluxion::internal
