#include "build/collision_pipeline.h"

#include <array>
#include <string_view>

namespace fluxion::internal {

const ElementDescription* FindCollisionPipeline(const NodeDescription& root) {
  static constexpr std::array<std::string_view, 3> kPipelines = {
      "CollisionPipeline", "CompositeCollisionPipeline", "DefaultPipeline"};
  for (const ElementDescription& element : root.components)
    for (const std::string_view pipeline : kPipelines)
      if (element.type == pipeline) return &element;
  for (const NodeDescription& child : root.children)
    if (const ElementDescription* found = FindCollisionPipeline(child)) return found;
  return nullptr;
}

}  // namespace fluxion::internal
