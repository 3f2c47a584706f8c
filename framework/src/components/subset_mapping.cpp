#include "components/subset_mapping.h"

#include <cmath>
#include <limits>

#include "components/mechanical_mapping.h"
#include "fluxion/text.h"

namespace fluxion::internal {

ComponentSpec SubsetMappingComponent::Spec() {
  std::vector<FieldSpec> fields = MechanicalMappingFields();
  fields.push_back(FieldSpec::IndexList("indices", "input point of each output point"));
  fields.push_back(FieldSpec::Integer("first", -1,
                                      "first input point (with 'last', when no "
                                      "indices are given; -1: none)"));
  fields.push_back(FieldSpec::Integer("last", -1, "last input point (-1: the input's last)"));
  fields.push_back(FieldSpec::Real("radius", 1e-5,
                                   "without indices: each output point takes the nearest input "
                                   "point closer than this [m]")
                       .AtLeast(0));
  fields.push_back(
      FieldSpec::Bool("handleTopologyChange", true, "SOFA option (topology changes), ignored"));
  fields.push_back(FieldSpec::Bool("ignoreNotFound", false,
                                   "SOFA: leave unmatched output points fixed (only 0)"));
  fields.push_back(
      FieldSpec::Bool("resizeToModel", false, "SOFA option, ignored (the output is resized)"));
  return ComponentSpec{.name = "SubsetMapping",
                       .kind = ComponentKind::kMapping,
                       .summary = "Maps a subset of an object's points onto another object",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void SubsetMappingComponent::Build(BuildContext& context) {
  const MappingEnds ends = ResolveMappingEnds(context);
  if (ends.parent == nullptr) return;
  const ObjectModel& parent = *ends.parent;
  const ObjectModel& child = *ends.child;
  const Parameters& p = context.parameters();
  if (parent.dimension != child.dimension) {
    context.Error("SubsetMapping maps '" + parent.id + "' (Vec" + std::to_string(parent.dimension) +
                  ") onto '" + child.id + "' (Vec" + std::to_string(child.dimension) +
                  ") (expected objects of the same template)");
    return;
  }
  if (p.flag("ignoreNotFound")) {
    context.Error(
        "SubsetMapping 'ignoreNotFound' = 1 is not supported (expected 0: every "
        "output point matches an input point)");
    return;
  }
  std::vector<Index> indices = p.indices("indices");
  const Index n = parent.num_points;
  if (indices.empty() && p.integer("first") >= 0) {
    // SOFA clamps a range that leaves the input: first to 0, last to the input's last point.
    Index first = p.integer("first"), last = p.integer("last");
    if (first >= n) first = 0;
    if (last < 0 || last >= n) last = n - 1;
    for (Index i = first; i <= last; ++i) indices.push_back(i);
  } else if (indices.empty()) {
    // The nearest input point within the radius, for each output point.
    const int d = child.dimension;
    for (Index i = 0; i < child.num_points; ++i) {
      double nearest = p.real("radius");
      Index found = -1;
      for (Index j = 0; j < n; ++j) {
        const double r =
            (child.position.segment(i * d, d) - parent.position.segment(j * d, d)).norm();
        if (r < nearest) {
          nearest = r;
          found = j;
        }
      }
      if (found < 0) {
        context.Error("SubsetMapping: point " + std::to_string(i) + " of '" + child.id +
                      "' is farther than radius = " + FormatReal(p.real("radius")) +
                      " from every point of '" + parent.id +
                      "' (expected 'indices', or a radius that finds it)");
        return;
      }
      indices.push_back(found);
    }
  }
  std::vector<std::vector<std::pair<Index, double>>> stencils;
  for (const Index index : indices) {
    if (index < 0 || index >= n) {
      context.Error("SubsetMapping index " + std::to_string(index) + " is out of range (expected " +
                    "a point of '" + parent.id + "', 0 to " + std::to_string(n - 1) + ")");
      return;
    }
    stencils.push_back({{index, 1.0}});
  }
  context.MapObject(child, parent, PointJacobian(stencils, n, parent.dimension));
}

}  // namespace fluxion::internal
