// The trajectory's column names, shared by every writer (CSV header, HDF5 /columns).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/simulation.h"

namespace fluxion::internal {

/// The columns after step,time, in order: for each object its positions `<id>/p<i>.x…`, then its
/// velocities `<id>/v<i>.x…`; with `solver_outputs`, `<node path>/<solver>/<output>` of each
/// solver node; with `energy`, kinetic, potential, total.
std::vector<std::string> TrajectoryColumns(const Simulation& simulation, bool solver_outputs,
                                           bool energy);

/// The same columns one by one, without holding them all (a 256² cloth has 393,216).
void ForEachTrajectoryColumn(const Simulation& simulation, bool solver_outputs, bool energy,
                             const std::function<void(std::string_view)>& visit);

}  // namespace fluxion::internal
