#include "components/linear_movement_projective_constraint.h"

#include "components/projective_helpers.h"
#include "mechanics/point_list_follower.h"

namespace fluxion::internal {

namespace {

class LinearMovement final : public ProjectiveConstraint, public PointListFollower {
 public:
  LinearMovement(std::vector<Index> points, int dimension, std::vector<double> initial,
                 std::vector<double> times, std::vector<double> movements, bool relative)
      : points_(std::move(points)),
        dimension_(dimension),
        initial_(std::move(initial)),
        times_(std::move(times)),
        movements_(std::move(movements)),
        relative_(relative) {}

  bool HoldsPoints(double time) const override { return Segment(time) >= 0; }

  void ProjectPosition(double time, std::span<double> x) const override {
    const int i = Segment(time);
    if (i < 0) return;
    // m(t) = mᵢ + (mᵢ₊₁ − mᵢ)·(t − tᵢ)/(tᵢ₊₁ − tᵢ), SOFA's order of operations.
    const auto k = static_cast<std::size_t>(i);
    const double fraction = (time - times_[k]) / (times_[k + 1] - times_[k]);
    for (std::size_t p = 0; p < points_.size(); ++p) {
      for (int a = 0; a < dimension_; ++a) {
        const double previous = Movement(k, a), next = Movement(k + 1, a);
        const double m = previous + (next - previous) * fraction;
        const std::size_t at = static_cast<std::size_t>(points_[p] * dimension_ + a);
        x[at] =
            relative_
                ? initial_[p * static_cast<std::size_t>(dimension_) + static_cast<std::size_t>(a)] +
                      m
                : m;
      }
    }
  }

  void ProjectVelocity(double time, std::span<double> v) const override {
    const int i = Segment(time);
    if (i < 0) return;
    const auto k = static_cast<std::size_t>(i);
    for (const Index point : points_)
      for (int a = 0; a < dimension_; ++a)
        v[static_cast<std::size_t>(point * dimension_ + a)] =
            (Movement(k + 1, a) - Movement(k, a)) * (1.0 / (times_[k + 1] - times_[k]));
  }

  // A removed point leaves the list with its x₀; the moved last point is renamed, keeping its
  // own x₀: the rebuild's start (renumbered initial positions). SOFA's x0 is indexed by point
  // number and not renumbered (see the component's header).
  void RemovePointMovingLast(Index point, Index last) override {
    RemoveMovingLast(points_, point, last, &initial_, static_cast<std::size_t>(dimension_));
  }

 private:
  // SOFA's findKeyTimes: the last key i with tᵢ ≤ t when k₀ ≤ t ≤ k_last and a later key exists
  // (so t < k_last); otherwise -1 (the constraint does nothing).
  int Segment(double time) const {
    if (times_.empty() || time < times_.front() || time > times_.back()) return -1;
    for (std::size_t k = 0; k + 1 < times_.size(); ++k)
      if (times_[k] <= time && time < times_[k + 1]) {
        // A repeated key time: SOFA takes the last key at or before t.
        std::size_t last = k;
        while (last + 1 < times_.size() && times_[last + 1] <= time) ++last;
        return last + 1 < times_.size() ? static_cast<int>(last) : -1;
      }
    return -1;
  }
  double Movement(std::size_t key, int axis) const {
    return movements_[key * static_cast<std::size_t>(dimension_) + static_cast<std::size_t>(axis)];
  }

  std::vector<Index> points_;
  int dimension_;
  std::vector<double> initial_, times_, movements_;
  bool relative_;
};

}  // namespace

ComponentSpec LinearMovementProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "LinearMovementProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Moves points along a key-framed, piecewise-linear path",
      .fields = {FieldSpec::IndexList("indices", "points moved").DefaultText("0"),
                 FieldSpec::RealList("keyTimes", "key times, chronological [s]").DefaultText("0"),
                 FieldSpec::RealList("movements", "one displacement (or position) per key time")
                     .DefaultText("0 0 0"),
                 FieldSpec::Bool("relativeMovements", true,
                                 "movements are relative to the initial positions")},
      .aliases = {"LinearMovementConstraint"}};
}

void LinearMovementProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const std::vector<double>& times = p.reals("keyTimes");
  std::vector<double> movements = p.reals("movements");
  const auto d = static_cast<std::size_t>(object.dimension);
  // SOFA's default movement is one zero vector whatever the template: "0 0 0" fits Vec3 only.
  if (!p.has("movements")) movements.assign(d * times.size(), 0.0);
  // SOFA walks the movements along the key times: vectors after the last key time's are never
  // read (its Benchmark/TopologicalChanges scene gives 6 numbers per key time on Vec3).
  if (movements.size() > d * times.size()) {
    context.Warn("LinearMovementProjectiveConstraint 'movements' has " +
                 std::to_string(movements.size()) + " numbers for " + std::to_string(times.size()) +
                 " key times: the first " + std::to_string(d * times.size()) + " are used (" +
                 std::to_string(d) + " per key time), the others ignored, as SOFA does");
    movements.resize(d * times.size());
  }
  if (movements.size() != d * times.size()) {
    context.Error("LinearMovementProjectiveConstraint 'movements' has " +
                  std::to_string(movements.size()) + " numbers (expected " +
                  std::to_string(d * times.size()) + ": " + std::to_string(d) + " per key time, " +
                  std::to_string(times.size()) + " key times)");
    return;
  }
  for (std::size_t k = 0; k + 1 < times.size(); ++k) {
    if (times[k + 1] < times[k]) {
      context.Error(
          "LinearMovementProjectiveConstraint 'keyTimes' are not in chronological "
          "order (expected non-decreasing times)");
      return;
    }
  }
  const std::vector<Index> points = ListedPoints(context, object, "indices");
  std::vector<double> initial = InitialPositions(object, points);
  auto movement =
      std::make_unique<LinearMovement>(points, object.dimension, std::move(initial), times,
                                       std::move(movements), p.flag("relativeMovements"));
  context.AddProjectiveConstraint(object, points, std::move(movement));
}

}  // namespace fluxion::internal
