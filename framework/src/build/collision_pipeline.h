// The scene's collision pipeline: its detection and penalty response, set up from the scene.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "build/build_state.h"
#include "collision/detection.h"
#include "mechanics/contact_response.h"
#include "runtime/contact_stage.h"
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
/// Algorithm/) — and DefaultPipeline, CollisionPipeline's old name.
const ElementDescription* FindCollisionPipeline(const NodeDescription& root);

/// What the builder prepares for a scene with a collision pipeline: the detection's inputs, where
/// each model's points reach the systems, and one penalty field per system that can receive
/// contacts (already added to its SystemParts).
struct ContactPlan {
  std::string pipeline_node;
  int pipeline_system = -1;
  std::vector<collision::CollisionModelDescription> models;
  std::vector<ContactModelPlacement> placements;
  std::vector<std::unique_ptr<LinearMapping>> mappings;  ///< placements point into these
  collision::IntersectionSettings intersection;
  collision::PipelineSettings pipeline;
  std::vector<PenaltyContactForceField*> fields;  ///< per system, null: receives none
  /// Per system: it may receive contacts it solves implicitly (their stiffness in its tangent);
  /// a system with a field but no such contacts only gets explicit contact forces (a response
  /// outside every solver's subtree: contact_response.h).
  std::vector<bool> implicit;
};

/// Reads the pipeline, its phases, intersection method and contact manager, and the collision
/// models below its node (reporting what Fluxion cannot run: another response than
/// PenalityContactForceField, rules, a model on a 1-D or 2-D object or under a nonlinear
/// mapping), and adds a penalty field to every system that may receive contacts. Runs once the
/// mappings are final, before the solvers are created. Empty without a pipeline.
std::optional<ContactPlan> PlanContacts(BuildState& state);

/// Refuses the systems that receive contacts and whose linear solver assembles the matrix
/// (direct solvers): the contacts' stiffness exists only in the matrix-free tangent. With a
/// replacement ODE solver (LoadOptions::solver), such a node is given a CGLinearSolver instead.
void CheckContactSolvers(BuildState& state, const ContactPlan& plan,
                         std::vector<SolverNode>& nodes);

/// The runtime's stage for the plan (the detection created from its models).
std::unique_ptr<ContactStage> CreateContactStage(ContactPlan plan);

}  // namespace fluxion::internal
