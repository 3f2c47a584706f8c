#include "components/linear_force_field.h"

#include <algorithm>
#include <functional>

#include "components/point_selection.h"
#include "fluxion/text.h"
#include "mechanics/time_dependent_forces.h"

namespace fluxion::internal {

// SOFA's LinearForceField: its field is `points` (no default: no force); `indices` is accepted too.
ComponentSpec LinearForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "LinearForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A force on chosen points, linearly interpolated between key forces at key times",
      .fields = {FieldSpec::IndexList("points",
                                      "points the force acts on (default: none, as in SOFA)")
                     .Alias("indices"),
                 FieldSpec::Real("force", 1.0,
                                 "multiplier of the interpolated force (as in SOFA, not of the "
                                 "last key's force, held from the last key time on)"),
                 FieldSpec::RealList("times", "key times, strictly increasing [s]"),
                 FieldSpec::RealList("forces", "one force vector per key time [N]"),
                 FieldSpec::Real("arrowSizeCoef", 0.0, "display only, ignored")},
      .aliases = {}};
}

void LinearForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const int dim = object.dimension;
  const std::vector<double>& times = p.reals("times");
  const std::vector<double>& forces = p.reals("forces");
  const auto bad = std::adjacent_find(times.begin(), times.end(), std::greater_equal<>());
  if (bad != times.end()) {
    context.Error("LinearForceField 'times' is not strictly increasing: " + FormatReal(*(bad + 1)) +
                  " follows " + FormatReal(*bad) + " (expected increasing key times)");
    return;
  }
  if (forces.size() != times.size() * static_cast<std::size_t>(dim)) {
    context.Error("LinearForceField 'forces' has " + std::to_string(forces.size()) +
                  " numbers (expected " + std::to_string(times.size() * dim) + ": one Vec" +
                  std::to_string(dim) + " per key time)");
    return;
  }
  std::vector<Index> dofs;
  if (!PointDofs(context, object, p.indices("points"), dofs)) return;
  if (dofs.empty() || times.empty()) {
    context.Warn(
        "LinearForceField has no 'points' or no key 'times': it applies no force (as in SOFA)");
    return;
  }
  // SOFA holds the last key's force unscaled: say so when the multiplier would have changed it.
  const bool last_is_zero =
      std::all_of(forces.end() - dim, forces.end(), [](double value) { return value == 0.0; });
  if (p.real("force") != 1.0 && !last_is_zero)
    context.Warn("LinearForceField 'force' = " + FormatReal(p.real("force")) +
                 " does not scale the last key's force, applied as given from t = " +
                 FormatReal(times.back()) + " on (as in SOFA)");
  if (object.system < 0) return;
  context.AddForceField(object, std::make_unique<KeyFramedForce>(dim, std::move(dofs), times,
                                                                 forces, p.real("force")));
}

}  // namespace fluxion::internal
