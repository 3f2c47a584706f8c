#include "components/triangle_pressure_force_field.h"

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "mechanics/pressure_force_fields.h"
#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

ComponentSpec TrianglePressureForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "TrianglePressureForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A pressure vector, or a Cauchy stress, on listed triangles of a surface",
      .fields = {FieldSpec::RealList("pressure", "force per unit rest area, a vector [N/m²]")
                     .DefaultText("0 0 0"),
                 FieldSpec::RealList(
                     "cauchyStress",
                     "useConstantForce=0: symmetric stress on each triangle's normal, "
                     "xx xy yy xz yz zz [Pa]")
                     .DefaultText("0 0 0 0 0 0"),
                 FieldSpec::IndexList("triangleList",
                                      "triangles pressed, by index in the topology"),
                 FieldSpec::Bool("useConstantForce", true,
                                 "the force is pressure × rest area (else the Cauchy stress at the "
                                 "current positions)"),
                 FieldSpec::Bool("showForces", false, "visual only: ignored"),
                 FieldSpec::Text("trianglePressureMap", "", "SOFA's per-triangle output: ignored"),
                 FieldSpec::Link("topology", "the topology holding the triangles")},
      .aliases = {}};
}

void TrianglePressureForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const std::string type = "TrianglePressureForceField";
  if (object.dimension != 3) {
    context.Error(type + " needs a Vec3 object (found Vec" + std::to_string(object.dimension) +
                  "d)");
    return;
  }
  const std::vector<double>& pressure = p.reals("pressure");
  if (pressure.size() != 3) {
    context.Error(type + " 'pressure' has " + std::to_string(pressure.size()) +
                  " numbers (expected 3: a vector)");
    return;
  }
  const std::vector<double>& cauchy = p.reals("cauchyStress");
  if (cauchy.size() != 6) {
    context.Error(type + " 'cauchyStress' has " + std::to_string(cauchy.size()) +
                  " numbers (expected 6: xx xy yy xz yz zz)");
    return;
  }
  const bool linked = p.has("topology") && !p.text("topology").empty();
  std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (linked && !topology) return;  // reported by the link
  if (!linked) topology = context.topology();
  const std::vector<Index>& listed = p.indices("triangleList");
  if (listed.empty()) return;  // SOFA presses nothing then
  if (!topology || topology->triangles.empty()) {
    context.Error(type + " needs a topology with triangles in node '" + context.node_path() + "'");
    return;
  }
  const auto& triangles = topology->triangles;
  std::vector<std::array<Index, 3>> pressed;
  for (const Index t : listed) {
    if (t < 0 || t >= static_cast<Index>(triangles.size())) {
      context.Error(type + " 'triangleList' has " + std::to_string(t) +
                    " (expected indices below the topology's " + std::to_string(triangles.size()) +
                    " triangles)");
      return;
    }
    const auto& triangle = triangles[static_cast<std::size_t>(t)];
    for (const Index v : triangle)
      if (v < 0 || v >= object.num_points) {
        context.Error(type + ": triangle " + std::to_string(t) + " uses point " +
                      std::to_string(v) + " but '" + object.id + "' has " +
                      std::to_string(object.num_points) + " points");
        return;
      }
    pressed.push_back({object.offset + 3 * triangle[0], object.offset + 3 * triangle[1],
                       object.offset + 3 * triangle[2]});
  }
  if (!p.flag("useConstantForce")) {
    // MatSym3's storage: (0,0) (1,0) (1,1) (2,0) (2,1) (2,2).
    const std::array<double, 9> stress = {cauchy[0], cauchy[1], cauchy[3], cauchy[1], cauchy[2],
                                          cauchy[4], cauchy[3], cauchy[4], cauchy[5]};
    context.AddForceField(object,
                          std::make_unique<TriangleCauchyTraction>(std::move(pressed), stress));
    return;
  }
  // (pressure·A)/3 on each vertex, A = |(b − a)×(c − a)|/2 at rest, triangle after triangle.
  std::vector<Index> dofs;
  std::vector<double> values;
  const Vector& rest = object.rest_position;
  for (const auto& t : pressed) {
    const Eigen::Vector3d a = rest.segment<3>(t[0]);
    const double area = (rest.segment<3>(t[1]) - a).cross(rest.segment<3>(t[2]) - a).norm() / 2.0;
    for (const Index first : t)
      for (int axis = 0; axis < 3; ++axis) {
        dofs.push_back(first + axis);
        values.push_back(pressure[static_cast<std::size_t>(axis)] * area / 3.0);
      }
  }
  context.AddForceField(object,
                        std::make_unique<ConstantForce>(std::move(dofs), std::move(values)));
}

}  // namespace fluxion::internal
