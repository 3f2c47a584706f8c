#include "components/point_projective_constraint.h"

#include "components/projective_helpers.h"
#include "mechanics/point_list_follower.h"

namespace fluxion::internal {

namespace {

// x ← target and v ← 0 on the constrained points.
class PointProjection final : public ProjectiveConstraint, public PointListFollower {
 public:
  PointProjection(std::vector<Index> points, int dimension, std::vector<double> target)
      : points_(std::move(points)), dimension_(dimension), target_(std::move(target)) {}

  void ProjectPosition(double /*time*/, std::span<double> x) const override {
    for (const Index point : points_)
      for (int a = 0; a < dimension_; ++a)
        x[static_cast<std::size_t>(point * dimension_ + a)] = target_[static_cast<std::size_t>(a)];
  }
  void ProjectVelocity(double /*time*/, std::span<double> v) const override {
    for (const Index point : points_)
      for (int a = 0; a < dimension_; ++a)
        v[static_cast<std::size_t>(point * dimension_ + a)] = 0.0;
  }

  // SOFA's TopologySubsetIndices: a removed point leaves the list, the last one is renamed.
  void RemovePointMovingLast(Index point, Index last) override {
    RemoveMovingLast(points_, point, last);
  }

 private:
  std::vector<Index> points_;
  int dimension_;
  std::vector<double> target_;
};

}  // namespace

ComponentSpec PointProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "PointProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Puts points on a given point and keeps them there",
      .fields = {FieldSpec::IndexList("indices", "points put on the target").DefaultText("0"),
                 FieldSpec::RealList("point", "the target [m]").DefaultText("0 0 0"),
                 FieldSpec::Bool("fixAll", false, "every point of the object")},
      .aliases = {"ProjectToPointConstraint"}};
}

void PointProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  std::vector<double> target;
  if (!ReadVector(context, object, "point", target)) return;
  std::vector<Index> points;
  if (context.parameters().flag("fixAll")) {
    for (Index i = 0; i < object.num_points; ++i) points.push_back(i);
  } else {
    points = ListedPoints(context, object, "indices");
  }
  // P = 0: the fixed-point projection (and its fast path in the system).
  for (const Index point : points) context.FixPoint(object, point);
  context.AddProjectiveConstraint(
      object, {}, std::make_unique<PointProjection>(points, object.dimension, std::move(target)));
}

}  // namespace fluxion::internal
