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

/// The number of points of each object, the layout of a writer whose rows keep the columns of
/// its Begin.
std::vector<Index> ObjectPointCounts(const Simulation& simulation);

/// Empty while every object still has the points of `points` (ObjectPointCounts at Begin), else
/// why a writer of fixed columns (`format`: "a CSV trajectory") stops: a topological change
/// (TopologicalChangeProcessor) changed an object's points.
std::string ChangedPointsError(const Simulation& simulation, const std::vector<Index>& points,
                               std::string_view format);

}  // namespace fluxion::internal
