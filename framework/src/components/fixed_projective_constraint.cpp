#include "components/fixed_projective_constraint.h"

#include "components/point_selection.h"

namespace fluxion::internal {

ComponentSpec FixedProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "FixedProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Fixes points: their DOFs are projected out of every increment (SOFA semantics)",
      .fields = {FieldSpec::IndexList("indices", "points to fix").DefaultText("0"),
                 FieldSpec::Bool("fixAll", false, "fix every point of the object"),
                 FieldSpec::Bool("activate_projectVelocity", false,
                                 "also zero the velocity of fixed points")},
      .aliases = {"FixedConstraint"}};
}

void FixedProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  std::vector<Index> points;
  if (p.flag("fixAll")) {
    for (Index i = 0; i < object.num_points; ++i) points.push_back(i);
  } else {
    for (const Index index : p.indices("indices"))
      if (CheckIndex(context, index, object, "index")) points.push_back(index);
  }
  const std::vector<double> zero(static_cast<std::size_t>(object.dimension), 0.0);
  for (const Index point : points) {
    const auto velocity = object.velocity.segment(point * object.dimension, object.dimension);
    if (p.flag("activate_projectVelocity")) {
      context.SetInitialVelocity(object, point, zero);
    } else if (!velocity.isZero(0.0)) {
      context.Warn("fixed point " + std::to_string(point) + " of '" + object.id +
                   "' has a non-zero initial velocity: it will drift, as in SOFA "
                   "(set activate_projectVelocity=1 to stop it)");
    }
    context.FixPoint(object, point);
  }
}

}  // namespace fluxion::internal
