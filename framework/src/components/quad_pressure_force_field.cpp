#include "components/quad_pressure_force_field.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

ComponentSpec QuadPressureForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "QuadPressureForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A constant pressure vector on listed quads of a surface",
      .fields = {FieldSpec::RealList("pressure", "force per unit rest area, a vector [N/m²]")
                     .DefaultText("0 0 0"),
                 FieldSpec::IndexList("quadList", "quads pressed, by index in the topology"),
                 FieldSpec::RealList("normal",
                                     "normal of the planes selecting quads when "
                                     "quadList is empty")
                     .DefaultText("0 0 0"),
                 FieldSpec::Real("dmin", 0.0,
                                 "quads selected lie beyond this distance along "
                                 "the normal [m]"),
                 FieldSpec::Real("dmax", 0.0,
                                 "quads selected lie below this distance along "
                                 "the normal [m]"),
                 FieldSpec::Bool("showForces", false, "visual only: ignored"),
                 FieldSpec::Text("quadPressureMap", "", "SOFA's per-quad output: ignored"),
                 FieldSpec::Link("topology", "the topology holding the quads")},
      .aliases = {}};
}

void QuadPressureForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const std::string type = "QuadPressureForceField";
  if (object.dimension != 3) {
    context.Error(type + " needs a Vec3 object (found Vec" + std::to_string(object.dimension) +
                  "d)");
    return;
  }
  const std::vector<double>& pressure = p.reals("pressure");
  const std::vector<double>& normal = p.reals("normal");
  for (const auto& [field, value] :
       {std::pair{"pressure", &pressure}, std::pair{"normal", &normal}})
    if (value->size() != 3) {
      context.Error(type + " '" + field + "' has " + std::to_string(value->size()) +
                    " numbers (expected 3: a vector)");
      return;
    }
  const bool linked = p.has("topology") && !p.text("topology").empty();
  std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (linked && !topology) return;  // reported by the link
  if (!linked) topology = context.topology();
  const std::vector<Index>& listed = p.indices("quadList");
  const double dmin = p.real("dmin"), dmax = p.real("dmax");
  if (listed.empty() && dmin == dmax) return;  // SOFA presses nothing then
  if (!topology || topology->quads.empty()) {
    context.Error(type + " needs a topology with quads in node '" + context.node_path() + "'");
    return;
  }
  const auto& quads = topology->quads;
  for (const auto& quad : quads)
    for (const Index v : quad)
      if (v < 0 || v >= object.num_points) {
        context.Error(type + ": a quad uses point " + std::to_string(v) + " but '" + object.id +
                      "' has " + std::to_string(object.num_points) + " points");
        return;
      }
  const Vector& rest = object.rest_position;
  const auto at = [&](Index v) -> Eigen::Vector3d {
    return rest.segment<3>(object.offset + 3 * v);
  };

  // The quads pressed: quadList, else those between the planes (strictly, at rest).
  std::vector<Index> pressed;
  if (!listed.empty()) {
    for (const Index q : listed)
      if (q < 0 || q >= static_cast<Index>(quads.size())) {
        context.Error(type + " 'quadList' has " + std::to_string(q) +
                      " (expected indices below the topology's " + std::to_string(quads.size()) +
                      " quads)");
        return;
      }
    pressed = listed;
  } else {
    const Eigen::Vector3d n(normal[0], normal[1], normal[2]);
    const auto between = [&](Index v) {
      const double d = at(v).dot(n);
      return d > dmin && d < dmax;
    };
    for (std::size_t q = 0; q < quads.size(); ++q)
      if (between(quads[q][0]) && between(quads[q][1]) && between(quads[q][2]) &&
          between(quads[q][3]))
        pressed.push_back(static_cast<Index>(q));
  }

  // (pressure·A)/4 on each vertex, A the two triangles' rest areas, quad after quad.
  std::vector<Index> dofs;
  std::vector<double> values;
  for (const Index q : pressed) {
    const auto& quad = quads[static_cast<std::size_t>(q)];
    const Eigen::Vector3d a = at(quad[0]), b = at(quad[1]), c = at(quad[2]), d = at(quad[3]);
    const double area = (b - a).cross(c - a).norm() / 2.0 + (c - a).cross(d - a).norm() / 2.0;
    for (const Index v : quad)
      for (int axis = 0; axis < 3; ++axis) {
        dofs.push_back(object.offset + 3 * v + axis);
        values.push_back(pressure[static_cast<std::size_t>(axis)] * area / 4.0);
      }
  }
  context.AddForceField(object,
                        std::make_unique<ConstantForce>(std::move(dofs), std::move(values)));
}

}  // namespace fluxion::internal
