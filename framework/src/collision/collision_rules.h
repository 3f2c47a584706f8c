// Which models and which elements may collide: SOFA's CollisionModel::canCollideWith (groups,
// self-collision) and the models' canCollideWithElement (no contact between neighbours of one
// mesh when it collides with itself).
#pragma once

#include "collision/detection.h"
#include "collision/model_elements.h"

namespace fluxion::internal::collision {

/// SOFA's core::CollisionModel::canCollideWith (Sofa/framework/Core/src/sofa/core/
/// CollisionModel.cpp): two models of one node collide when `a` has selfCollision; otherwise they
/// collide unless they share a group (a model without groups collides with every model). The
/// broad phase asks both ways (BruteForceBroadPhase::keepCollisionBetween).
bool CanCollideWith(const CollisionModelDescription& a, const CollisionModelDescription& b);

/// A model as the element rules see it.
struct RuleModel {
  int index = -1;  ///< the model's index in the pipeline
  const CollisionModelDescription* description = nullptr;
  const ModelElements* elements = nullptr;
  /// The first point model of the same node (SOFA's `getContext()->get(mpoints)`), or −1.
  int node_point_model = -1;
};

/// SOFA's canCollideWithElement of the model of element `e1` (asked only when both models are in
/// one node, BVHNarrowPhase::finalCollisionPairs), each model's rule from its SOFA file:
/// - PointCollisionModel.inl: with itself, only e1 > e2 and not when the two points are joined by
///   an edge or share a neighbour;
/// - LineCollisionModel.inl: with itself, not when the lines share a vertex or a line around
///   their vertices; with its node's point model, not with its own vertices nor the vertices of the
///   lines around them;
/// - TriangleCollisionModel.inl: with its node's point model, not with its own vertices;
/// - SphereCollisionModel: no rule (SOFA's default: true), except that Fluxion never pairs a
///   sphere with itself (SOFA would report it with a NaN normal).
/// A model without selfCollision has no rule. A model that has no rule for the other model asks the
/// other model (SOFA: model2->canCollideWithElement(e2, this, e1)); Fluxion asks it only once,
/// where SOFA recurses forever between, e.g., a line model and a second point model of its node.
bool CanCollideWithElement(const RuleModel& m1, Index e1, const RuleModel& m2, Index e2);

}  // namespace fluxion::internal::collision
