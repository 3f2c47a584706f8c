#include "components/plane_force_field.h"

#include "components/contact_points.h"
#include "mechanics/contact_force_fields.h"

namespace fluxion::internal {

ComponentSpec PlaneForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "PlaneForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Penalty contact with the half-space x·normal ≥ d",
      .fields =
          {FieldSpec::RealList("normal", "plane normal (used as given)").DefaultText("0 1 0"),
           FieldSpec::Real("d", 0.0, "plane offset: the plane is x·normal = d [m]"),
           FieldSpec::Real("stiffness", 500.0, "penalty stiffness [N/m]").AtLeast(0),
           FieldSpec::Real("damping", 5.0, "penalty damping [N·s/m²]").AtLeast(0),
           FieldSpec::Real("maxForce", 0.0, "largest force on a point, 0 for none [N]").AtLeast(0),
           FieldSpec::Bool("bilateral", false, "push on both sides of the plane"),
           FieldSpec::RealList("localRange", "first and last point, -1 for all")
               .DefaultText("-1 -1")},
      .aliases = {}};
}

void PlaneForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const Parameters& p = context.parameters();
  std::vector<double> normal = p.reals("normal");
  if (normal.size() < static_cast<std::size_t>(object->dimension) || normal.size() > 3) {
    context.Error("PlaneForceField 'normal' has " + std::to_string(normal.size()) +
                  " numbers (expected " + std::to_string(object->dimension) + ")");
    return;
  }
  normal.resize(static_cast<std::size_t>(object->dimension));
  bool zero = true;
  for (const double n : normal) zero = zero && n == 0.0;
  if (zero) {
    context.Error("PlaneForceField 'normal' is zero (expected a direction)");
    return;
  }
  std::vector<Index> points;
  if (!ContactPoints(context, *object, points)) return;
  context.AddForceField(*object, std::make_unique<PlanePenalty>(
                                     std::move(points), object->dimension, std::move(normal),
                                     p.real("d"), p.real("stiffness"), p.real("damping"),
                                     p.real("maxForce"), p.flag("bilateral")));
}

}  // namespace fluxion::internal
