#include "components/distance_from_target_mapping.h"

#include "components/mechanical_mapping.h"
#include "mechanics/distance_mappings.h"

namespace fluxion::internal {

ComponentSpec DistanceFromTargetMappingComponent::Spec() {
  std::vector<FieldSpec> fields = MechanicalMappingFields();
  fields.push_back(FieldSpec::IndexList("indices", "the input points measured"));
  fields.push_back(FieldSpec::RealList("targetPositions", "one target point per index [m]"));
  fields.push_back(FieldSpec::RealList("restLengths", "rest distance per index [m] (default 0)"));
  fields.push_back(GeometricStiffnessField());
  fields.push_back(FieldSpec::Real("showObjectScale", 0, "SOFA display option, ignored"));
  fields.push_back(FieldSpec::Text("showColor", "", "SOFA display option, ignored"));
  return ComponentSpec{.name = "DistanceFromTargetMapping",
                       .kind = ComponentKind::kMapping,
                       .summary =
                           "Maps points of an object to their distances from fixed "
                           "targets minus rest lengths (a Vec1 output, nonlinear)",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void DistanceFromTargetMappingComponent::Build(BuildContext& context) {
  const MappingEnds ends = ResolveMappingEnds(context);
  if (ends.parent == nullptr) return;
  const ObjectModel& parent = *ends.parent;
  const ObjectModel& child = *ends.child;
  if (child.dimension != 1) {
    context.Error("DistanceFromTargetMapping maps onto '" + child.id + "' (Vec" +
                  std::to_string(child.dimension) + ") (expected a Vec1 output)");
    return;
  }
  const Parameters& p = context.parameters();
  const int n = parent.dimension;
  const std::vector<double>& targets = p.reals("targetPositions");
  if (targets.size() % static_cast<std::size_t>(n) != 0) {
    context.Error("DistanceFromTargetMapping 'targetPositions' has " +
                  std::to_string(targets.size()) + " numbers (expected " + std::to_string(n) +
                  " per target, the input's template)");
    return;
  }
  const std::size_t count = targets.size() / static_cast<std::size_t>(n);
  // SOFA's init: indices missing up to the targets' count are the next point numbers.
  std::vector<Index> indices = p.indices("indices");
  for (std::size_t i = indices.size(); i < count; ++i) indices.push_back(static_cast<Index>(i));
  if (indices.size() != count) {
    context.Error("DistanceFromTargetMapping has " + std::to_string(indices.size()) +
                  " indices and " + std::to_string(count) +
                  " target positions (expected one target per index)");
    return;
  }
  for (const Index index : indices) {
    if (index < 0 || index >= parent.num_points) {
      context.Error("DistanceFromTargetMapping index " + std::to_string(index) +
                    " is out of range (expected a point of '" + parent.id + "', 0 to " +
                    std::to_string(parent.num_points - 1) + ")");
      return;
    }
  }
  std::vector<double> rest = p.reals("restLengths");
  rest.resize(count, 0.0);  // SOFA: unset rest lengths are 0
  const int mode = GeometricStiffnessMode(p);
  context.MapObject(child, parent,
                    std::make_unique<DistanceFromTargetMappingFunction>(
                        n, std::move(indices), targets, std::move(rest),
                        mode == 0   ? GeometricStiffness::kNone
                        : mode == 1 ? GeometricStiffness::kExact
                                    : GeometricStiffness::kStabilized));
}

}  // namespace fluxion::internal
