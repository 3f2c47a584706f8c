#include "components/hexa2_tetra_topological_mapping.h"

#include <algorithm>

#include "components/topological_mapping.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

ComponentSpec Hexa2TetraTopologicalMappingComponent::Spec() {
  ComponentSpec spec = TopologicalMappingSpec("Hexa2TetraTopologicalMapping",
                                              "Six tetrahedra per hexahedron of the input");
  spec.fields.push_back(FieldSpec::Bool(
      "swapping", false, "mirror the hexahedra of a grid in a checkerboard before splitting"));
  return spec;
}

namespace {

std::optional<Topology> Hexa2TetraRule(BuildContext& context, const Topology& input) {
  if (!RequireInputElements(context, input.hexahedra.size(), "hexahedra")) return std::nullopt;
  Index nx = 2, ny = 1;  // SOFA's values for a topology that is not a grid
  if (input.grid_size[0] > 0) {
    nx = std::max<Index>(1, input.grid_size[0] - 1);
    ny = std::max<Index>(1, input.grid_size[1] - 1);
  }
  Topology output;
  output.tetrahedra =
      SplitHexahedra(input.hexahedra, context.parameters().flag("swapping"), nx, ny);
  return output;
}

}  // namespace

void Hexa2TetraTopologicalMappingComponent::Build(BuildContext& context) {
  BuildTopologicalMapping(context, &Hexa2TetraRule);
}

}  // namespace fluxion::internal
