// The mutable state a solver advances.
#pragma once

#include "fluxion/types.h"

namespace fluxion {

/// Time, positions and velocities of the DOFs governed by one solver.
///
/// `x` and `v` hold the DOFs of every mechanical object under the solver's node, concatenated in
/// document order, point by point (x0, y0, z0, x1, ...). Both have `MechanicalSystem::num_dofs()`
/// entries. Time is in seconds and is advanced by `Solver::Step`, never by a solver's `DoStep`.
struct State {
  double time = 0.0;
  Vector x;
  Vector v;
};

}  // namespace fluxion
