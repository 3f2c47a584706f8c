#include "runtime/contact_stage.h"

#include <chrono>
#include <utility>

#include "collision/model_elements.h"

namespace fluxion::internal {

ContactStage::ContactStage(std::unique_ptr<collision::Detection> detection,
                           std::vector<std::unique_ptr<LinearMapping>> mappings,
                           std::vector<ContactModelPlacement> placements,
                           const collision::IntersectionSettings& intersection, int pipeline_system,
                           std::string pipeline_node, std::vector<PenaltyContactForceField*> fields)
    : detection_(std::move(detection)),
      mappings_(std::move(mappings)),
      response_(detection_->models(), std::move(placements), intersection, pipeline_system,
                std::move(pipeline_node), std::move(fields)) {
  for (const collision::CollisionModelDescription& model : detection_->models())
    paths_.push_back(model.path);
}

void ContactStage::FollowModelTopology(int model, collision::ObjectTopology topology) {
  detection_->ReplaceModelTopology(model, std::move(topology));
  response_.ReplaceModelElements(model, detection_->elements(model));
  response_.ClearContacts();
}

void ContactStage::Run(const Model& model, const std::vector<const Vector*>& state_x,
                       const std::vector<Vector>& static_position) {
  positions_.resize(model.objects.size());
  for (std::size_t k = 0; k < model.objects.size(); ++k) {
    const ObjectModel& object = model.objects[k];
    positions_[k] = object.system >= 0 && object.mapped_from < 0
                        ? state_x[static_cast<std::size_t>(object.system)]->data() + object.offset
                        : static_position[k].data();
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  detection_->Detect(positions_, pairs_);
  const Clock::time_point detected = Clock::now();
  response_.Apply(positions_, pairs_, contacts_);
  const Clock::time_point responded = Clock::now();
  times_.detection += std::chrono::duration<double>(detected - start).count();
  times_.response += std::chrono::duration<double>(responded - detected).count();
  ++times_.steps;
}

}  // namespace fluxion::internal
