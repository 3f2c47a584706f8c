#include "components/distance_mapping.h"

#include "components/mechanical_mapping.h"
#include "mechanics/distance_mappings.h"

namespace fluxion::internal {

ComponentSpec DistanceMappingComponent::Spec() {
  std::vector<FieldSpec> fields = MechanicalMappingFields();
  fields.push_back(FieldSpec::Link("topology", "the container whose edges are mapped"));
  fields.push_back(FieldSpec::Bool("computeDistance", false,
                                   "rest lengths 0: the output is the distance itself"));
  fields.push_back(FieldSpec::RealList("restLengths",
                                       "rest length per edge [m] (default: the "
                                       "initial lengths)"));
  fields.push_back(GeometricStiffnessField());
  fields.push_back(FieldSpec::Real("showObjectScale", 0, "SOFA display option, ignored"));
  fields.push_back(FieldSpec::Text("showColor", "", "SOFA display option, ignored"));
  return ComponentSpec{.name = "DistanceMapping",
                       .kind = ComponentKind::kMapping,
                       .summary =
                           "Maps each edge of an object to its length minus a rest length "
                           "(a Vec1 output, nonlinear)",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void DistanceMappingComponent::Build(BuildContext& context) {
  const MappingEnds ends = ResolveMappingEnds(context);
  if (ends.parent == nullptr) return;
  const ObjectModel& parent = *ends.parent;
  const ObjectModel& child = *ends.child;
  if (child.dimension != 1) {
    context.Error("DistanceMapping maps onto '" + child.id + "' (Vec" +
                  std::to_string(child.dimension) + ") (expected a Vec1 output)");
    return;
  }
  const auto edges = MappingEdges(context, parent);
  if (!edges) return;
  const Parameters& p = context.parameters();
  std::vector<double> rest = p.reals("restLengths");
  if (rest.size() != edges->size()) {
    // SOFA's init: 0 with computeDistance, else each edge's length in the input's positions.
    rest.assign(edges->size(), 0.0);
    if (!p.flag("computeDistance")) {
      const int n = parent.dimension;
      for (std::size_t e = 0; e < edges->size(); ++e)
        rest[e] = (parent.position.segment((*edges)[e][1] * n, n) -
                   parent.position.segment((*edges)[e][0] * n, n))
                      .norm();
    }
  }
  const int mode = GeometricStiffnessMode(p);
  context.MapObject(
      child, parent,
      std::make_unique<DistanceMappingFunction>(parent.dimension, *edges, std::move(rest),
                                                mode == 0   ? GeometricStiffness::kNone
                                                : mode == 1 ? GeometricStiffness::kExact
                                                            : GeometricStiffness::kStabilized));
}

}  // namespace fluxion::internal
