#include "components/sinusoidal_force_field.h"

#include "components/point_selection.h"
#include "mechanics/time_dependent_forces.h"

namespace fluxion::internal {

// Fluxion's own: Fazarinc's driving force A·cos(ωt + φ) (seed 003, eqs. 6–10).
ComponentSpec SinusoidalForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "SinusoidalForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A force A·cos(ωt + φ) on chosen points (Fazarinc's driving force)",
      .fields = {FieldSpec::IndexList("indices", "points the force acts on (default: all)"),
                 FieldSpec::RealList("amplitude",
                                     "A: one force vector for every index, or one per index [N]"),
                 FieldSpec::OptionalReal("omega", "angular frequency ω [rad/s]").AtLeast(0),
                 FieldSpec::Real("phase", 0.0, "phase φ [rad]")},
      .aliases = {}};
}

void SinusoidalForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const int dim = object.dimension;
  const std::vector<Index> points = PointsOrAll(p, "indices", object);
  std::vector<Index> dofs;
  if (!PointDofs(context, object, points, dofs)) return;
  if (!p.has("amplitude") || !p.has("omega")) {
    context.Error("SinusoidalForceField needs 'amplitude' and 'omega'");
    return;
  }
  const std::vector<double>& given = p.reals("amplitude");
  const std::size_t n = dofs.size(), vector = static_cast<std::size_t>(dim);
  std::vector<double> amplitudes;  // n × dim
  if (given.size() == vector) {
    for (std::size_t k = 0; k < n; ++k)
      amplitudes.insert(amplitudes.end(), given.begin(), given.end());
  } else if (given.size() == n * vector) {
    amplitudes = given;
  } else {
    context.Error("SinusoidalForceField 'amplitude' has " + std::to_string(given.size()) +
                  " numbers (expected " + std::to_string(dim) + " or " +
                  std::to_string(n * vector) + ": one vector for every index or one per index)");
    return;
  }
  if (object.system < 0 || dofs.empty()) return;
  context.AddForceField(
      object, std::make_unique<SinusoidalForce>(dim, std::move(dofs), std::move(amplitudes),
                                                p.real("omega"), p.real("phase")));
}

}  // namespace fluxion::internal
