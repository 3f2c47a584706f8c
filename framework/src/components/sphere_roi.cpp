#include "components/sphere_roi.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "components/roi_geometry.h"
#include "components/roi_selection.h"

namespace fluxion::internal {

ComponentSpec SphereRoiComponent::Spec() {
  ComponentSpec spec{
      .name = "SphereROI",
      .kind = ComponentKind::kEngine,
      .summary = "Selects the points and elements inside spheres (outputs for links)",
      .fields = {FieldSpec::RealList("centers", "sphere centers, x y z each [m]"),
                 FieldSpec::RealList("radii", "sphere radii, one per center or one for all [m]"),
                 FieldSpec::RealList("direction", "edge direction (when edgeAngle > 0)")
                     .DefaultText("0 0 0"),
                 FieldSpec::RealList("normal", "triangle normal direction (when triAngle > 0)")
                     .DefaultText("0 0 0"),
                 FieldSpec::Real("edgeAngle", 0.0,
                                 "an edge is kept when its angle to `direction` exceeds this "
                                 "[degrees] (0: every edge)"),
                 FieldSpec::Real("triAngle", 0.0,
                                 "a triangle is kept when its normal's angle to `normal` exceeds "
                                 "this [degrees] (0: every triangle)")
                     .Alias("angle"),
                 FieldSpec::Bool("isVisible", false, "SOFA drawing option: no effect")},
      .aliases = {}};
  for (FieldSpec& field : RoiFields()) spec.fields.push_back(std::move(field));
  for (FieldSpec& field : spec.fields)
    if (field.name == "position") field.Alias("rest_position");
  return spec;
}

void SphereRoiComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::vector<double>& c = p.reals("centers");
  std::vector<double> radii = p.reals("radii");
  bool ok = true;
  if (c.size() % 3 != 0) {
    context.Error("SphereROI 'centers' has " + std::to_string(c.size()) +
                  " numbers (expected 3 per center)");
    ok = false;
  }
  const std::size_t spheres = c.size() / 3;
  if (radii.size() == 1 && spheres > 1) radii.assign(spheres, radii[0]);
  if (ok && radii.size() != spheres) {
    context.Error("SphereROI has " + std::to_string(spheres) + " centers and " +
                  std::to_string(radii.size()) +
                  " radii (expected one radius per center, or one for all)");
    ok = false;
  }
  for (const char* field : {"direction", "normal"})
    if (p.reals(field).size() != 3) {
      context.Error(std::string("SphereROI '") + field + "' needs 3 numbers (x y z)");
      ok = false;
    }
  if (!ok) return;
  if (spheres == 0) context.Warn("SphereROI has no 'centers': it selects nothing (as SOFA)");

  std::vector<roi::Point> centers(spheres);
  for (std::size_t s = 0; s < spheres; ++s) centers[s] = {c[3 * s], c[3 * s + 1], c[3 * s + 2]};
  RoiTests tests;
  tests.contains = [centers, radii](const roi::Point& x) {
    for (std::size_t s = 0; s < centers.size(); ++s) {
      const roi::Point d = roi::Minus(x, centers[s]);
      if (roi::Dot(d, d) <= radii[s] * radii[s]) return true;
    }
    return false;
  };
  const double degree = std::numbers::pi / 180.0;
  const double edge_angle = p.real("edgeAngle");
  if (edge_angle > 0) {
    const roi::Point direction = roi::Normalized(
        {p.reals("direction")[0], p.reals("direction")[1], p.reals("direction")[2]});
    const double limit = std::fabs(std::cos(edge_angle * degree));
    tests.edge_test = [direction, limit](std::span<const Index> e, std::span<const roi::Point> x) {
      const roi::Point n = roi::Normalized(
          roi::Minus(x[static_cast<std::size_t>(e[1])], x[static_cast<std::size_t>(e[0])]));
      return std::fabs(roi::Dot(n, direction)) < limit;
    };
  }
  const double triangle_angle = p.real("triAngle");
  if (triangle_angle > 0) {
    const roi::Point normal =
        roi::Normalized({p.reals("normal")[0], p.reals("normal")[1], p.reals("normal")[2]});
    const double limit = std::cos(triangle_angle * degree);
    tests.triangle_test = [normal, limit](std::span<const Index> t, std::span<const roi::Point> x) {
      const roi::Point& x0 = x[static_cast<std::size_t>(t[0])];
      const roi::Point a = roi::Minus(x[static_cast<std::size_t>(t[2])], x0);
      const roi::Point b = roi::Minus(x[static_cast<std::size_t>(t[1])], x0);
      const roi::Point n = roi::Normalized(
          {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]});
      return roi::Dot(n, normal) < limit;
    };
  }
  SelectRoi(context, tests, "pointIndices");
}

}  // namespace fluxion::internal
