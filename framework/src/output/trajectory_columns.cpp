#include "output/trajectory_columns.h"

namespace fluxion::internal {

void ForEachTrajectoryColumn(const Simulation& simulation, bool solver_outputs, bool energy,
                             const std::function<void(std::string_view)>& visit) {
  static constexpr const char* kAxes[3] = {"x", "y", "z"};
  std::string column;
  for (const ObjectModel& object : simulation.objects())
    for (const char kind : {'p', 'v'})
      for (Index i = 0; i < object.num_points; ++i)
        for (int axis = 0; axis < object.dimension; ++axis) {
          column = object.id;
          column += '/';
          column += kind;
          column += std::to_string(i);
          column += '.';
          column += kAxes[axis];
          visit(column);
        }
  if (solver_outputs)
    for (const SolverNode& node : simulation.solver_nodes())
      for (const std::string& name : node.solver->OutputNames())
        visit(node.node_path + "/" + node.solver_type + "/" + name);
  if (energy)
    for (const char* name : {"kinetic", "potential", "total"}) visit(name);
}

std::vector<std::string> TrajectoryColumns(const Simulation& simulation, bool solver_outputs,
                                           bool energy) {
  std::vector<std::string> columns;
  ForEachTrajectoryColumn(simulation, solver_outputs, energy,
                          [&](std::string_view column) { columns.emplace_back(column); });
  return columns;
}

}  // namespace fluxion::internal
