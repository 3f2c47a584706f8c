#include "components/identity_mapping.h"

#include "components/mechanical_mapping.h"

namespace fluxion::internal {

ComponentSpec IdentityMappingComponent::Spec() {
  return ComponentSpec{.name = "IdentityMapping",
                       .kind = ComponentKind::kMapping,
                       .summary = "Maps an object onto another point for point (x_out = x_in)",
                       .fields = MechanicalMappingFields(),
                       .aliases = {}};
}

void IdentityMappingComponent::Build(BuildContext& context) {
  const MappingEnds ends = ResolveMappingEnds(context);
  if (ends.parent == nullptr) return;
  const ObjectModel& parent = *ends.parent;
  const ObjectModel& child = *ends.child;
  if (parent.dimension != child.dimension) {
    context.Error("IdentityMapping maps '" + parent.id + "' (Vec" +
                  std::to_string(parent.dimension) + ") onto '" + child.id + "' (Vec" +
                  std::to_string(child.dimension) + ") (expected objects of the same template)");
    return;
  }
  std::vector<std::vector<std::pair<Index, double>>> stencils(
      static_cast<std::size_t>(parent.num_points));
  for (Index i = 0; i < parent.num_points; ++i) stencils[static_cast<std::size_t>(i)] = {{i, 1.0}};
  context.MapObject(child, parent, PointJacobian(stencils, parent.num_points, parent.dimension));
}

}  // namespace fluxion::internal
