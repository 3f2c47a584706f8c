// Whether a scene collides: the collision pipeline that would run its collision models.
#pragma once

#include "scene/scene_description.h"

namespace fluxion::internal {

/// A collision pipeline of the scene (a node's own before its children's), or null.
///
/// SOFA detects contacts only through a pipeline: its animation loops run a CollisionVisitor that
/// calls each node's pipeline and nothing else of the collision models
/// (Sofa/framework/Simulation/Core/src/sofa/simulation/DefaultAnimationLoop.cpp,
/// collisionDetection; CollisionVisitor.cpp, processNodeTopDown), and the pipeline gathers the
/// collision models below its node (PipelineImpl.cpp, computeCollisionDetection). Without one the
/// collision models are inert (components/collision_models.h); with one the scene collides.
///
/// The pipelines are SOFA's components deriving from core::collision::Pipeline —
/// CollisionPipeline and CompositeCollisionPipeline (Sofa/Component/Collision/Detection/
/// Algorithm/) — and DefaultPipeline, CollisionPipeline's old name (removed in SOFA v24.12,
/// helper/ComponentChange.cpp, but it still says the author meant the scene to collide). A
/// pipeline anywhere counts, even in a subtree that does not hold the collision model: Fluxion
/// errs on the side of refusing a scene that may collide.
const ElementDescription* FindCollisionPipeline(const NodeDescription& root);

}  // namespace fluxion::internal
