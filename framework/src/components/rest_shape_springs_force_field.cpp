#include "components/rest_shape_springs_force_field.h"

#include "mechanics/rest_shape_springs.h"

namespace fluxion::internal {

ComponentSpec RestShapeSpringsForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "RestShapeSpringsForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Zero-length springs pulling points back to their rest positions",
      .fields = {FieldSpec::IndexList("points", "points pulled (default: all)"),
                 FieldSpec::RealList("stiffness", "stiffness, one value or one per point [N/m]")
                     .DefaultText("100")
                     .AtLeast(0),
                 FieldSpec::RealList("angularStiffness", "rigid bodies only: ignored"),
                 FieldSpec::RealList("pivot_points", "only supported empty"),
                 FieldSpec::Link("external_rest_shape",
                                 "only supported empty (the object's own rest)"),
                 FieldSpec::IndexList("external_points", "only supported empty"),
                 FieldSpec::Bool("recompute_indices", true,
                                 "SOFA option: the points are static here"),
                 FieldSpec::IndexList("activeDirections", "1 for each axis the springs act along")
                     .DefaultText("1 1 1 1 1 1")},
      .aliases = {}};
}

void RestShapeSpringsForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (!p.reals("pivot_points").empty() || !p.indices("external_points").empty() ||
      (p.has("external_rest_shape") && !p.text("external_rest_shape").empty())) {
    context.Error(
        "RestShapeSpringsForceField: a rest shape from another object or pivot points "
        "are not supported yet (expected the object's own rest positions)");
    return;
  }
  std::vector<Index> points = p.indices("points");
  if (points.empty())
    for (Index i = 0; i < object.num_points; ++i) points.push_back(i);
  const std::vector<double>& k = p.reals("stiffness");
  if (k.empty() || (k.size() != 1 && k.size() < points.size())) {
    context.Error("RestShapeSpringsForceField 'stiffness' has " + std::to_string(k.size()) +
                  " values (expected 1, or one per point: " + std::to_string(points.size()) + ")");
    return;
  }
  const std::vector<Index>& active = p.indices("activeDirections");
  std::vector<Index> dofs;
  std::vector<double> rest, stiffness;
  for (std::size_t n = 0; n < points.size(); ++n) {
    const Index i = points[n];
    if (i >= object.num_points) {
      context.Error("RestShapeSpringsForceField 'points' has " + std::to_string(i) +
                    " (expected indices below the object's " + std::to_string(object.num_points) +
                    " points)");
      return;
    }
    for (int a = 0; a < object.dimension; ++a) {
      if (static_cast<std::size_t>(a) < active.size() && active[static_cast<std::size_t>(a)] == 0)
        continue;
      dofs.push_back(object.offset + i * object.dimension + a);
      rest.push_back(object.rest_position[i * object.dimension + a]);
      stiffness.push_back(k.size() == 1 ? k[0] : k[n]);  // SOFA: k[(i < size) · i]
    }
  }
  context.AddForceField(object, std::make_unique<RestShapeSprings>(std::move(dofs), std::move(rest),
                                                                   std::move(stiffness)));
}

}  // namespace fluxion::internal
