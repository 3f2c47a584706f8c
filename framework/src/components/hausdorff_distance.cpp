#include "components/hausdorff_distance.h"
#include "fluxion/log.h"
#include "fluxion/text.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "components/engine_inputs.h"

namespace fluxion::internal {

ComponentSpec HausdorffDistanceComponent::Spec() {
  return ComponentSpec{
      .name = "HausdorffDistance",
      .kind = ComponentKind::kEngine,
      .summary = "Hausdorff distances between two point clouds (output for links)",
      .fields = {FieldSpec::Choice(
                     "template", "Vec3d",
                     {"Vec3d", "Vec3", "Vec3f", "Vec2d", "Vec2", "Vec2f", "Vec1d", "Vec1", "Vec1f"},
                     "point type: 1, 2 or 3 coordinates per point"),
                 FieldSpec::RealList("points1", "first point cloud"),
                 FieldSpec::RealList("points2", "second point cloud"),
                 FieldSpec::Bool("update", false,
                                 "SOFA: recompute every step (here: computed once at load time)")},
      .aliases = {}};
}

namespace {
// The largest distance from a point of `from` to its nearest point of `to` (0 when `from` is
// empty).
double Directed(const std::vector<Point3>& from, const std::vector<Point3>& to) {
  double largest = 0.0;
  for (const Point3& a : from) {
    double nearest = std::numeric_limits<double>::infinity();
    for (const Point3& b : to)
      nearest = std::min(nearest, std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    largest = std::max(largest, nearest);
  }
  return largest;
}
}  // namespace

void HausdorffDistanceComponent::Build(BuildContext& context) {
  const std::string& point_type = context.parameters().text("template");
  const int dimension = point_type[3] - '0';
  const auto points1 = ReadPoints(context, "points1", dimension);
  const auto points2 = ReadPoints(context, "points2", dimension);
  if (!points1 || !points2) return;
  if (points1->empty() != points2->empty()) {
    context.Error(std::string("HausdorffDistance '") + (points1->empty() ? "points1" : "points2") +
                  "' is empty (expected points in both clouds)");
    return;
  }
  const double d12 = Directed(*points1, *points2);
  const double d21 = Directed(*points2, *points1);
  LogInfo(context.Where() + "HausdorffDistance d12 = " + FormatReal(d12) +
          ", d21 = " + FormatReal(d21));
  context.SetOutput("d12", d12);
  context.SetOutput("d21", d21);
  context.SetOutput("max", std::max(d12, d21));
}

}  // namespace fluxion::internal
