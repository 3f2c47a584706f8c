#include "collision/narrow_phase.h"

#include <algorithm>
#include <tuple>

#include "fluxion/threads.h"

namespace fluxion::internal::collision {

struct NarrowPhase::Job {
  const ModelPairPlan* plan;
  const ElementPair* geometry;
  const NarrowSide* sides;
  const std::vector<std::array<int, 2>>* frontier;
  std::vector<ThreadBuffer>* buffers;
  int threads;

  const BoundingTree::Node& node(int side, int n) const {
    return sides[side].tree->nodes()[static_cast<std::size_t>(n)];
  }
  bool Overlap(int a, int b) const {
    return BoxesOverlap(node(0, a).box, node(1, b).box, plan->alarm_distance);
  }
};

void NarrowPhase::TestElements(const Job& job, Index i, Index j, ThreadBuffer& buffer, int thread) {
  if (job.plan->same_node && !CanCollideWithElement(job.sides[0].rules, i, job.sides[1].rules, j))
    return;
  const std::size_t first = buffer.outputs.size();
  job.plan->test(*job.geometry, i, j, buffer.outputs);
  for (std::size_t k = first; k < buffer.outputs.size(); ++k) {
    buffer.outputs[k].element = {i, j};
    buffer.keys.push_back(Key{i, j, static_cast<int>(k - first), thread, static_cast<int>(k)});
  }
}

void NarrowPhase::Descend(const Job& job, int a, int b, ThreadBuffer& buffer, int thread) {
  if (!job.Overlap(a, b)) return;
  const BoundingTree::Node& na = job.node(0, a);
  const BoundingTree::Node& nb = job.node(1, b);
  if (na.first_child >= 0 && nb.first_child >= 0) {
    for (int ca = 0; ca < 2; ++ca)
      for (int cb = 0; cb < 2; ++cb)
        Descend(job, na.first_child + ca, nb.first_child + cb, buffer, thread);
  } else if (na.first_child >= 0) {
    for (int ca = 0; ca < 2; ++ca) Descend(job, na.first_child + ca, b, buffer, thread);
  } else if (nb.first_child >= 0) {
    for (int cb = 0; cb < 2; ++cb) Descend(job, a, nb.first_child + cb, buffer, thread);
  } else {
    // Two bottom cells: their elements' own boxes, then the elements.
    const auto& order_a = job.sides[0].tree->element_order();
    const auto& order_b = job.sides[1].tree->element_order();
    for (Index x = na.begin; x < na.end; ++x) {
      const Index i = order_a[static_cast<std::size_t>(x)];
      for (Index y = nb.begin; y < nb.end; ++y) {
        const Index j = order_b[static_cast<std::size_t>(y)];
        if (BoxesOverlap(job.sides[0].leaves[static_cast<std::size_t>(i)],
                         job.sides[1].leaves[static_cast<std::size_t>(j)],
                         job.plan->alarm_distance))
          TestElements(job, i, j, buffer, thread);
      }
    }
  }
}

// The pairs of cells the threads share: from the roots, overlapping pairs of internal cells are
// opened, breadth first, until there are several per thread (or nothing left to open).
void NarrowPhase::Frontier(const Job& job, int threads) {
  frontier_.clear();
  frontier_.push_back({0, 0});
  const std::size_t wanted = threads > 1 ? static_cast<std::size_t>(16 * threads) : 1;
  while (frontier_.size() < wanted) {
    next_.clear();
    bool opened = false;
    for (const auto& [a, b] : frontier_) {
      const BoundingTree::Node& na = job.node(0, a);
      const BoundingTree::Node& nb = job.node(1, b);
      if (!job.Overlap(a, b)) continue;
      if (na.first_child < 0 && nb.first_child < 0) {
        next_.push_back({a, b});
        continue;
      }
      opened = true;
      for (int ca = 0; ca < (na.first_child >= 0 ? 2 : 1); ++ca)
        for (int cb = 0; cb < (nb.first_child >= 0 ? 2 : 1); ++cb)
          next_.push_back({na.first_child >= 0 ? na.first_child + ca : a,
                           nb.first_child >= 0 ? nb.first_child + cb : b});
    }
    frontier_.swap(next_);
    if (!opened) break;
  }
}

void NarrowPhase::Run(const ModelPairPlan& plan, const ElementPair& geometry,
                      const NarrowSide (&sides)[2], int threads, bool all_pairs,
                      std::vector<DetectionOutput>& out) {
  threads = std::max(1, threads);
  if (static_cast<int>(buffers_.size()) < threads)
    buffers_.resize(static_cast<std::size_t>(threads));
  for (ThreadBuffer& buffer : buffers_) {
    buffer.outputs.clear();
    buffer.keys.clear();
  }
  Job job{&plan, &geometry, sides, &frontier_, &buffers_, threads};
  if (all_pairs) {
    threads = 1;
    for (Index i = 0; i < geometry.size(0); ++i)
      for (Index j = 0; j < geometry.size(1); ++j) TestElements(job, i, j, buffers_[0], 0);
  } else {
    Frontier(job, threads);
    if (threads > 1 && frontier_.size() > 1) {
      RunParallelTasks(
          threads,
          [](void* context, int thread) {
            const Job& j = *static_cast<const Job*>(context);
            ThreadBuffer& buffer = (*j.buffers)[static_cast<std::size_t>(thread)];
            for (std::size_t k = static_cast<std::size_t>(thread); k < j.frontier->size();
                 k += static_cast<std::size_t>(j.threads))
              Descend(j, (*j.frontier)[k][0], (*j.frontier)[k][1], buffer, thread);
          },
          &job);
    } else {
      threads = 1;
      for (const auto& [a, b] : frontier_) Descend(job, a, b, buffers_[0], 0);
    }
  }
  // Every thread's contacts, in (element 0, element 1, order within the test).
  keys_.clear();
  for (int t = 0; t < threads; ++t)
    keys_.insert(keys_.end(), buffers_[static_cast<std::size_t>(t)].keys.begin(),
                 buffers_[static_cast<std::size_t>(t)].keys.end());
  std::sort(keys_.begin(), keys_.end(), [](const Key& x, const Key& y) {
    return std::tie(x.e0, x.e1, x.sub) < std::tie(y.e0, y.e1, y.sub);
  });
  out.resize(keys_.size());
  for (std::size_t k = 0; k < keys_.size(); ++k)
    out[k] = buffers_[static_cast<std::size_t>(keys_[k].thread)]
                 .outputs[static_cast<std::size_t>(keys_[k].index)];
}

}  // namespace fluxion::internal::collision
