#include "collision/grid_narrow_phase.h"

#include <algorithm>

#include "fluxion/threads.h"

namespace fluxion::internal::collision {

namespace {

// Elements of the moving model per thread at least: fewer are not worth a parallel region.
constexpr Index kElementsPerTask = 256;

}  // namespace

struct GridNarrowPhase::Job {
  const ModelPairPlan* plan;
  const ElementPair* geometry;
  const NarrowSide* sides;
  const StaticGrid* grid;
  std::span<const TrianglePlane> planes;  // empty: no early rejection
  std::vector<ThreadBuffer>* buffers;
  int static_side;
  int tasks;

  // NarrowPhase::TestElements without its sort keys: the rules, the test, the elements.
  void Test(Index i, Index j, std::vector<DetectionOutput>& outputs) const {
    if (plan->same_node && !CanCollideWithElement(sides[0].rules, i, sides[1].rules, j)) return;
    const std::size_t first = outputs.size();
    plan->test(*geometry, i, j, outputs);
    for (std::size_t k = first; k < outputs.size(); ++k) outputs[k].element = {i, j};
  }
};

void GridNarrowPhase::Sweep(const Job& job, int task) {
  const int moving = 1 - job.static_side;
  const auto [begin, end] = TaskRange(job.geometry->size(moving), job.tasks, task);
  ThreadBuffer& buffer = (*job.buffers)[static_cast<std::size_t>(task)];
  const double margin = job.plan->alarm_distance;
  for (Index e = begin; e < end; ++e) {
    const Box& box = job.sides[moving].leaves[static_cast<std::size_t>(e)];
    if (job.static_side == 0) {
      // Model 1's element e: the counting sort orders its contacts by model 0's element later.
      if (job.planes.empty()) {
        job.grid->ForEachOverlap(box, margin, [&](Index s) { job.Test(s, e, buffer.outputs); });
        continue;
      }
      // A point that does not project inside a static triangle has no contact with it.
      const Vec3 x = job.geometry->point(1, e, 0);
      job.grid->ForEachOverlap(box, margin, [&](Index s) {
        if (MayProjectInside(job.planes[static_cast<std::size_t>(s)], x))
          job.Test(s, e, buffer.outputs);
      });
      continue;
    }
    // Model 0's element e: its candidates in ascending order, so its contacts come sorted.
    buffer.candidates.clear();
    job.grid->ForEachOverlap(box, margin, [&](Index s) { buffer.candidates.push_back(s); });
    std::sort(buffer.candidates.begin(), buffer.candidates.end());
    for (const Index s : buffer.candidates) job.Test(e, s, buffer.outputs);
  }
}

void GridNarrowPhase::Run(const ModelPairPlan& plan, const ElementPair& geometry,
                          const NarrowSide (&sides)[2], int static_side, const StaticGrid& grid,
                          std::span<const TrianglePlane> planes, int threads,
                          std::vector<DetectionOutput>& out) {
  const Index moving_elements = geometry.size(1 - static_side);
  const int tasks = static_cast<int>(
      std::clamp<Index>(moving_elements / kElementsPerTask, 1, std::max(1, threads)));
  if (buffers_.size() < static_cast<std::size_t>(tasks))
    buffers_.resize(static_cast<std::size_t>(tasks));
  for (ThreadBuffer& buffer : buffers_) buffer.outputs.clear();
  const bool early_rejection = static_side == 0 && plan.needs_inside_projection;
  Job job{&plan,
          &geometry,
          sides,
          &grid,
          early_rejection ? planes : std::span<const TrianglePlane>{},
          &buffers_,
          static_side,
          tasks};
  if (tasks > 1)
    RunParallelTasks(
        tasks, [](void* context, int task) { Sweep(*static_cast<const Job*>(context), task); },
        &job);
  else
    Sweep(job, 0);

  std::size_t total = 0;
  for (int t = 0; t < tasks; ++t) total += buffers_[static_cast<std::size_t>(t)].outputs.size();
  out.resize(total);
  if (static_side == 1) {
    // Already in order, range after range.
    std::size_t k = 0;
    for (int t = 0; t < tasks; ++t)
      for (const DetectionOutput& o : buffers_[static_cast<std::size_t>(t)].outputs) out[k++] = o;
    return;
  }
  // A stable counting sort by model 0's element: for one element of model 0, its contacts keep
  // the sweep's order, ascending model 1's element, then the test's own order.
  next_.assign(static_cast<std::size_t>(geometry.size(0)) + 1, 0);
  for (int t = 0; t < tasks; ++t)
    for (const DetectionOutput& o : buffers_[static_cast<std::size_t>(t)].outputs)
      ++next_[static_cast<std::size_t>(o.element[0]) + 1];
  for (std::size_t i = 1; i < next_.size(); ++i) next_[i] += next_[i - 1];
  for (int t = 0; t < tasks; ++t)
    for (const DetectionOutput& o : buffers_[static_cast<std::size_t>(t)].outputs)
      out[next_[static_cast<std::size_t>(o.element[0])]++] = o;
}

}  // namespace fluxion::internal::collision
