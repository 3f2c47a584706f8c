#include "output/trajectory_columns.h"

#include "fluxion/text.h"

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

std::vector<Index> ObjectPointCounts(const Simulation& simulation) {
  std::vector<Index> points;
  for (const ObjectModel& object : simulation.objects()) points.push_back(object.num_points);
  return points;
}

std::string ChangedPointsError(const Simulation& simulation, const std::vector<Index>& points,
                               std::string_view format) {
  const std::vector<ObjectModel>& objects = simulation.objects();
  for (std::size_t k = 0; k < objects.size() && k < points.size(); ++k) {
    if (objects[k].num_points == points[k]) continue;
    return "'" + objects[k].id + "' has " + std::to_string(objects[k].num_points) +
           " points from step " + std::to_string(simulation.step_count()) +
           " (t = " + FormatReal(simulation.time()) + ") and had " + std::to_string(points[k]) +
           " (a topological change): " + std::string(format) +
           " keeps the columns of its first row, so it stops here with the rows written so far "
           "(expected a fixed number of points; --vtk writes each step's points)";
  }
  return "";
}

}  // namespace fluxion::internal
