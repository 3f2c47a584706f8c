// The `template` of SOFA's element components (CorotationalFEMForceField,
// LinearSmallStrainFEMForceField, FEMMass: "Vec3,Tetrahedron", "Vec3,Hexahedron"): which element
// type they work on. Shared so that each reads it and reports a bad one the same way.
#pragma once

#include <optional>
#include <string>

#include "fluxion/component.h"

namespace fluxion::internal {

enum class ElementShape { kTetrahedron, kHexahedron };

/// The element type of the component's `template` field; nullopt after one error naming what is
/// accepted. SOFA also instantiates these components on edges, triangles, quads (Vec2 and
/// Vec3), prisms and pyramids: Fluxion has only the two volume elements above.
inline std::optional<ElementShape> ElementShapeOf(BuildContext& context) {
  const std::string& text = context.parameters().text("template");
  if (text == "Vec3,Tetrahedron" || text == "Vec3d,Tetrahedron") return ElementShape::kTetrahedron;
  if (text == "Vec3,Hexahedron" || text == "Vec3d,Hexahedron") return ElementShape::kHexahedron;
  const std::string expected =
      "(expected \"Vec3,Tetrahedron\" or \"Vec3,Hexahedron\"; SOFA's edge, triangle, quad, "
      "prism and pyramid versions are not in Fluxion)";
  context.Error(
      context.type() +
      (text.empty() ? " needs a template " : " template=\"" + text + "\" is not supported ") +
      expected);
  return std::nullopt;
}

/// The `template` field of those components.
inline FieldSpec ElementTemplateField() {
  return FieldSpec::Text("template", "",
                         "SOFA's template: \"Vec3,Tetrahedron\" or \"Vec3,Hexahedron\" (required)");
}

}  // namespace fluxion::internal
