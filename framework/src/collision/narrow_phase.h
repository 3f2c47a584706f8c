// The contacts of one pair of models: their bounding trees traversed together down to pairs of
// elements whose boxes overlap, each pair tested (SOFA's BVHNarrowPhase).
#pragma once

#include <span>
#include <vector>

#include "collision/bounding_tree.h"
#include "collision/broad_phase.h"
#include "collision/collision_rules.h"

namespace fluxion::internal::collision {

/// One side of a model pair: its tree, its elements' boxes, its element rules.
struct NarrowSide {
  const BoundingTree* tree = nullptr;
  std::span<const Box> leaves;
  RuleModel rules;
};

/// SOFA's BVHNarrowPhase (Sofa/Component/Collision/Detection/Algorithm/src/sofa/component/
/// collision/detection/algorithm/BVHNarrowPhase.cpp): from the two roots, a pair of cells is
/// opened when their boxes overlap within the pair's alarm distance, down to the elements' own
/// boxes; an element pair whose boxes overlap is tested (for models of one node, only when the
/// element rules allow it: finalCollisionPairs). A model paired with itself is traversed as two
/// models, so both (i, j) and (j, i) are examined, as in SOFA. The set found is that of every
/// element pair whose boxes overlap (a box holds its cells' boxes), whatever the trees' shapes.
///
/// Deviation (order only): SOFA reports contacts in its traversal order; Fluxion sorts them by
/// (element of model 0, element of model 1, order within the test), which does not depend on the
/// tree or the thread count. With `threads` > 1 the top pairs of cells are dealt to the threads in
/// turn; every contact is computed by the same code from the same numbers, so the bits are the
/// same for any count.
class NarrowPhase {
 public:
  /// Replaces `out` with the contacts of `plan`'s models. `all_pairs`: test every element pair,
  /// without boxes (a reference for tests). No allocation once the buffers have grown.
  void Run(const ModelPairPlan& plan, const ElementPair& geometry, const NarrowSide (&sides)[2],
           int threads, bool all_pairs, std::vector<DetectionOutput>& out);

 private:
  struct Key {
    Index e0, e1;
    int sub, thread, index;
  };
  // One cache line (or more) per thread: the vectors' ends move with every push_back, and two
  // threads' buffers on one line would make each push_back a cache miss on the other core.
  struct alignas(64) ThreadBuffer {
    std::vector<DetectionOutput> outputs;
    std::vector<Key> keys;
  };
  struct Job;

  static void Descend(const Job& job, int a, int b, ThreadBuffer& buffer, int thread);
  static void TestElements(const Job& job, Index i, Index j, ThreadBuffer& buffer, int thread);
  void Frontier(const Job& job, int threads);

  std::vector<ThreadBuffer> buffers_;
  std::vector<std::array<int, 2>> frontier_, next_;
  std::vector<Key> keys_;
};

}  // namespace fluxion::internal::collision
