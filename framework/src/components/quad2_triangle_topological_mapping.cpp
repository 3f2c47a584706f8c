#include "components/quad2_triangle_topological_mapping.h"

#include "components/topological_mapping.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

ComponentSpec Quad2TriangleTopologicalMappingComponent::Spec() {
  ComponentSpec spec = TopologicalMappingSpec(
      "Quad2TriangleTopologicalMapping",
      "Two triangles per quad of the input, diagonals alternated in a checkerboard (swapping)");
  spec.fields.push_back(
      FieldSpec::Bool("swapping", true, "alternate the diagonal of the quads in a checkerboard"));
  return spec;
}

namespace {

std::optional<Topology> Quad2TriangleRule(BuildContext& context, const Topology& input) {
  if (!RequireInputElements(context, input.quads.size(), "quads")) return std::nullopt;
  Index scale = 2;  // SOFA's value for a topology that is not a grid
  if (input.grid_size[0] > 0) {
    const Index nx = input.grid_size[0] - 1;
    const Index ny = input.grid_size[1] - 1;
    if (nx == 0 && ny == 0) {
      context.Error(context.type() +
                    ": the input grid is 1-D (expected at least 2 points along x or y)");
      return std::nullopt;
    }
    scale = nx != 0 ? nx : ny;
  }
  Topology output;
  output.triangles = SplitQuads(input.quads, context.parameters().flag("swapping"), scale);
  return output;
}

}  // namespace

void Quad2TriangleTopologicalMappingComponent::Build(BuildContext& context) {
  BuildTopologicalMapping(context, &Quad2TriangleRule);
}

}  // namespace fluxion::internal
