#include "components/plane_projective_constraint.h"

#include "components/projective_helpers.h"
#include "mechanics/point_list_follower.h"

namespace fluxion::internal {

namespace {

// x ← x − n((x − o)·n) and v ← v − n(v·n) on the constrained points.
class PlaneProjection final : public ProjectiveConstraint, public PointListFollower {
 public:
  PlaneProjection(std::vector<Index> points, int dimension, std::vector<double> origin,
                  std::vector<double> normal)
      : points_(std::move(points)),
        dimension_(dimension),
        origin_(std::move(origin)),
        normal_(std::move(normal)) {}

  void ProjectPosition(double /*time*/, std::span<double> x) const override {
    for (const Index point : points_) {
      double* p = x.data() + point * dimension_;
      double along = 0.0;
      for (int a = 0; a < dimension_; ++a) along += (p[a] - origin_[a]) * normal_[a];
      for (int a = 0; a < dimension_; ++a) p[a] -= normal_[a] * along;
    }
  }
  void ProjectVelocity(double /*time*/, std::span<double> v) const override {
    for (const Index point : points_) {
      double* p = v.data() + point * dimension_;
      double along = 0.0;
      for (int a = 0; a < dimension_; ++a) along += p[a] * normal_[a];
      for (int a = 0; a < dimension_; ++a) p[a] -= normal_[a] * along;
    }
  }

  // SOFA's TopologySubsetIndices: a removed point leaves the list, the last one is renamed.
  void RemovePointMovingLast(Index point, Index last) override {
    RemoveMovingLast(points_, point, last);
  }

 private:
  std::vector<Index> points_;
  int dimension_;
  std::vector<double> origin_, normal_;
};

}  // namespace

ComponentSpec PlaneProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "PlaneProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Keeps points in a plane: they move only within it",
      .fields =
          {FieldSpec::IndexList("indices", "points kept in the plane").DefaultText("0"),
           FieldSpec::RealList("origin", "a point of the plane [m]").DefaultText("0 0 0"),
           FieldSpec::RealList("normal", "normal of the plane (normalised)").DefaultText("0 0 0")},
      .aliases = {"ProjectToPlaneConstraint"}};
}

void PlaneProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  std::vector<double> origin, normal;
  if (!ReadVector(context, object, "origin", origin) ||
      !ReadVector(context, object, "normal", normal))
    return;
  const std::vector<Index> points = ListedPoints(context, object, "indices");
  const double length = Norm(normal);
  if (length == 0.0) {
    context.Warn("PlaneProjectiveConstraint 'normal' is zero: nothing is projected (as in SOFA)");
    return;
  }
  for (double& n : normal) n /= length;
  // P = I − nnᵀ on each point.
  const int d = object.dimension;
  std::vector<double> projector(static_cast<std::size_t>(d * d));
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      projector[static_cast<std::size_t>(i * d + j)] =
          (i == j ? 1.0 : 0.0) -
          normal[static_cast<std::size_t>(i)] * normal[static_cast<std::size_t>(j)];
  for (const Index point : points) context.ProjectPoint(object, point, projector);
  context.AddProjectiveConstraint(
      object, {},
      std::make_unique<PlaneProjection>(points, d, std::move(origin), std::move(normal)));
}

}  // namespace fluxion::internal
