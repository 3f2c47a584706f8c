// A state constraint (ProjectiveConstraint) whose point list follows a removal of points in place
// (build/topology_in_place.h), as SOFA's TopologySubsetIndices does (TopologySubsetData::remove:
// the removed point's entry dropped, the order of the others kept, the point then last renamed
// to the removed one's number). The internal constraints that implement it let
// AssembledSystem::RemovePointMovingLast follow them; any other makes a removal of points rebuild.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "fluxion/types.h"

namespace fluxion::internal {

class PointListFollower {
 public:
  /// Point `point` of the constraint's object is removed, the object's last point `last` taking
  /// its number (equal when the removed point was the last). Between steps only.
  virtual void RemovePointMovingLast(Index point, Index last) = 0;

 protected:
  ~PointListFollower() = default;
};

/// TopologySubsetData::remove on `points`, keeping per entry the `per_point` values of `data` in
/// step (empty: none): the entries of `point` dropped, `last` renamed `point`. Nothing allocated.
inline void RemoveMovingLast(std::vector<Index>& points, Index point, Index last,
                             std::vector<double>* data = nullptr, std::size_t per_point = 0) {
  for (std::size_t k = points.size(); k-- > 0;) {
    if (points[k] != point) continue;
    points.erase(points.begin() + static_cast<std::ptrdiff_t>(k));
    if (data != nullptr)
      data->erase(data->begin() + static_cast<std::ptrdiff_t>(k * per_point),
                  data->begin() + static_cast<std::ptrdiff_t>((k + 1) * per_point));
  }
  std::replace(points.begin(), points.end(), last, point);
}

}  // namespace fluxion::internal
