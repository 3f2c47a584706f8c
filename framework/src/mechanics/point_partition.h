// A fixed split of a mesh's points into contiguous ranges, one per thread, with the elements
// that touch each range: the basis of thread-count-independent element loops.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fluxion/types.h"

namespace fluxion::internal {

/// Points are identified by an index (a spring's first DOF, or a point number); the partition
/// splits the index line at `ranges − 1` boundaries into contiguous ranges, balanced by the
/// number of element ends each holds, and lists, for each range, the elements with at least one
/// end in it, in ascending element order.
///
/// Why: an element loop that scatters into its ends (f_a += …, f_b −= …) is run in parallel
/// without atomics and without changing a bit. Thread r walks elements(r) in element order and
/// writes only the ends it owns (Owns(r, p)); an element with ends in two ranges is evaluated by
/// both threads (on a mesh numbered by rows only the elements crossing a boundary row are). Each
/// point then receives exactly the terms it receives in the serial loop, in the same order, so the
/// sum is the same to the bit whatever the number of ranges. Matrix entries owned by their column
/// point are handled the same way.
class PointPartition {
 public:
  PointPartition() = default;
  /// `ends`: `ends_per_element` point indices per element, element after element.
  PointPartition(int ranges, std::span<const Index> ends, int ends_per_element);
  /// The same with the ends read in place: end k of element e is `end_of(e, k)` (no list of the
  /// ends is made: a partition of a large mesh's springs costs its element lists only).
  template <class EndOf>
  PointPartition(int ranges, std::size_t elements, int ends_per_element, const EndOf& end_of)
      : PointPartition(
            ranges, elements, ends_per_element,
            [](const void* context, std::size_t e, int k) {
              return (*static_cast<const EndOf*>(context))(e, k);
            },
            &end_of) {}

  int ranges() const { return static_cast<int>(bounds_.size()) - 1; }
  /// Range r owns the points p with begin(r) ≤ p < end(r) (the first and last ranges are open).
  bool Owns(int r, Index p) const {
    return p >= bounds_[static_cast<std::size_t>(r)] &&
           p < bounds_[static_cast<std::size_t>(r) + 1];
  }
  /// The elements with an end in range r, ascending.
  std::span<const std::uint32_t> elements(int r) const {
    return {element_ids_.data() + offsets_[static_cast<std::size_t>(r)],
            element_ids_.data() + offsets_[static_cast<std::size_t>(r) + 1]};
  }

 private:
  using EndReader = Index (*)(const void* context, std::size_t element, int end);
  PointPartition(int ranges, std::size_t elements, int ends_per_element, EndReader end_of,
                 const void* context);

  std::vector<Index> bounds_ = {0, 0};  // ranges + 1 boundaries; the outer two are ±∞
  std::vector<std::size_t> offsets_ = {0, 0};
  std::vector<std::uint32_t> element_ids_;
};

}  // namespace fluxion::internal
