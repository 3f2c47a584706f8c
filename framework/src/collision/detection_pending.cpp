// PLACEHOLDER for the detection layer (issue #26, wip-response branch only): the response, the
// builder and the runtime link against detection.h; this file lets libfluxion.so link until the
// detection engineer's sources replace it (delete it at the merge). It detects nothing.
#include "collision/detection.h"

namespace fluxion::internal::collision {

struct Detection::Impl {
  std::vector<CollisionModelDescription> models;
};

Detection::Detection(std::vector<CollisionModelDescription> models, IntersectionSettings,
                     PipelineSettings)
    : impl_(std::make_unique<Impl>(Impl{std::move(models)})) {}
Detection::~Detection() = default;

const std::vector<CollisionModelDescription>& Detection::models() const { return impl_->models; }

void Detection::Detect(std::span<const double* const>, std::vector<ModelPairContacts>& contacts) {
  contacts.clear();
}

}  // namespace fluxion::internal::collision
