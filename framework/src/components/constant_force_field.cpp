#include "components/constant_force_field.h"

#include "components/point_selection.h"
#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

ComponentSpec ConstantForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "ConstantForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A constant force on chosen points",
      .fields = {FieldSpec::IndexList("indices", "points the forces act on (default: all)"),
                 FieldSpec::RealList("forces", "one force vector per index [N]"),
                 FieldSpec::RealList("force", "one force vector applied to every index [N]"),
                 FieldSpec::RealList("totalForce",
                                     "a force vector spread evenly over the indices [N]"),
                 FieldSpec::Bool("indexFromEnd", false, "count indices from the last point")},
      .aliases = {}};
}

void ConstantForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const int dim = object.dimension;
  const std::vector<Index> points = PointsOrAll(p, "indices", object);
  for (const Index point : points)
    if (!CheckIndex(context, point, object, "index")) return;
  if (points.empty()) return;
  const int given = int(p.has("forces")) + int(p.has("force")) + int(p.has("totalForce"));
  if (given == 0) {
    context.Error("ConstantForceField needs 'forces', 'force' or 'totalForce'");
    return;
  }
  if (given > 1) {
    context.Error(
        "ConstantForceField has more than one of 'forces', 'force', 'totalForce' (expected one)");
    return;
  }
  const std::string field = p.has("forces") ? "forces" : p.has("force") ? "force" : "totalForce";
  const std::vector<double>& values = p.reals(field);
  const std::size_t n = points.size();
  std::vector<double> per_point;  // n × dim
  if (values.size() == static_cast<std::size_t>(dim) && field != "forces") {
    for (std::size_t k = 0; k < n; ++k)
      for (int axis = 0; axis < dim; ++axis)
        per_point.push_back(field == "totalForce" ? values[axis] / static_cast<double>(n)
                                                  : values[axis]);
  } else if (field == "forces" && values.size() == static_cast<std::size_t>(dim)) {
    for (std::size_t k = 0; k < n; ++k)
      per_point.insert(per_point.end(), values.begin(), values.end());  // SOFA broadcasts one
  } else if (field == "forces" && values.size() == n * static_cast<std::size_t>(dim)) {
    per_point = values;
  } else {
    context.Error("ConstantForceField '" + field + "' has " + std::to_string(values.size()) +
                  " numbers (expected " +
                  (field == "forces" ? std::to_string(dim) + " or " + std::to_string(n * dim) +
                                           ": one vector per index"
                                     : std::to_string(dim) + ": one vector") +
                  ")");
    return;
  }
  if (object.system < 0) return;
  std::vector<Index> dofs;
  std::vector<double> forces;
  for (std::size_t k = 0; k < n; ++k) {
    const Index target = p.flag("indexFromEnd") ? object.num_points - 1 - points[k] : points[k];
    for (int axis = 0; axis < dim; ++axis) {
      dofs.push_back(object.offset + target * dim + axis);
      forces.push_back(per_point[k * dim + axis]);
    }
  }
  context.AddForceField(object,
                        std::make_unique<ConstantForce>(std::move(dofs), std::move(forces)));
}

}  // namespace fluxion::internal
