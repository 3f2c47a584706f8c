#include "components/line_projective_constraint.h"

#include "components/projective_helpers.h"
#include "mechanics/point_list_follower.h"

namespace fluxion::internal {

namespace {

// x ← o + n((x − o)·n) and v ← n(v·n) on the constrained points.
class LineProjection final : public ProjectiveConstraint, public PointListFollower {
 public:
  LineProjection(std::vector<Index> points, int dimension, std::vector<double> origin,
                 std::vector<double> direction)
      : points_(std::move(points)),
        dimension_(dimension),
        origin_(std::move(origin)),
        direction_(std::move(direction)) {}

  void ProjectPosition(double /*time*/, std::span<double> x) const override {
    for (const Index point : points_) {
      double* p = x.data() + point * dimension_;
      double along = 0.0;
      for (int a = 0; a < dimension_; ++a) along += (p[a] - origin_[a]) * direction_[a];
      for (int a = 0; a < dimension_; ++a) p[a] = origin_[a] + direction_[a] * along;
    }
  }
  void ProjectVelocity(double /*time*/, std::span<double> v) const override {
    for (const Index point : points_) {
      double* p = v.data() + point * dimension_;
      double along = 0.0;
      for (int a = 0; a < dimension_; ++a) along += p[a] * direction_[a];
      for (int a = 0; a < dimension_; ++a) p[a] = direction_[a] * along;
    }
  }

  // SOFA's TopologySubsetIndices: a removed point leaves the list, the last one is renamed.
  void RemovePointMovingLast(Index point, Index last) override {
    RemoveMovingLast(points_, point, last);
  }

 private:
  std::vector<Index> points_;
  int dimension_;
  std::vector<double> origin_, direction_;
};

}  // namespace

ComponentSpec LineProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "LineProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Keeps points on a line: they move only along it",
      .fields = {FieldSpec::IndexList("indices", "points kept on the line").DefaultText("0"),
                 FieldSpec::RealList("origin", "a point of the line [m]").DefaultText("0 0 0"),
                 FieldSpec::RealList("direction", "direction of the line (normalised)")
                     .DefaultText("0 0 0")},
      .aliases = {"ProjectToLineConstraint"}};
}

void LineProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  std::vector<double> origin, direction;
  if (!ReadVector(context, object, "origin", origin) ||
      !ReadVector(context, object, "direction", direction))
    return;
  const std::vector<Index> points = ListedPoints(context, object, "indices");
  const double length = Norm(direction);
  if (length == 0.0) {
    direction[0] = 1.0;  // SOFA's arbitrary choice
  } else {
    for (double& n : direction) n /= length;
  }
  // P = nnᵀ on each point.
  const int d = object.dimension;
  std::vector<double> projector(static_cast<std::size_t>(d * d));
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      projector[static_cast<std::size_t>(i * d + j)] =
          direction[static_cast<std::size_t>(i)] * direction[static_cast<std::size_t>(j)];
  for (const Index point : points) context.ProjectPoint(object, point, projector);
  context.AddProjectiveConstraint(
      object, {},
      std::make_unique<LineProjection>(points, d, std::move(origin), std::move(direction)));
}

}  // namespace fluxion::internal
