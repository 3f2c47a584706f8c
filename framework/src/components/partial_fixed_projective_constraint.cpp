#include "components/partial_fixed_projective_constraint.h"

#include "components/point_selection.h"

namespace fluxion::internal {

ComponentSpec PartialFixedProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "PartialFixedProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Fixes chosen axes of points (the other axes move)",
      .fields = {FieldSpec::IndexList("indices", "points").DefaultText("0"),
                 FieldSpec::Bool("fixAll", false, "every point of the object"),
                 FieldSpec::IndexList("fixedDirections", "1 for each fixed axis, 0 for a free one")
                     .DefaultText("1 1 1 1 1 1"),
                 FieldSpec::Bool("projectVelocity", false, "only supported as 0"),
                 FieldSpec::Bool("activate_projectVelocity", false, "only supported as 0")},
      .aliases = {}};
}

void PartialFixedProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (p.flag("projectVelocity") || p.flag("activate_projectVelocity")) {
    context.Error(
        "PartialFixedProjectiveConstraint 'projectVelocity=1' is not supported (expected "
        "0)");
    return;
  }
  const std::vector<Index>& directions = p.indices("fixedDirections");
  if (directions.size() < static_cast<std::size_t>(object.dimension)) {
    context.Error("PartialFixedProjectiveConstraint 'fixedDirections' has " +
                  std::to_string(directions.size()) + " values (expected " +
                  std::to_string(object.dimension) + ": one per axis)");
    return;
  }
  std::vector<Index> points;
  if (p.flag("fixAll")) {
    for (Index i = 0; i < object.num_points; ++i) points.push_back(i);
  } else {
    for (const Index index : p.indices("indices"))
      if (CheckIndex(context, index, object, "index")) points.push_back(index);
  }
  for (const Index point : points)
    for (int axis = 0; axis < object.dimension; ++axis)
      if (directions[static_cast<std::size_t>(axis)] != 0) context.FixDof(object, point, axis);
}

}  // namespace fluxion::internal
