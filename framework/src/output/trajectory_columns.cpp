#include "output/trajectory_columns.h"

namespace fluxion::internal {

std::vector<std::string> TrajectoryColumns(const Simulation& simulation, bool solver_outputs,
                                           bool energy) {
  static constexpr const char* kAxes[3] = {"x", "y", "z"};
  std::vector<std::string> columns;
  for (const ObjectModel& object : simulation.objects())
    for (const char kind : {'p', 'v'})
      for (Index i = 0; i < object.num_points; ++i)
        for (int axis = 0; axis < object.dimension; ++axis)
          columns.push_back(object.id + "/" + kind + std::to_string(i) + "." + kAxes[axis]);
  if (solver_outputs)
    for (const SolverNode& node : simulation.solver_nodes())
      for (const std::string& name : node.solver->OutputNames())
        columns.push_back(node.node_path + "/" + node.solver_type + "/" + name);
  if (energy)
    for (const char* name : {"kinetic", "potential", "total"}) columns.emplace_back(name);
  return columns;
}

}  // namespace fluxion::internal
