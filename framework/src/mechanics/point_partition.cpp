#include "mechanics/point_partition.h"

#include <algorithm>
#include <limits>

#include "fluxion/errors.h"

namespace fluxion::internal {

PointPartition::PointPartition(int ranges, std::span<const Index> ends, int ends_per_element)
    : PointPartition(ranges, ends.size() / static_cast<std::size_t>(std::max(ends_per_element, 1)),
                     ends_per_element, [&](std::size_t e, int k) {
                       return ends[e * static_cast<std::size_t>(ends_per_element) +
                                   static_cast<std::size_t>(k)];
                     }) {}

PointPartition::PointPartition(int ranges, std::size_t elements, int ends_per_element,
                               EndReader end_of, const void* context) {
  FLUXION_DEMAND(ranges >= 1 && ends_per_element >= 1);
  FLUXION_DEMAND(elements <= std::numeric_limits<std::uint32_t>::max());
  const auto end = [&](std::size_t e, int k) { return end_of(context, e, k); };
  const std::size_t total = elements * static_cast<std::size_t>(ends_per_element);
  // Boundaries at the quantiles of the ends (boundary r is the end of rank total·r/ranges in
  // ascending order): each range holds about as many element ends (work) as the others. The
  // ranks are read from a count of the ends per point index when the indices are dense (DOF
  // or point numbers: 4 bytes per index), else from a sorted copy of the ends.
  bounds_.assign(static_cast<std::size_t>(ranges) + 1, 0);
  bounds_.front() = std::numeric_limits<Index>::min();
  bounds_.back() = std::numeric_limits<Index>::max();
  if (ranges > 1 && total > 0) {
    Index lowest = end(0, 0), highest = lowest;
    for (std::size_t e = 0; e < elements; ++e)
      for (int k = 0; k < ends_per_element; ++k) {
        lowest = std::min(lowest, end(e, k));
        highest = std::max(highest, end(e, k));
      }
    const auto rank = [&](int r) {
      return total * static_cast<std::size_t>(r) / static_cast<std::size_t>(ranges);
    };
    const auto span = static_cast<std::uint64_t>(highest) - static_cast<std::uint64_t>(lowest);
    if (span < 4 * static_cast<std::uint64_t>(total) + 1024) {
      std::vector<std::uint32_t> count(static_cast<std::size_t>(span) + 1, 0);
      for (std::size_t e = 0; e < elements; ++e)
        for (int k = 0; k < ends_per_element; ++k)
          ++count[static_cast<std::size_t>(end(e, k) - lowest)];
      std::size_t below = 0;  // ends smaller than index lowest + i
      int r = 1;
      for (std::size_t i = 0; i < count.size() && r < ranges; ++i) {
        below += count[i];
        while (r < ranges && rank(r) < below)
          bounds_[static_cast<std::size_t>(r++)] = lowest + static_cast<Index>(i);
      }
    } else {
      std::vector<Index> sorted;
      sorted.reserve(total);
      for (std::size_t e = 0; e < elements; ++e)
        for (int k = 0; k < ends_per_element; ++k) sorted.push_back(end(e, k));
      std::sort(sorted.begin(), sorted.end());
      for (int r = 1; r < ranges; ++r) bounds_[static_cast<std::size_t>(r)] = sorted[rank(r)];
    }
  }
  // Each range's elements, in element order (an element is listed once per range it touches),
  // counted first so that the lists are allocated once, at their size.
  const auto touches = [&](int r, std::size_t e) {
    for (int k = 0; k < ends_per_element; ++k)
      if (Owns(r, end(e, k))) return true;
    return false;
  };
  offsets_.assign(static_cast<std::size_t>(ranges) + 1, 0);
  for (int r = 0; r < ranges; ++r) {
    std::size_t listed = 0;
    for (std::size_t e = 0; e < elements; ++e) listed += touches(r, e) ? 1 : 0;
    offsets_[static_cast<std::size_t>(r) + 1] = offsets_[static_cast<std::size_t>(r)] + listed;
  }
  element_ids_.clear();
  element_ids_.reserve(offsets_.back());
  for (int r = 0; r < ranges; ++r)
    for (std::size_t e = 0; e < elements; ++e)
      if (touches(r, e)) element_ids_.push_back(static_cast<std::uint32_t>(e));
}

}  // namespace fluxion::internal
