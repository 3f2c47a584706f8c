#include "components/fixed_plane_projective_constraint.h"

#include <cmath>

#include "components/projective_helpers.h"

namespace fluxion::internal {

ComponentSpec FixedPlaneProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "FixedPlaneProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Stops points moving along a direction (they slide in the normal plane)",
      .fields =
          {FieldSpec::RealList("direction", "normal direction of the plane").DefaultText("0 0 0"),
           FieldSpec::Real("dmin", 0.0, "points with dmin < x·direction < dmax are added"),
           FieldSpec::Real("dmax", 0.0, "see dmin (dmin = dmax: no selection by distance)"),
           FieldSpec::IndexList("indices", "points constrained")},
      .aliases = {"FixedPlaneConstraint"}};
}

void FixedPlaneProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  std::vector<double> direction;
  if (!ReadVector(context, object, "direction", direction)) return;
  std::vector<Index> points = ListedPoints(context, object, "indices");
  const int d = object.dimension;
  const double dmin = p.real("dmin"), dmax = p.real("dmax");
  if (dmin != dmax) {
    for (Index i = 0; i < object.num_points; ++i) {
      double along = 0.0;
      for (int a = 0; a < d; ++a)
        along += object.position[i * d + a] * direction[static_cast<std::size_t>(a)];
      if (along > dmin && along < dmax) points.push_back(i);
    }
  }
  const double length = Norm(direction);
  if (length == 0.0) {
    context.Warn(
        "FixedPlaneProjectiveConstraint 'direction' is zero: nothing is projected (as "
        "in SOFA)");
    return;
  }
  if (std::abs(length - 1.0) > 1e-12)
    context.Warn("FixedPlaneProjectiveConstraint 'direction' has length " + std::to_string(length) +
                 ": Fluxion normalises it (SOFA uses it as written, which is not a projection)");
  for (double& n : direction) n /= length;
  // P = I − ddᵀ on each point; a point listed twice gets P·P = P.
  std::vector<double> projector(static_cast<std::size_t>(d * d));
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      projector[static_cast<std::size_t>(i * d + j)] =
          (i == j ? 1.0 : 0.0) -
          direction[static_cast<std::size_t>(i)] * direction[static_cast<std::size_t>(j)];
  for (const Index point : points) context.ProjectPoint(object, point, projector);
}

}  // namespace fluxion::internal
