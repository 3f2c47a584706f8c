#include "components/spring_force_field.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <string>

#include "components/point_selection.h"
#include "components/spring_components.h"
#include "fluxion/errors.h"
#include "mechanics/spring_force_field.h"

namespace fluxion::internal {

ComponentSpec SpringForceFieldComponent::Spec() {
  ComponentSpec spec{
      .name = "SpringForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Springs with dashpots between pairs of points (SOFA's formulas and tangent)",
      .fields = {FieldSpec::RealList(
                     "spring",
                     "springs as 'i j ks kd L0' records: point i of object1, point "
                     "j of object2, stiffness [N/m], damping [N·s/m], rest length [m]"),
                 FieldSpec::IndexList("indices1", "first ends (alternative to 'spring')")
                     .Alias("springsIndices1"),
                 FieldSpec::IndexList("indices2", "second ends (alternative to 'spring')")
                     .Alias("springsIndices2"),
                 FieldSpec::RealList("stiffness", "stiffness per spring (one value: all) [N/m]")
                     .DefaultText("100"),
                 FieldSpec::RealList("damping", "damping per spring (one value: all) [N·s/m]")
                     .DefaultText("5"),
                 FieldSpec::RealList("lengths", "rest length per spring (one value: all) [m]")
                     .Alias("length")},
      .aliases = {"StiffSpringForceField", "ParallelSpringForceField"}};
  for (FieldSpec& field : SpringLinkFields()) spec.fields.push_back(std::move(field));
  return spec;
}

namespace {

// Collects the springs of one component, checking each record as SOFA reads it.
class SpringList {
 public:
  SpringList(BuildContext& context, const ObjectModel& a, const ObjectModel& b)
      : context_(context), a_(a), b_(b) {}

  void Add(double i, double j, double ks, double kd, double rest, std::size_t k) {
    const std::string which = "spring " + std::to_string(k + 1);
    if (i != std::floor(i) || j != std::floor(j) || i < 0 || j < 0) {
      context_.Error("<" + context_.type() + "> " + which +
                     ": point indices must be whole numbers >= 0");
      return;
    }
    // Out-of-range doubles (1e300) are reported as such: converting them to Index is undefined.
    const auto index = [](double value, const ObjectModel& object) {
      return value < static_cast<double>(object.num_points) ? static_cast<Index>(value)
                                                            : object.num_points;
    };
    if (!CheckIndex(context_, index(i, a_), a_, which + " index i", i) ||
        !CheckIndex(context_, index(j, b_), b_, which + " index j", j))
      return;
    if (springs.size() >= context_.spring_budget()) {
      too_many = true;
      return;
    }
    if (ks < 0 || kd < 0 || rest < 0) {
      context_.Error("<" + context_.type() + "> " + which +
                     ": stiffness, damping and rest length must be >= 0");
      return;
    }
    springs.push_back({a_.offset + static_cast<Index>(i) * a_.dimension,
                       b_.offset + static_cast<Index>(j) * b_.dimension, ks, kd, rest});
  }

  std::vector<Spring> springs;
  bool too_many = false;

 private:
  BuildContext& context_;
  const ObjectModel& a_;
  const ObjectModel& b_;
};

}  // namespace

void SpringForceFieldComponent::Build(BuildContext& context) {
  const SpringEnds ends = ResolveSpringEnds(context);
  if (ends.first == nullptr || ends.second == nullptr) return;
  const ObjectModel& a = *ends.first;
  const Parameters& p = context.parameters();
  SpringList list(context, a, *ends.second);
  if (p.has("spring")) {
    const std::vector<double>& values = p.reals("spring");
    if (values.size() % 5 != 0) {
      context.Error("<" + context.type() + "> 'spring' has " + std::to_string(values.size()) +
                    " numbers, not a multiple of 5 (expected 'i j ks kd L0' per spring)");
      return;
    }
    for (std::size_t k = 0; k * 5 < values.size(); ++k)
      list.Add(values[5 * k], values[5 * k + 1], values[5 * k + 2], values[5 * k + 3],
               values[5 * k + 4], k);
  } else {
    // SOFA's per-spring lists: shorter lists are extended with their last value.
    const std::vector<Index>& i1 = p.indices("indices1");
    const std::vector<Index>& i2 = p.indices("indices2");
    if (i1.size() != i2.size()) {
      context.Error("<" + context.type() + "> 'indices1' has " + std::to_string(i1.size()) +
                    " entries and 'indices2' " + std::to_string(i2.size()) + " (expected as many)");
      return;
    }
    const auto at = [](const std::vector<double>& values, std::size_t k, double fallback) {
      if (values.empty()) return fallback;
      return k < values.size() ? values[k] : values.back();
    };
    for (std::size_t k = 0; k < i1.size(); ++k)
      list.Add(static_cast<double>(i1[k]), static_cast<double>(i2[k]),
               at(p.reals("stiffness"), k, 100.0), at(p.reals("damping"), k, 5.0),
               at(p.reals("lengths"), k, 0.0), k);
  }
  if (list.too_many) {
    context.ReserveSprings(list.springs.size() + 1);  // reports the limit
    return;
  }
  if (!context.ReserveSprings(list.springs.size()) || !ends.usable || list.springs.empty()) return;
  auto field = std::make_unique<SpringForceField>(a.dimension, std::move(list.springs),
                                                  p.flag("exactDampingJacobian"));
  // `stiffness` and `damping` may change between steps (fluxion-view's panel, a SofaPython3
  // controller): as in the XML, one value sets every spring and a list sets them in order, a
  // shorter list extended with its last value (SOFA's per-spring lists). The coefficients are
  // used as given (no rest-length scaling here), so a value set before a step gives the bits of
  // the same value in the XML. The force field lives in the system as long as the setters do.
  SpringForceField* live = field.get();
  for (const bool stiffness : {true, false}) {
    const std::string name = stiffness ? "stiffness" : "damping";
    context.AddRuntimeField(name, [live, name, stiffness](std::span<const double> values) {
      const std::size_t count = live->springs().size();
      if (values.empty() || values.size() > count)
        throw ConfigError(name, "has " + std::to_string(values.size()) + " values (expected 1 to " +
                                    std::to_string(count) + ", one per spring)");
      for (const double value : values)
        if (!std::isfinite(value) || value < 0)
          throw ConfigError(name, "expected finite values >= 0");
      for (std::size_t k = 0; k < count; ++k) {
        const double value = values[std::min(k, values.size() - 1)];
        const PackedSpring& spring = live->springs()[k];
        live->SetCoefficients(k, stiffness ? value : spring.stiffness,
                              stiffness ? spring.damping : value);
      }
    });
  }
  context.AddForceField(a, std::move(field));
}

}  // namespace fluxion::internal
