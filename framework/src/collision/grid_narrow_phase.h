// The contacts of a pair of models one of which does not move (a static obstacle), found through
// that model's StaticGrid: each element of the moving model asks for the static elements near it.
#pragma once

#include <span>
#include <vector>

#include "collision/narrow_phase.h"
#include "collision/proximity_geometry.h"
#include "collision/static_grid.h"

namespace fluxion::internal::collision {

/// The narrow phase of a model pair whose model `static_side` keeps its boxes (not `moving`):
/// each element of the other model, in index order, asks the static model's grid for the
/// elements whose boxes overlap its own within the pair's alarm distance, and each such pair is
/// tested (for models of one node only when the element rules allow it). These are the pairs
/// NarrowPhase (SOFA's BVHNarrowPhase) tests, by the same test on the same numbers, so the
/// contacts are the same, bit for bit, and they are put in NarrowPhase's order: (element of
/// model 0, element of model 1, order within the test). Walking model 1's elements in order
/// (static model 0), a stable counting sort by model 0's element gives that order; walking
/// model 0's (static model 1), each element's few candidates are sorted before they are tested.
///
/// With several threads each takes a contiguous range of the moving model's elements into its
/// own buffer; the buffers are read in range order, so the result does not depend on the count.
/// Per element the cost is a few cells and the boxes in them, instead of a descent from the
/// roots of two trees, and the moving model needs no tree at all.
class GridNarrowPhase {
 public:
  /// Replaces `out` with the contacts of `plan`'s models; `grid` is the grid of model
  /// `static_side`'s boxes (sides[static_side].leaves). No allocation once the buffers have grown.
  /// `planes`: when not empty, static model 0's triangles at the current positions; a pair whose
  /// test needs an inside projection (ModelPairPlan::needs_inside_projection) is then tested only
  /// when MayProjectInside, which rejects no pair the test would keep.
  void Run(const ModelPairPlan& plan, const ElementPair& geometry, const NarrowSide (&sides)[2],
           int static_side, const StaticGrid& grid, std::span<const TrianglePlane> planes,
           int threads, std::vector<DetectionOutput>& out);

 private:
  // One cache line (or more) per thread: the vectors' ends move with every push_back, and two
  // threads' buffers on one line would make each push_back a cache miss on the other core.
  struct alignas(64) ThreadBuffer {
    std::vector<DetectionOutput> outputs;
    std::vector<Index> candidates;
  };
  struct Job;

  static void Sweep(const Job& job, int task);

  std::vector<ThreadBuffer> buffers_;
  std::vector<std::size_t> next_;  // the counting sort's next slot per element of model 0
};

}  // namespace fluxion::internal::collision
