// Which pairs of models the narrow phase examines, in SOFA's order (BruteForceBroadPhase).
#pragma once

#include <vector>

#include "collision/intersector_table.h"

namespace fluxion::internal::collision {

/// A pair of models that may collide, in the order of its element test (model[0] is the model
/// of DetectionOutput::point[0]), with the pair's distances.
struct ModelPairPlan {
  int model[2] = {-1, -1};
  ElementTest test = nullptr;
  bool needs_inside_projection = false;  ///< Intersector::needs_inside_projection
  /// Alarm and contact distances of the pair (ElementPair), and the margin of its box tests:
  /// the alarm distance (BaseProximityIntersection and DiscreteIntersection cube tests).
  double alarm_distance = 0.0;
  double contact_distance = 0.0;
  /// Both models in one node: the element rules (CanCollideWithElement) apply
  /// (BVHNarrowPhase::isSelfCollision).
  bool same_node = false;
};

/// The model pairs of SOFA's BruteForceBroadPhase::addCollisionModel (Sofa/Component/Collision/
/// Detection/Algorithm/src/sofa/component/collision/detection/algorithm/BruteForceBroadPhase.cpp),
/// which do not depend on positions: models are taken in order, active and non-empty ones only
/// (`sizes[m]` elements); a model first with itself when it is simulated, canCollideWith itself
/// (selfCollision) and the method has a test for its kind twice; then with each earlier model,
/// unless neither is simulated, either refuses the other (CanCollideWith) or the method has no
/// test for the two kinds — the pair is (this model, the earlier one), swapped when the method
/// takes them the other way round. What SOFA checks per step on top of this, whether the two
/// models' root boxes overlap within the pair's alarm distance, is the caller's (Detection).
std::vector<ModelPairPlan> PlanModelPairs(const std::vector<CollisionModelDescription>& models,
                                          const std::vector<Index>& sizes,
                                          const IntersectionSettings& settings);

}  // namespace fluxion::internal::collision
