#include "collision/bounding_tree.h"

#include <algorithm>

namespace fluxion::internal::collision {

namespace {

// The union of two boxes, coordinate by coordinate (exact: min and max round nothing).
void Include(Box& box, const Box& other) {
  box.min = box.min.cwiseMin(other.min);
  box.max = box.max.cwiseMax(other.max);
}

// CubeCollisionModel's split axis: the longest side, the later axis unless strictly shorter.
int SplitAxis(const Box& box) {
  const Vec3 l = box.max - box.min;
  if (l[0] > l[1]) return l[0] > l[2] ? 0 : 2;
  return l[1] > l[2] ? 1 : 2;
}

}  // namespace

void BoundingTree::UpdateBox(Node& node, std::span<const Box> leaves) const {
  if (node.first_child >= 0) {
    node.box = nodes_[static_cast<std::size_t>(node.first_child)].box;
    Include(node.box, nodes_[static_cast<std::size_t>(node.first_child) + 1].box);
    return;
  }
  node.box = leaves[static_cast<std::size_t>(order_[static_cast<std::size_t>(node.begin)])];
  for (Index i = node.begin + 1; i < node.end; ++i)
    Include(node.box, leaves[static_cast<std::size_t>(order_[static_cast<std::size_t>(i)])]);
}

void BoundingTree::Build(std::span<const Box> leaves, int max_depth) {
  nodes_.clear();
  order_.resize(leaves.size());
  for (std::size_t i = 0; i < leaves.size(); ++i) order_[i] = static_cast<Index>(i);
  if (leaves.empty()) return;
  nodes_.push_back(
      Node{.box = {}, .first_child = -1, .begin = 0, .end = static_cast<Index>(leaves.size())});
  UpdateBox(nodes_[0], leaves);
  // Level by level: the cells of one level are nodes_[level_begin, level_end).
  std::size_t level_begin = 0;
  for (int level = 0; level < max_depth; ++level) {
    const std::size_t level_end = nodes_.size();
    for (std::size_t c = level_begin; c < level_end; ++c) {
      const Index begin = nodes_[c].begin, end = nodes_[c].end;
      if (end - begin <= 4) continue;  // SOFA splits only cells of more than 4 elements
      const int axis = SplitAxis(nodes_[c].box);
      std::stable_sort(order_.begin() + begin, order_.begin() + end, [&](Index a, Index b) {
        const Box& ba = leaves[static_cast<std::size_t>(a)];
        const Box& bb = leaves[static_cast<std::size_t>(b)];
        return ba.min[axis] + ba.max[axis] < bb.min[axis] + bb.max[axis];
      });
      const Index middle = begin + (end - begin + 1) / 2;
      nodes_[c].first_child = static_cast<int>(nodes_.size());
      nodes_.push_back(Node{.box = {}, .first_child = -1, .begin = begin, .end = middle});
      nodes_.push_back(Node{.box = {}, .first_child = -1, .begin = middle, .end = end});
      UpdateBox(nodes_[nodes_.size() - 2], leaves);
      UpdateBox(nodes_.back(), leaves);
    }
    if (nodes_.size() == level_end) break;  // nothing split: the tree is complete
    level_begin = level_end;
  }
}

void BoundingTree::Refit(std::span<const Box> leaves) {
  // Children come after their parents: update from the last node back to the root.
  for (std::size_t c = nodes_.size(); c-- > 0;) UpdateBox(nodes_[c], leaves);
}

int DepthForLeafCells(Index n, int depth) {
  int needed = 0;
  for (Index cells = 4; cells < n; cells *= 2) ++needed;
  return std::max(depth, needed);
}

}  // namespace fluxion::internal::collision
