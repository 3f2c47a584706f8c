#include "components/constant_force_field.h"

#include <span>
#include <string>
#include <vector>

#include "fluxion/errors.h"

#include "components/point_selection.h"
#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

namespace {

// The force on each of the `n` selected points (n × dim values, point by point) from the field
// `field`'s values: `forces` one vector per point or one broadcast to all (as SOFA), `force` one
// vector on every point, `totalForce` one vector spread evenly. Empty when the count fits, else
// what is wrong: "has 5 numbers (expected 3: one vector)".
std::string PerPointForces(const std::string& field, std::span<const double> values, std::size_t n,
                           int dim, std::vector<double>& per_point) {
  per_point.clear();
  const auto vector = static_cast<std::size_t>(dim);
  if (values.size() == vector && field != "forces") {
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t axis = 0; axis < vector; ++axis)
        per_point.push_back(field == "totalForce" ? values[axis] / static_cast<double>(n)
                                                  : values[axis]);
  } else if (field == "forces" && values.size() == vector) {
    for (std::size_t k = 0; k < n; ++k)
      per_point.insert(per_point.end(), values.begin(), values.end());  // SOFA broadcasts one
  } else if (field == "forces" && values.size() == n * vector) {
    per_point.assign(values.begin(), values.end());
  } else {
    return "has " + std::to_string(values.size()) + " numbers (expected " +
           (field == "forces" ? std::to_string(dim) + " or " + std::to_string(n * vector) +
                                    ": one vector per index"
                              : std::to_string(dim) + ": one vector") +
           ")";
  }
  return {};
}

}  // namespace

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
  const std::size_t n = points.size();
  std::vector<double> per_point;  // n × dim
  if (const std::string problem = PerPointForces(field, p.reals(field), n, dim, per_point);
      !problem.empty()) {
    context.Error("ConstantForceField '" + field + "' " + problem);
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
  auto force = std::make_unique<ConstantForce>(std::move(dofs), std::move(forces));
  // Each of the three fields may be written between steps (a SofaPython3 controller's
  // `cff.forces = ...`), whichever the scene gave: SOFA's totalForce, too, rewrites the forces.
  // The force field lives in the simulation's system as long as the setters do.
  ConstantForce* live = force.get();
  for (const char* name : {"forces", "force", "totalForce"}) {
    context.AddRuntimeField(
        name, [live, name = std::string(name), n, dim](std::span<const double> values) {
          std::vector<double> updated;
          const std::string problem = PerPointForces(name, values, n, dim, updated);
          if (!problem.empty()) throw ConfigError(name, problem);
          live->SetValues(updated);
        });
  }
  context.AddForceField(object, std::move(force));
}

}  // namespace fluxion::internal
