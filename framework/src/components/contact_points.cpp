#include "components/contact_points.h"

#include <cmath>

namespace fluxion::internal {

bool ContactPoints(BuildContext& context, const ObjectModel& object, std::vector<Index>& firsts) {
  const std::vector<double>& range = context.parameters().reals("localRange");
  if (range.size() != 2 || range[0] != std::floor(range[0]) || range[1] != std::floor(range[1])) {
    context.Error(context.type() + " 'localRange' needs 2 whole numbers (first last, -1 for all)");
    return false;
  }
  Index begin = 0, end = object.num_points;
  if (range[0] >= 0) begin = static_cast<Index>(range[0]);
  if (range[1] >= 0 && static_cast<Index>(range[1]) + 1 < end)
    end = static_cast<Index>(range[1]) + 1;
  for (Index i = begin; i < end; ++i) firsts.push_back(object.offset + i * object.dimension);
  return true;
}

}  // namespace fluxion::internal
