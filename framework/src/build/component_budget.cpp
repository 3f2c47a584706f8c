// The build context's part for the memory budget (--max-memory, build/memory_charges.h): how
// many points and springs a component may still add, and the refusal of one that would exceed
// it. Split from component_build_context.cpp.
#include <algorithm>
#include <cmath>
#include <string>

#include "build/component_build_context.h"
#include "build/memory_charges.h"

namespace fluxion::internal {

namespace {
// A count the memory budget allows, as the integer type asked for (the budget may be infinite).
template <class Count>
Count Allowed(double count) {
  if (!(count > 0.0)) return 0;
  return count >= 0x1p62 ? Count{1} << 62 : static_cast<Count>(count);
}
}  // namespace

Index ComponentBuildContext::max_scene_points() const {
  const double left = state_.memory.bytes - state_.data_bytes -
                      BuildState::EstimatedBytes(0, static_cast<double>(state_.total_springs));
  return Allowed<Index>(std::floor(left / kBytesPerPoint));
}

std::size_t ComponentBuildContext::spring_budget() const {
  const double left = state_.memory.bytes - state_.estimated_bytes();
  return Allowed<std::size_t>(std::floor(left / kBytesPerSpring));
}

bool ComponentBuildContext::ReserveSprings(std::size_t count) {
  if (count > spring_budget()) {
    const double springs = static_cast<double>(state_.total_springs + count);
    const double points =
        static_cast<double>(std::max(state_.topology_points, state_.object_points));
    Error("<" + type() + "> brings the scene to " + std::to_string(state_.total_springs + count) +
          " springs, about " + FormatBytes(BuildState::EstimatedBytes(points, springs)) +
          " of memory with its " + std::to_string(static_cast<Index>(points)) +
          " points (expected at most " + state_.MemoryBudgetText() + ")");
    return false;
  }
  state_.total_springs += count;
  return true;
}

}  // namespace fluxion::internal
