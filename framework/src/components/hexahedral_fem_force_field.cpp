#include "components/hexahedral_fem_force_field.h"

#include <cmath>
#include <string>
#include <vector>

#include "components/element_material.h"
#include "components/hexahedron_fem_force_field.h"

namespace fluxion::internal {

ComponentSpec HexahedralFEMForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "HexahedralFEMForceField",
      .kind = ComponentKind::kForceField,
      .summary =
          "SOFA's corotational hexahedra of its dynamic-topology examples: "
          "HexahedronFEMForceField's large element, on axis-aligned cubes",
      .fields = {YoungModulusField("hexahedron"), PoissonRatioField("hexahedron"),
                 FieldSpec::Choice("method", "large", {"large", "polar"},
                                   "large: corotational, frame of the mean edges (polar is "
                                   "refused)"),
                 FieldSpec::Link("topology",
                                 "the topology, e.g. topology=\"@../Container\" "
                                 "(default: the node's)")},
      .aliases = {}};
}

namespace {

// Every hexahedron an axis-aligned cube at rest: edges 0→1, 0→3, 0→4 along x, y, z, of one
// length, and the other vertices where a cube puts them (to 1e-9 of the edge).
bool AxisAlignedCubes(BuildContext& context, const std::vector<std::array<Index, 8>>& hexahedra,
                      const Vector& rest, int dimension) {
  static constexpr std::array<std::array<int, 3>, 8> kCorner = {
      {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}};
  const auto coordinate = [&](Index point, int axis) {
    return axis < dimension ? rest[point * dimension + axis] : 0.0;
  };
  for (std::size_t h = 0; h < hexahedra.size(); ++h) {
    const auto& hexa = hexahedra[h];
    const double edge = coordinate(hexa[1], 0) - coordinate(hexa[0], 0);
    bool cube = std::abs(edge) > 0.0;
    for (std::size_t a = 0; a < 8 && cube; ++a)
      for (int axis = 0; axis < 3; ++axis) {
        const double expected =
            coordinate(hexa[0], axis) + edge * kCorner[a][static_cast<std::size_t>(axis)];
        if (std::abs(coordinate(hexa[a], axis) - expected) > 1e-9 * std::abs(edge)) cube = false;
      }
    if (!cube) {
      context.Error(context.type() + ": hexahedron " + std::to_string(h) +
                    " is not an axis-aligned cube at rest (SOFA's closed-form stiffness is the "
                    "element's only for cubes; expected cubes, or HexahedronFEMForceField for "
                    "other hexahedra)");
      return false;
    }
  }
  return true;
}

}  // namespace

void HexahedralFEMForceFieldComponent::Build(BuildContext& context) {
  if (context.parameters().text("method") != "large") {
    context.Error(context.type() +
                  " 'method' = 'polar' is not supported (expected large: SOFA's polar "
                  "variant of this element is not reproduced)");
    return;
  }
  AddHexahedronFem(context, &AxisAlignedCubes);
}

}  // namespace fluxion::internal
