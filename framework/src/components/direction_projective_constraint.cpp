#include "components/direction_projective_constraint.h"

#include "components/projective_helpers.h"
#include "mechanics/point_list_follower.h"

namespace fluxion::internal {

namespace {

// x_i ← o_i + n((x_i − o_i)·n) and v_i ← n(v_i·n) on the constrained points, o_i the point's
// initial position.
class DirectionProjection final : public ProjectiveConstraint, public PointListFollower {
 public:
  DirectionProjection(std::vector<Index> points, int dimension, std::vector<double> origins,
                      std::vector<double> direction)
      : points_(std::move(points)),
        dimension_(dimension),
        origins_(std::move(origins)),
        direction_(std::move(direction)) {}

  void ProjectPosition(double /*time*/, std::span<double> x) const override {
    for (std::size_t k = 0; k < points_.size(); ++k) {
      double* p = x.data() + points_[k] * dimension_;
      const double* o = origins_.data() + k * static_cast<std::size_t>(dimension_);
      double along = 0.0;
      for (int a = 0; a < dimension_; ++a) along += (p[a] - o[a]) * direction_[a];
      for (int a = 0; a < dimension_; ++a) p[a] = o[a] + direction_[a] * along;
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

  // SOFA's TopologySubsetIndices: a removed point leaves the list with its initial position.
  void RemovePointMovingLast(Index point, Index last) override {
    RemoveMovingLast(points_, point, last, &origins_, static_cast<std::size_t>(dimension_));
  }

 private:
  std::vector<Index> points_;
  int dimension_;
  std::vector<double> origins_;  // one initial position per constrained point
  std::vector<double> direction_;
};

}  // namespace

ComponentSpec DirectionProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "DirectionProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Keeps points on the lines through their initial positions along one direction",
      .fields = {FieldSpec::IndexList("indices", "points kept on their lines"),
                 FieldSpec::RealList("direction",
                                     "direction of the lines (normalised; zero holds the points)")
                     .DefaultText("0 0 0"),
                 FieldSpec::Real("drawSize", 0.0, "drawing option: no effect"),
                 FieldSpec::Link("topology", "SOFA: the topology its indices follow")},
      .aliases = {}};
}

void DirectionProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  std::vector<double> direction;
  if (!ReadVector(context, object, "direction", direction)) return;
  const std::vector<Index> points = ListedPoints(context, object, "indices");
  // SOFA normalises a nonzero direction and leaves a zero one zero (its reinit).
  const double length = Norm(direction);
  if (length != 0.0)
    for (double& n : direction) n /= length;
  const int d = object.dimension;
  std::vector<double> origins;
  for (const Index point : points)
    for (int a = 0; a < d; ++a) origins.push_back(object.position[point * d + a]);
  // P = nnᵀ on each point.
  std::vector<double> projector(static_cast<std::size_t>(d * d));
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      projector[static_cast<std::size_t>(i * d + j)] =
          direction[static_cast<std::size_t>(i)] * direction[static_cast<std::size_t>(j)];
  for (const Index point : points) context.ProjectPoint(object, point, projector);
  context.AddProjectiveConstraint(
      object, {},
      std::make_unique<DirectionProjection>(points, d, std::move(origins), std::move(direction)));
}

}  // namespace fluxion::internal
