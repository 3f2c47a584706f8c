#include "components/sphere_force_field.h"

#include "components/contact_points.h"
#include "mechanics/contact_force_fields.h"

namespace fluxion::internal {

ComponentSpec SphereForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "SphereForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Penalty contact with a fixed ball",
      .fields = {FieldSpec::RealList("center", "center of the ball [m]").DefaultText("0 0 0"),
                 FieldSpec::Real("radius", 1.0, "radius of the ball [m]").AtLeast(0),
                 FieldSpec::Real("stiffness", 500.0, "penalty stiffness [N/m]").AtLeast(0),
                 FieldSpec::Real("damping", 5.0, "penalty damping [N·s/m²]").AtLeast(0),
                 FieldSpec::Bool("bilateral", false, "also pull points outside onto the sphere"),
                 FieldSpec::RealList("localRange", "first and last point, -1 for all")
                     .DefaultText("-1 -1"),
                 FieldSpec::RealList("contacts", "SOFA output: unused")},
      .aliases = {}};
}

void SphereForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const Parameters& p = context.parameters();
  std::vector<double> center = p.reals("center");
  if (center.size() < static_cast<std::size_t>(object->dimension) || center.size() > 3) {
    context.Error("SphereForceField 'center' has " + std::to_string(center.size()) +
                  " numbers (expected " + std::to_string(object->dimension) + ")");
    return;
  }
  center.resize(static_cast<std::size_t>(object->dimension));
  std::vector<Index> points;
  if (!ContactPoints(context, *object, points)) return;
  context.AddForceField(
      *object, std::make_unique<SpherePenalty>(
                   std::move(points), object->dimension, std::move(center), p.real("radius"),
                   p.real("stiffness"), p.real("damping"), p.flag("bilateral")));
}

}  // namespace fluxion::internal
