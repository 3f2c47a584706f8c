// Loops over the elements of a mesh (springs, tetrahedra, hexahedra) that give the same sums to
// the bit whatever the number of threads, and the scatter of dense element stiffness blocks into
// the system matrix: what every element force field otherwise writes again.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "fluxion/force_field.h"
#include "fluxion/threads.h"
#include "mechanics/point_partition.h"

namespace fluxion::internal {

/// Runs `loop(range)` on every range of a point partition in parallel when `count` elements are
/// enough for more than one task of `grain` elements; `partition(tasks)` is called first to
/// (re)build the partition for that many ranges. Returns false, having run nothing, when the
/// mesh is too small to split: the caller then runs its serial loop (usually `loop(-1)`).
template <class EnsurePartition, class RangeLoop>
bool RunOnRanges(Index count, Index grain, EnsurePartition&& partition, RangeLoop&& loop) {
  const int tasks = ParallelTaskCount(count, grain);
  if (tasks <= 1) return false;
  partition(tasks);
  RunParallelTasks(
      tasks,
      [](void* context, int range) {
        (*static_cast<std::remove_reference_t<RangeLoop>*>(context))(range);
      },
      &loop);
  return true;
}

/// Walks the elements of `range` in ascending order, calling `body(e, owns)` where `owns(dof)`
/// says whether this range writes point `dof`'s terms (range −1: every element, every point).
/// Each point then sums the same terms in the same order whatever the number of ranges (see
/// PointPartition).
template <class Body>
void ForElements(const PointPartition& partition, std::size_t count, int range, Body&& body) {
  if (range < 0) {
    for (std::size_t e = 0; e < count; ++e) body(e, [](Index) { return true; });
  } else {
    for (const std::uint32_t e : partition.elements(range))
      body(e, [&](Index dof) { return partition.Owns(range, dof); });
  }
}

/// The parallel loop of an element force field whose elements (items with `dof`, an std::array of
/// the first system DOF of each of their N vertices) scatter into their vertices: the partition
/// of the elements by vertex ranges, built when the thread count changes (never per step), and
/// the loop over it. A force field holds one (mutable: it is a cache of the elements' layout)
/// and writes every loop as
///
///     auto loop = [&](int range) {
///       /* per-range scratch */
///       partition_.ForElements(elements_.size(), range, [&](std::size_t e, const auto& owns) {
///         /* evaluate element e; write vertex a's terms only if owns(dof[a]) */
///       });
///     };
///     partition_.Run(elements_, kGrain, loop);
///
/// so that each vertex sums the same terms in the same order whatever the number of threads.
class ElementPartition {
 public:
  /// Runs `loop(range)` over the ranges in parallel when `elements` are enough for more than one
  /// task of `grain`, else `loop(-1)` (every element, serially).
  template <class Elements, class RangeLoop>
  void Run(const Elements& elements, Index grain, RangeLoop&& loop) const {
    const bool split = RunOnRanges(
        static_cast<Index>(elements.size()), grain,
        [&](int tasks) {
          if (partition_.ranges() == tasks) return;
          constexpr int n = static_cast<int>(std::tuple_size_v<decltype(elements.begin()->dof)>);
          partition_ = PointPartition(tasks, elements.size(), n, [&](std::size_t e, int end) {
            return elements[e].dof[static_cast<std::size_t>(end)];
          });
        },
        loop);
    if (!split) loop(-1);
  }

  /// Inside `loop(range)`: `body(e, owns)` for the elements of `range` (see the free ForElements).
  template <class Body>
  void ForElements(std::size_t count, int range, Body&& body) const {
    internal::ForElements(partition_, count, range, std::forward<Body>(body));
  }

  /// Forgets the partition (the elements or their vertices changed between steps): it is built
  /// again on its next use with several threads, as for a new field. Nothing is done (nor
  /// allocated) when it is forgotten already — one range is the default's, a built partition has
  /// several — so that a change renaming many elements one by one costs no allocation per element.
  void Reset() {
    if (partition_.ranges() != 1) partition_ = PointPartition();
  }

 private:
  mutable PointPartition partition_;
};

/// Appends the entries of the dense 3N×3N stiffness of each element of `elements` (anything
/// whose items have `dof`, an std::array of the first system DOF of each of their N vertices):
/// per element, blocks (a, b) in row-major order, each 3×3 row-major: 9N² entries per element,
/// the layout AddElementBlocks writes.
template <class Elements>
void AppendElementBlockEntries(const Elements& elements, std::vector<MatrixEntry>& entries) {
  if (elements.empty()) return;
  constexpr std::size_t n = std::tuple_size_v<decltype(elements.begin()->dof)>;
  entries.reserve(entries.size() + elements.size() * 9 * n * n);
  for (const auto& e : elements)
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b)
        for (Index i = 0; i < 3; ++i)
          for (Index j = 0; j < 3; ++j) entries.push_back({e.dof[a] + i, e.dof[b] + j});
}

/// values[slots] += the blocks (a, b) of one element's 3N×3N matrix `K` whose column vertex b
/// passes `owns(dof[b])`, with `element_slots` that element's 9N² slots in
/// AppendElementBlockEntries' order. (A slot belongs to one column vertex: the range owning it
/// writes the block, so threads never write the same slot.)
template <std::size_t N, class Matrix, class Owns>
void AddElementBlocks(const Matrix& K, const std::array<Index, N>& dof, const Index* element_slots,
                      double* values, const Owns& owns) {
  for (std::size_t a = 0; a < N; ++a)
    for (std::size_t b = 0; b < N; ++b) {
      if (!owns(dof[b])) continue;
      const Index* block = element_slots + (N * a + b) * 9;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          values[block[3 * i + j]] +=
              K(3 * static_cast<Index>(a) + i, 3 * static_cast<Index>(b) + j);
    }
}

}  // namespace fluxion::internal
