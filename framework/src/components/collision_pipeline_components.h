// SOFA's collision pipeline components: the pipeline, its broad and narrow phases, the
// intersection methods and the contact managers, as specs the scene builder reads.
#pragma once

#include <vector>

#include "fluxion/parameters.h"

namespace fluxion::internal {

/// Components of kind kCollisionPipeline: never built one by one; the builder
/// (build/collision_pipeline.h) reads the fields of those in the pipeline's node to set up the
/// detection (collision/detection.h: PipelineSettings, IntersectionSettings) and the penalty
/// response (mechanics/contact_response.h). Sources, for fields and defaults:
/// Sofa/Component/Collision/Detection/Algorithm/ (CollisionPipeline, old name DefaultPipeline;
/// BruteForceBroadPhase; BVHNarrowPhase; BruteForceDetection, both phases in one, a name SOFA
/// keeps for old scenes), Sofa/Component/Collision/Detection/Intersection/
/// (MinProximityIntersection, NewProximityIntersection, LocalMinDistance, DiscreteIntersection)
/// and Sofa/Component/Collision/Response/Contact/ (CollisionResponse, old name
/// DefaultContactManager; RuleBasedContactManager).
class CollisionPipelineComponents {
 public:
  static std::vector<ComponentSpec> Specs();
};

}  // namespace fluxion::internal
