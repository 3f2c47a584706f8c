#include "components/ellipsoid_force_field.h"

#include "mechanics/contact_force_fields.h"

namespace fluxion::internal {

ComponentSpec EllipsoidForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "EllipsoidForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Penalty contact with a fixed ellipsoid (outside, or inside for k < 0)",
      .fields = {FieldSpec::RealList("center", "center of the ellipsoid [m]").DefaultText("0 0 0"),
                 FieldSpec::RealList("vradius", "semi-axes of the ellipsoid, one per axis [m]"),
                 FieldSpec::Real("stiffness", 500.0,
                                 "force per unit of normalised depth [N]: positive pushes out, "
                                 "negative keeps inside"),
                 FieldSpec::Real("damping", 5.0, "damping per unit of normalised depth [N·s/m]")
                     .AtLeast(0),
                 FieldSpec::RealList("contacts", "SOFA output: unused"),
                 FieldSpec::Bool("exactStiffness", false,
                                 "Fluxion: the exact tangent stiffness instead of SOFA's")},
      .aliases = {}};
}

void EllipsoidForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const Parameters& p = context.parameters();
  const std::size_t dim = static_cast<std::size_t>(object->dimension);
  std::vector<double> center = p.reals("center");
  std::vector<double> radii = p.reals("vradius");
  if (center.size() < dim || center.size() > 3) {
    context.Error("EllipsoidForceField 'center' has " + std::to_string(center.size()) +
                  " numbers (expected " + std::to_string(dim) + ")");
    return;
  }
  if (radii.size() < dim || radii.size() > 3) {
    context.Error("EllipsoidForceField 'vradius' has " + std::to_string(radii.size()) +
                  " numbers (expected " + std::to_string(dim) + " semi-axes)");
    return;
  }
  center.resize(dim);
  radii.resize(dim);
  for (const double r : radii)
    if (!(r != 0.0)) {
      context.Error("EllipsoidForceField 'vradius' has a zero semi-axis (expected non-zero)");
      return;
    }
  std::vector<Index> points;
  for (Index i = 0; i < object->num_points; ++i)
    points.push_back(object->offset + i * object->dimension);
  context.AddForceField(
      *object, std::make_unique<EllipsoidPenalty>(
                   std::move(points), object->dimension, std::move(center), std::move(radii),
                   p.real("stiffness"), p.real("damping"), p.flag("exactStiffness")));
}

}  // namespace fluxion::internal
