#include "components/patch_test_movement_projective_constraint.h"

#include <array>
#include <cmath>
#include <string>

#include "components/projective_helpers.h"

namespace fluxion::internal {

namespace {

using Point3 = std::array<double, 3>;

std::vector<Point3> AsPoints(const std::vector<double>& numbers) {
  std::vector<Point3> points(numbers.size() / 3);
  for (std::size_t i = 0; i < points.size(); ++i)
    points[i] = {numbers[3 * i], numbers[3 * i + 1], numbers[3 * i + 2]};
  return points;
}

// SOFA's findCornerPoints: four corners of a planar patch, eight when the points do not all
// share the first one's z. Each test is SOFA's, including those that compare against another
// corner (c₄ against c₀, c₆ against c₂) and the `else` that skips c₇ when c₅ moved.
std::vector<Point3> FindCorners(const std::vector<Point3>& points) {
  if (points.empty()) return {};
  bool in_3d = false;
  for (const Point3& p : points)
    if (p[2] != points[0][2]) in_3d = true;
  std::array<Point3, 8> c;
  c.fill(points[0]);
  for (const Point3& p : points) {
    if (p[0] < c[0][0] || p[1] < c[0][1] || p[2] < c[0][2]) c[0] = p;
    if (p[0] > c[2][0] || p[1] > c[2][1] || p[2] < c[2][2]) c[2] = p;
    if (p[1] < c[1][1] || p[0] > c[1][0] || p[2] < c[1][2]) c[1] = p;
    if (p[0] < c[3][0] || p[1] > c[3][1] || p[2] < c[3][2]) c[3] = p;
    if (!in_3d) continue;
    if (p[0] < c[4][0] || p[1] < c[4][1] || p[2] > c[0][2]) c[4] = p;
    if (p[0] > c[6][0] || p[1] > c[6][1] || p[2] > c[2][2]) c[6] = p;
    if (p[1] < c[5][1] || p[0] > c[5][0] || p[2] > c[5][2])
      c[5] = p;
    else if (p[0] < c[7][0] || p[1] > c[7][1] || p[2] > c[7][2])
      c[7] = p;
  }
  return {c.begin(), c.begin() + (in_3d ? 8 : 4)};
}

}  // namespace

ComponentSpec PatchTestMovementProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "PatchTestMovementProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary =
          "Moves a patch's boundary points by the bilinear interpolation of its corners' "
          "movements over time",
      .fields = {FieldSpec::IndexList("indices", "points moved"),
                 FieldSpec::IndexList("meshIndices", "points of the mesh (accepted, unused)"),
                 FieldSpec::Real("beginConstraintTime", 0.0, "start of the movement [s]"),
                 FieldSpec::Real("endConstraintTime", 20.0, "end of the movement [s]"),
                 FieldSpec::RealList("constrainedPoints",
                                     "coordinates of the constrained points, where the corners "
                                     "are looked for [m]"),
                 FieldSpec::RealList("cornerMovements",
                                     "displacement of each corner (4, or 8 in 3-D) [m]"),
                 FieldSpec::RealList("cornerPoints",
                                     "the corners (4 or 8 points), instead of those found [m]"),
                 FieldSpec::Link("topology", "the topology (accepted, unused)")},
      .aliases = {"PatchTestMovementConstraint"}};
}

void PatchTestMovementProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const std::string type = "PatchTestMovementProjectiveConstraint";
  if (object.dimension != 3) {
    context.Error(type + " needs a Vec3d object ('" + object.id + "' has dimension " +
                  std::to_string(object.dimension) + ")");
    return;
  }
  for (const char* field : {"constrainedPoints", "cornerMovements", "cornerPoints"})
    if (p.reals(field).size() % 3 != 0) {
      context.Error(type + " '" + field + "' has " + std::to_string(p.reals(field).size()) +
                    " numbers (expected 3 per point)");
      return;
    }

  // The corners: given, else found among the constrained points.
  const std::vector<Point3> corners = p.has("cornerPoints")
                                          ? AsPoints(p.reals("cornerPoints"))
                                          : FindCorners(AsPoints(p.reals("constrainedPoints")));
  const std::vector<Point3> movements = AsPoints(p.reals("cornerMovements"));
  if (!corners.empty() && corners.size() != 4 && corners.size() != 8) {
    context.Error(type + " 'cornerPoints' has " + std::to_string(corners.size()) +
                  " points (expected 4 corners, or 8 in 3-D)");
    return;
  }
  if (movements.size() < corners.size()) {
    context.Error(type + " 'cornerMovements' has " + std::to_string(movements.size()) +
                  " vectors (expected one for each of the " + std::to_string(corners.size()) +
                  " corners)");
    return;
  }
  // The patch's extent along each axis the interpolation divides by: c₁ − c₀ along x,
  // c₃ − c₀ along y, c₄ − c₀ along z.
  Point3 width{1.0, 1.0, 1.0};
  if (!corners.empty()) {
    width = {std::fabs(corners[1][0] - corners[0][0]), std::fabs(corners[3][1] - corners[0][1]),
             corners.size() == 8 ? std::fabs(corners[4][2] - corners[0][2]) : 1.0};
    for (int axis = 0; axis < 3; ++axis)
      if (width[axis] == 0.0) {
        context.Error(type + ": the corners span no width along " + "xyz"[axis] +
                      " (expected constrainedPoints or cornerPoints spanning the patch)");
        return;
      }
  } else if (!p.indices("indices").empty()) {
    context.Warn(type +
                 " has no corners (no constrainedPoints, no cornerPoints): its points "
                 "are held at their initial positions");
  }

  const std::vector<Index> points = ListedPoints(context, object, "indices");
  std::vector<double> initial = InitialPositions(object, points);
  // x_f = x₀ + d(x₀), d the interpolation of the corners' movements.
  std::vector<double> final_positions = initial;
  if (!corners.empty()) {
    for (std::size_t q = 0; q < points.size(); ++q) {
      const double* x0 = &initial[3 * q];
      const double alpha = std::fabs(x0[0] - corners[0][0]) / width[0];
      const double beta = std::fabs(x0[1] - corners[0][1]) / width[1];
      const double gamma = corners.size() == 8 ? std::fabs(x0[2] - corners[0][2]) / width[2] : 0;
      for (std::size_t a = 0; a < 3; ++a) {
        const auto face = [&](std::size_t first) {
          return movements[first][a] * (1 - alpha) * (1 - beta) +
                 movements[first + 1][a] * alpha * (1 - beta) +
                 movements[first + 2][a] * alpha * beta +
                 movements[first + 3][a] * (1 - alpha) * beta;
        };
        const double d = corners.size() == 8 ? face(0) * (1 - gamma) + face(4) * gamma : face(0);
        final_positions[3 * q + a] = x0[a] + d;
      }
    }
  }
  context.AddProjectiveConstraint(object, points,
                                  std::make_unique<InterpolatedMovement>(
                                      points, 3, std::move(initial), std::move(final_positions),
                                      p.real("beginConstraintTime"), p.real("endConstraintTime")));
}

}  // namespace fluxion::internal
