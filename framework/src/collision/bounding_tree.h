// A collision model's bounding-box hierarchy, built by SOFA's rule (CubeCollisionModel).
#pragma once

#include <span>
#include <vector>

#include "collision/detection.h"

namespace fluxion::internal::collision {

/// An axis-aligned box (SOFA's Cube: minBBox, maxBBox).
struct Box {
  Vec3 min = Vec3::Zero();
  Vec3 max = Vec3::Zero();
};

/// SOFA's proximity test of two cubes (BaseProximityIntersection::testIntersection(Cube, Cube);
/// DiscreteIntersection's with margin 0): they overlap unless, on some axis, one box starts
/// beyond the other's end plus `margin`.
inline bool BoxesOverlap(const Box& a, const Box& b, double margin) {
  for (int i = 0; i < 3; ++i)
    if (a.min[i] > b.max[i] + margin || b.min[i] > a.max[i] + margin) return false;
  return true;
}

/// The hierarchy of SOFA's CubeCollisionModel::computeBoundingTree
/// (Sofa/Component/Collision/Geometry/src/sofa/component/collision/geometry/
/// CubeCollisionModel.cpp), over the boxes of a model's elements (its leaf cubes):
/// - the root covers every element; level by level, a cell of more than 4 elements is split in
///   two: its elements are stably sorted by min + max of their boxes along the longest side of the
///   cell's box (of equal sides, the later axis), the first ⌈n/2⌉ go to the first child; cells
///   of at most 4 elements stay whole;
/// - the structure is built once (Build) and afterwards only its boxes are updated, bottom-up
///   (Refit: SOFA's updateCubes, used while the model's size does not change).
/// Deviation: SOFA stops splitting at `depth` levels (CollisionPipeline's depth, 6 by default),
/// leaving cells of up to n/2⁶ elements whose pairs are all tested; Fluxion's callers pass a
/// depth large enough for cells of at most 4 elements, so that the narrow phase costs
/// O(n log n). The contacts found do not depend on the tree.
class BoundingTree {
 public:
  struct Node {
    Box box;
    int first_child = -1;  ///< children first_child and first_child + 1; −1: a bottom cell
    Index begin = 0;       ///< the cell's elements: element_order()[begin, end)
    Index end = 0;
  };

  /// Builds the hierarchy over `leaves` (one box per element), at most `max_depth` levels
  /// below the root. Allocates.
  void Build(std::span<const Box> leaves, int max_depth);
  /// Updates every cell's box from the leaves' new boxes, keeping the structure. No allocation.
  void Refit(std::span<const Box> leaves);

  bool empty() const { return nodes_.empty(); }
  const std::vector<Node>& nodes() const { return nodes_; }
  /// The elements in the order cells reference them.
  const std::vector<Index>& element_order() const { return order_; }

 private:
  void UpdateBox(Node& node, std::span<const Box> leaves) const;

  std::vector<Node> nodes_;  ///< parents before children (level by level); nodes_[0] the root
  std::vector<Index> order_;
};

/// The depth at which every cell of a tree over `n` elements holds at most 4 (SOFA's split rule),
/// or `depth` when that is deeper.
int DepthForLeafCells(Index n, int depth);

}  // namespace fluxion::internal::collision
