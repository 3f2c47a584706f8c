// The collision pipeline's part of a step: detection, then the penalty response, before the
// solvers run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "collision/detection.h"
#include "fluxion/contact_times.h"
#include "fluxion/model.h"
#include "fluxion/simulation.h"
#include "mechanics/contact_response.h"

namespace fluxion::internal {

/// SOFA's DefaultAnimationLoop runs the collision pipeline at the start of each step, on the
/// positions the step starts from (computeCollisionReset, computeCollisionDetection,
/// computeCollisionResponse: Sofa/framework/Simulation/Core/src/sofa/simulation/
/// DefaultAnimationLoop.cpp, PipelineImpl.cpp), then the ODE solvers. The stage does the same:
/// Run reads every object's current positions (mapped objects' are kept current by the
/// simulation's UpdateMapped), detects, and replaces the contacts of each system's penalty
/// field. Nothing allocates once the largest contact counts have been met.
class ContactStage {
 public:
  /// `mappings` holds the composed Jacobians `placements` point to; `fields[s]` is system s's
  /// contact field (owned by its system), null when it receives none.
  ContactStage(std::unique_ptr<collision::Detection> detection,
               std::vector<std::unique_ptr<LinearMapping>> mappings,
               std::vector<ContactModelPlacement> placements,
               const collision::IntersectionSettings& intersection, int pipeline_system,
               std::string pipeline_node, std::vector<PenaltyContactForceField*> fields);

  /// Detection and response at the current state. `state_x[s]` is system s's position vector,
  /// `static_position[o]` object o's positions when no system holds its DOFs.
  void Run(const Model& model, const std::vector<const Vector*>& state_x,
           const std::vector<Vector>& static_position);

  /// Model `model` re-reads its elements from `topology`, its object's topology after a
  /// topological change followed in place (the detection and the response both read the new
  /// elements); every system's contacts are cleared until the next Run finds them again. Between
  /// steps.
  void FollowModelTopology(int model, collision::ObjectTopology topology);

  const std::vector<Contact>& contacts() const { return contacts_; }
  /// True when system `system` may receive contacts (its linear solver must be matrix-free).
  bool receives(int system) const { return response_.receives(system); }
  const std::vector<std::string>& model_paths() const { return paths_; }
  /// The detection's models, parallel to model_paths().
  const std::vector<collision::CollisionModelDescription>& models() const {
    return detection_->models();
  }
  /// The time Run spent detecting and responding, summed over its calls.
  const ContactTimes& times() const { return times_; }

 private:
  std::unique_ptr<collision::Detection> detection_;
  std::vector<std::unique_ptr<LinearMapping>> mappings_;
  ContactResponse response_;
  std::vector<const double*> positions_;  // per object, refreshed each run
  std::vector<collision::ModelPairContacts> pairs_;
  std::vector<Contact> contacts_;
  std::vector<std::string> paths_;
  ContactTimes times_;
};

}  // namespace fluxion::internal
