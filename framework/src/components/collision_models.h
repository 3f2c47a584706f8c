// SOFA's collision models (TriangleCollisionModel, LineCollisionModel, PointCollisionModel,
// SphereCollisionModel): read by the collision pipeline, inert in a scene without one.
#pragma once

#include <vector>

#include "fluxion/parameters.h"

namespace fluxion::internal {

/// The collision models SOFA's FFD-style example scenes carry (a mapped surface with a
/// TriangleCollisionModel under a RegularGridSpringForceField lattice, examples/Objects/
/// TorusFFD.xml), as components of kind kCollisionModel: never built one by one, their fields
/// validated and read by the pipeline.
///
/// Why they are inert without a pipeline. A collision model only describes geometry; nothing in
/// it computes a force. SOFA's DefaultAnimationLoop::collisionDetection runs a CollisionVisitor
/// over the scene, and that visitor calls, per node, only the node's collision pipeline
/// (computeCollisionReset/Detection/Response) and the constraint sets' processGeometricalData
/// (Sofa/framework/Simulation/Core/src/sofa/simulation/DefaultAnimationLoop.cpp,
/// CollisionVisitor.cpp). The collision models are gathered by the pipeline only
/// (PipelineImpl::computeCollisionDetection: getTreeObjects<CollisionModel>, Sofa/framework/
/// Simulation/Core/src/sofa/simulation/PipelineImpl.cpp; CollisionPipeline in Sofa/Component/
/// Collision/Detection/Algorithm/). With no pipeline in the scene, no contact is ever detected
/// and the models change nothing: the scene's motion is that of its mechanics alone.
///
/// With a pipeline the scene collides: the builder describes each model to the detection
/// (collision/detection.h: CollisionModelDescription) and routes its contacts to the systems
/// (build/collision_pipeline.h, docs/contact.md).
///
/// Fields follow SOFA: core::CollisionModel's (Sofa/framework/Core/src/sofa/core/
/// CollisionModel.cpp: active, moving, simulated, selfCollision, contactDistance (old name
/// proximity), contactStiffness, contactFriction, contactRestitution, contactResponse, group,
/// numberOfContacts; links previous, next, collisionElementActiver), and each model's own
/// (Sofa/Component/Collision/Geometry/src/sofa/component/collision/geometry/
/// {Triangle,Line,Point,Sphere}CollisionModel.inl, TetrahedronCollisionModel.cpp). `color` and
/// drawing options are ignored as everywhere. The old names (TriangleModel, LineModel, PointModel,
/// SphereModel, TTriangleModel…) were removed in SOFA v20.06 (helper/ComponentChange.cpp) and SOFA
/// refuses them: so does Fluxion. Links are not followed (the models are never built).
class CollisionModelComponents {
 public:
  static std::vector<ComponentSpec> Specs();
};

}  // namespace fluxion::internal
