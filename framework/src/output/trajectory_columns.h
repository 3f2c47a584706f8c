// The trajectory's column names, shared by every writer (CSV header, HDF5 /columns).
#pragma once

#include <string>
#include <vector>

#include "fluxion/simulation.h"

namespace fluxion::internal {

/// The columns after step,time, in order: for each object its positions `<id>/p<i>.x…`, then its
/// velocities `<id>/v<i>.x…`; with `solver_outputs`, `<node path>/<solver>/<output>` of each
/// solver node; with `energy`, kinetic, potential, total.
std::vector<std::string> TrajectoryColumns(const Simulation& simulation, bool solver_outputs,
                                           bool energy);

}  // namespace fluxion::internal
