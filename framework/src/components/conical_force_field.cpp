#include "components/conical_force_field.h"

#include <memory>
#include <string>

#include "mechanics/conical_penalty.h"

namespace fluxion::internal {

ComponentSpec ConicalForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "ConicalForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Penalty contact keeping points inside a cone",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"},
                                   "point type (3 coordinates per point)"),
                 FieldSpec::RealList("coneCenter", "the cone's apex [m]").DefaultText("0 0 0"),
                 FieldSpec::RealList("coneHeight", "from the apex to the cap, along the axis [m]")
                     .DefaultText("0 0 0"),
                 FieldSpec::Real("coneAngle", 10.0, "half-angle at the apex [degrees]"),
                 FieldSpec::Real("stiffness", 500.0, "penalty stiffness [N/m]"),
                 FieldSpec::Real("damping", 5.0, "penalty damping [N·s/m]"),
                 FieldSpec::Text("color", "blue", "visual only: ignored")},
      .aliases = {}};
}

void ConicalForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const Parameters& p = context.parameters();
  const std::string type = "ConicalForceField";
  if (object->dimension != 3) {
    context.Error(type + " needs a Vec3 object (found Vec" + std::to_string(object->dimension) +
                  "d)");
    return;
  }
  std::array<double, 3> center{}, height{};
  for (const auto& [field, out] :
       {std::pair{"coneCenter", &center}, std::pair{"coneHeight", &height}}) {
    const std::vector<double>& value = p.reals(field);
    if (value.size() != 3) {
      context.Error(type + " '" + field + "' has " + std::to_string(value.size()) +
                    " numbers (expected 3: x y z)");
      return;
    }
    *out = {value[0], value[1], value[2]};
  }
  if (height == std::array<double, 3>{0, 0, 0}) {
    context.Error(type + " 'coneHeight' is 0 0 0 (expected the vector from the apex to the cap)");
    return;
  }
  std::vector<Index> points;
  for (Index i = 0; i < object->num_points; ++i) points.push_back(object->offset + 3 * i);
  context.AddForceField(*object, std::make_unique<ConicalPenalty>(
                                     std::move(points), center, height, p.real("coneAngle"),
                                     p.real("stiffness"), p.real("damping")));
}

}  // namespace fluxion::internal
