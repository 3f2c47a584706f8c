#include "components/oscillator_projective_constraint.h"

#include <cmath>
#include <string>

#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

class Oscillators final : public ProjectiveConstraint {
 public:
  struct Oscillator {
    Index point;
    std::vector<double> mean, amplitude;
    double pulsation, phase;
  };
  Oscillators(std::vector<Oscillator> oscillators, int dimension)
      : oscillators_(std::move(oscillators)), dimension_(static_cast<std::size_t>(dimension)) {}

  void ProjectPosition(double time, std::span<double> x) const override {
    for (const Oscillator& o : oscillators_) {
      const double s = std::sin(o.pulsation * time + o.phase);
      for (std::size_t a = 0; a < dimension_; ++a)
        x[static_cast<std::size_t>(o.point) * dimension_ + a] = o.mean[a] + o.amplitude[a] * s;
    }
  }

  void ProjectVelocity(double time, std::span<double> v) const override {
    for (const Oscillator& o : oscillators_) {
      const double c = std::cos(o.pulsation * time + o.phase);
      for (std::size_t a = 0; a < dimension_; ++a)
        v[static_cast<std::size_t>(o.point) * dimension_ + a] = o.amplitude[a] * o.pulsation * c;
    }
  }

 private:
  std::vector<Oscillator> oscillators_;
  std::size_t dimension_;
};

}  // namespace

ComponentSpec OscillatorProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "OscillatorProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Makes points oscillate sinusoidally about a mean position",
      .fields = {FieldSpec::RealList("oscillators",
                                     "per point: index, mean (a vector), amplitude (a vector), "
                                     "pulsation [rad/s], phase [rad]")},
      .aliases = {"OscillatorConstraint"}};
}

void OscillatorProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const std::vector<double>& numbers = context.parameters().reals("oscillators");
  const auto d = static_cast<std::size_t>(object.dimension);
  const std::size_t record = 2 * d + 3;
  if (numbers.size() % record != 0) {
    context.Error("OscillatorProjectiveConstraint 'oscillators' has " +
                  std::to_string(numbers.size()) + " numbers (expected " + std::to_string(record) +
                  " per oscillator: index, mean, amplitude, pulsation, phase)");
    return;
  }
  std::vector<Oscillators::Oscillator> oscillators;
  std::vector<Index> points;
  for (std::size_t first = 0; first < numbers.size(); first += record) {
    const double index = numbers[first];
    if (index < 0 || index != std::floor(index) ||
        index >= static_cast<double>(object.num_points)) {
      context.Error("OscillatorProjectiveConstraint 'oscillators' has index " + FormatReal(index) +
                    " (expected a point of '" + object.id + "', below " +
                    std::to_string(object.num_points) + ")");
      return;
    }
    Oscillators::Oscillator o;
    o.point = static_cast<Index>(index);
    o.mean.assign(numbers.begin() + static_cast<std::ptrdiff_t>(first + 1),
                  numbers.begin() + static_cast<std::ptrdiff_t>(first + 1 + d));
    o.amplitude.assign(numbers.begin() + static_cast<std::ptrdiff_t>(first + 1 + d),
                       numbers.begin() + static_cast<std::ptrdiff_t>(first + 1 + 2 * d));
    o.pulsation = numbers[first + 1 + 2 * d];
    o.phase = numbers[first + 2 + 2 * d];
    oscillators.push_back(std::move(o));
    points.push_back(static_cast<Index>(index));
  }
  context.AddProjectiveConstraint(
      object, points, std::make_unique<Oscillators>(std::move(oscillators), object.dimension));
}

}  // namespace fluxion::internal
