#include "mechanics/point_partition.h"

#include <algorithm>
#include <limits>

#include "fluxion/errors.h"

namespace fluxion::internal {

PointPartition::PointPartition(int ranges, std::span<const Index> ends, int ends_per_element) {
  FLUXION_DEMAND(ranges >= 1 && ends_per_element >= 1);
  const std::size_t per = static_cast<std::size_t>(ends_per_element);
  const std::size_t elements = ends.size() / per;
  FLUXION_DEMAND(elements <= std::numeric_limits<std::uint32_t>::max());
  // Boundaries at the quantiles of the ends: each range holds about as many element ends (work)
  // as the others.
  std::vector<Index> sorted(ends.begin(), ends.end());
  std::sort(sorted.begin(), sorted.end());
  bounds_.assign(static_cast<std::size_t>(ranges) + 1, 0);
  bounds_.front() = std::numeric_limits<Index>::min();
  bounds_.back() = std::numeric_limits<Index>::max();
  for (int r = 1; r < ranges; ++r)
    bounds_[static_cast<std::size_t>(r)] =
        sorted.empty() ? 0
                       : sorted[sorted.size() * static_cast<std::size_t>(r) /
                                static_cast<std::size_t>(ranges)];
  // Each range's elements, in element order (an element is listed once per range it touches).
  offsets_.assign(static_cast<std::size_t>(ranges) + 1, 0);
  element_ids_.clear();
  for (int r = 0; r < ranges; ++r) {
    for (std::size_t e = 0; e < elements; ++e) {
      bool touches = false;
      for (std::size_t k = 0; k < per; ++k) touches = touches || Owns(r, ends[e * per + k]);
      if (touches) element_ids_.push_back(static_cast<std::uint32_t>(e));
    }
    offsets_[static_cast<std::size_t>(r) + 1] = element_ids_.size();
  }
}

}  // namespace fluxion::internal
