#include "components/box_constraint.h"

#include "components/box_region.h"

namespace fluxion::internal {

ComponentSpec BoxConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "BoxConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Fixes the points whose rest positions lie in boxes",
      .fields = {FieldSpec::RealList("box", "boxes, xmin ymin zmin xmax ymax zmax each [m]")
                     .DefaultText("0 0 0 1 1 1"),
                 FieldSpec::Bool("fixAll", false,
                                 "fix every point, the boxes aside (FixedProjectiveConstraint's "
                                 "field, which SOFA's examples give BoxConstraint)")},
      .aliases = {}};
}

void BoxConstraintComponent::Build(BuildContext& context) {
  BoxRegion region;
  std::string why;
  if (!region.Set(context.parameters().reals("box"), {}, why)) {
    context.Error("BoxConstraint " + why);
    return;
  }
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const int dim = object->dimension;
  const bool all = context.parameters().flag("fixAll");
  for (Index i = 0; i < object->num_points; ++i)
    if (all || region.Contains(object->rest_position.data() + i * dim, dim))
      context.FixPoint(*object, i);
}

}  // namespace fluxion::internal
