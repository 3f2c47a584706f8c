#include "components/point_selection.h"

#include <algorithm>

#include "fluxion/text.h"

namespace fluxion::internal {

std::string PointCount(Index points) {
  return std::to_string(points) + (points == 1 ? " point" : " points");
}

std::string PointLimitText(const BuildContext& context, Index limit) {
  std::string text = "at most " + std::to_string(limit) + " points in the whole scene";
  if (limit >= context.max_scene_points())
    text += ", for a memory budget of " + context.memory_budget_text();
  return text;
}

MeshBudget MeshBudgetOf(const BuildContext& context) {
  return {.max_points = std::max<Index>(0, context.max_scene_points() - context.topology_points()),
          .text = PointLimitText(context, context.max_scene_points())};
}

bool CheckIndex(BuildContext& context, Index index, const ObjectModel& object,
                const std::string& what, std::optional<double> written) {
  if (index < object.num_points) return true;
  context.Error("<" + context.type() + "> " + what + " " +
                (written ? FormatReal(*written) : std::to_string(index)) +
                " is out of range (object '" + object.id + "' has " +
                PointCount(object.num_points) + ": expected 0.." +
                std::to_string(object.num_points - 1) + ")");
  return false;
}

std::vector<Index> PointsOrAll(const Parameters& parameters, const char* field,
                               const ObjectModel& object) {
  std::vector<Index> points = parameters.indices(field);
  if (points.empty())
    for (Index i = 0; i < object.num_points; ++i) points.push_back(i);
  return points;
}

bool PointDofs(BuildContext& context, const ObjectModel& object, const std::vector<Index>& points,
               std::vector<Index>& dofs) {
  for (const Index point : points) {
    if (!CheckIndex(context, point, object, "point")) return false;
    dofs.push_back(object.offset + point * object.dimension);
  }
  return true;
}

}  // namespace fluxion::internal
