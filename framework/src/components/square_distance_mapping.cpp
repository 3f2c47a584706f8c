#include "components/square_distance_mapping.h"

#include "components/mechanical_mapping.h"
#include "mechanics/distance_mappings.h"

namespace fluxion::internal {

ComponentSpec SquareDistanceMappingComponent::Spec() {
  std::vector<FieldSpec> fields = MechanicalMappingFields();
  fields.push_back(FieldSpec::Link("topology", "the container whose edges are mapped"));
  fields.push_back(GeometricStiffnessField());
  fields.push_back(FieldSpec::Real("showObjectScale", 0, "SOFA display option, ignored"));
  fields.push_back(FieldSpec::Text("showColor", "", "SOFA display option, ignored"));
  return ComponentSpec{.name = "SquareDistanceMapping",
                       .kind = ComponentKind::kMapping,
                       .summary =
                           "Maps each edge of an object to its squared length (a Vec1 "
                           "output, nonlinear)",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void SquareDistanceMappingComponent::Build(BuildContext& context) {
  const MappingEnds ends = ResolveMappingEnds(context);
  if (ends.parent == nullptr) return;
  const ObjectModel& parent = *ends.parent;
  const ObjectModel& child = *ends.child;
  if (child.dimension != 1) {
    context.Error("SquareDistanceMapping maps onto '" + child.id + "' (Vec" +
                  std::to_string(child.dimension) + ") (expected a Vec1 output)");
    return;
  }
  const auto edges = MappingEdges(context, parent);
  if (!edges) return;
  const int mode = GeometricStiffnessMode(context.parameters());
  context.MapObject(child, parent,
                    std::make_unique<SquareDistanceMappingFunction>(
                        parent.dimension, *edges,
                        mode == 0   ? GeometricStiffness::kNone
                        : mode == 1 ? GeometricStiffness::kExact
                                    : GeometricStiffness::kStabilized));
}

}  // namespace fluxion::internal
