#include "components/hermite_spline_projective_constraint.h"

#include <array>
#include <string>

#include "components/projective_helpers.h"

namespace fluxion::internal {

namespace {

using Vec3 = std::array<double, 3>;

// The cubic Hermite basis at s: h₀₀, h₁₀, h₀₁, h₁₁.
std::array<double, 4> HermiteBasis(double s) {
  const double s2 = s * s, s3 = s2 * s;
  return {2 * s3 - 3 * s2 + 1, s3 - 2 * s2 + s, -2 * s3 + 3 * s2, s3 - s2};
}

// Its derivatives with respect to s.
std::array<double, 4> HermiteBasisDerivative(double s) {
  const double s2 = s * s;
  return {6 * s2 - 6 * s, 3 * s2 - 4 * s + 1, -6 * s2 + 6 * s, 3 * s2 - 2 * s};
}

class HermiteSpline final : public ProjectiveConstraint {
 public:
  HermiteSpline(std::vector<Index> points, double begin, double end, std::array<Vec3, 4> control,
                double warp0, double warp1)
      : points_(std::move(points)),
        begin_(begin),
        end_(end),
        control_(control),
        warp0_(warp0),
        warp1_(warp1) {}

  bool HoldsPoints(double time) const override { return InWindow(time); }

  void ProjectPosition(double time, std::span<double> x) const override {
    if (InWindow(time)) Set(HermiteBasis(Warp(time)), x);
  }

  void ProjectVelocity(double time, std::span<double> v) const override {
    if (InWindow(time)) Set(HermiteBasisDerivative(Warp(time)), v);
  }

 private:
  bool InWindow(double time) const { return time >= begin_ && time <= end_; }

  // s(u): the y coordinate of the Hermite curve from (0, 0) to (1, 1) with tangents SX0, SX1.
  double Warp(double time) const {
    const double u = (time - begin_) / (end_ - begin_);
    const std::array<double, 4> h = HermiteBasis(u);
    return warp0_ * h[1] + h[2] + warp1_ * h[3];
  }

  // values of every point ← Σ basis[k]·control[k] (X0, dX0, X1, dX1).
  void Set(const std::array<double, 4>& basis, std::span<double> values) const {
    for (std::size_t a = 0; a < 3; ++a) {
      const double value = control_[0][a] * basis[0] + control_[1][a] * basis[1] +
                           control_[2][a] * basis[2] + control_[3][a] * basis[3];
      for (const Index point : points_) values[static_cast<std::size_t>(point) * 3 + a] = value;
    }
  }

  std::vector<Index> points_;
  double begin_, end_;
  std::array<Vec3, 4> control_;  // X0, dX0, X1, dX1
  double warp0_, warp1_;         // the y components of SX0 and SX1
};

}  // namespace

ComponentSpec HermiteSplineProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "HermiteSplineProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Drives points along a cubic Hermite curve between two times",
      .fields = {FieldSpec::IndexList("indices", "points driven"),
                 FieldSpec::Real("BeginTime", 0.0, "start of the motion [s]"),
                 FieldSpec::Real("EndTime", 0.0, "end of the motion [s]"),
                 FieldSpec::RealList("X0", "first control point [m]").DefaultText("0 0 0"),
                 FieldSpec::RealList("dX0", "tangent at X0 [m]").DefaultText("0 0 0"),
                 FieldSpec::RealList("X1", "second control point [m]").DefaultText("0 0 0"),
                 FieldSpec::RealList("dX1", "tangent at X1 [m]").DefaultText("0 0 0"),
                 FieldSpec::RealList("SX0",
                                     "time warp: tangent at (0, 0) of the curve from "
                                     "(0, 0) to (1, 1) whose y is the warped time")
                     .DefaultText("0 0"),
                 FieldSpec::RealList("SX1", "time warp: its tangent at (1, 1)").DefaultText("0 0"),
                 FieldSpec::Link("topology", "the topology (accepted, unused)")},
      .aliases = {"HermiteSplineConstraint"}};
}

void HermiteSplineProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const std::string type = "HermiteSplineProjectiveConstraint";
  if (object.dimension != 3) {
    context.Error(type + " needs a Vec3d object ('" + object.id + "' has dimension " +
                  std::to_string(object.dimension) + ")");
    return;
  }
  std::array<Vec3, 4> control{};
  const char* names[4] = {"X0", "dX0", "X1", "dX1"};
  for (std::size_t k = 0; k < 4; ++k) {
    std::vector<double> vector;
    if (!ReadVector(context, object, names[k], vector)) return;
    control[k] = {vector[0], vector[1], vector[2]};
  }
  for (const char* field : {"SX0", "SX1"})
    if (p.reals(field).size() != 2) {
      context.Error(type + " '" + field + "' has " + std::to_string(p.reals(field).size()) +
                    " numbers (expected 2)");
      return;
    }
  const double begin = p.real("BeginTime"), end = p.real("EndTime");
  if (end == begin) {
    context.Error(type + " 'EndTime' equals 'BeginTime' (" + std::to_string(begin) +
                  ": SOFA divides by their difference; expected EndTime > BeginTime)");
    return;
  }
  const std::vector<Index> points = ListedPoints(context, object, "indices");
  context.AddProjectiveConstraint(
      object, points,
      std::make_unique<HermiteSpline>(points, begin, end, control, p.reals("SX0")[1],
                                      p.reals("SX1")[1]));
}

}  // namespace fluxion::internal
