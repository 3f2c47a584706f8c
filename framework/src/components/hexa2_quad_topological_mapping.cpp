#include "components/hexa2_quad_topological_mapping.h"

#include "components/topological_mapping.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

ComponentSpec Hexa2QuadTopologicalMappingComponent::Spec() {
  ComponentSpec spec =
      TopologicalMappingSpec("Hexa2QuadTopologicalMapping",
                             "The border quads of a hexahedral topology (faces of exactly one "
                             "hexahedron), in the order of the input's quads");
  spec.fields.push_back(FieldSpec::Bool("flipNormals", false, "reverse each quad (q3 q2 q1 q0)"));
  return spec;
}

namespace {

std::optional<Topology> Hexa2QuadRule(BuildContext& context, const Topology& input) {
  if (!RequireInputElements(context, input.hexahedra.size(), "hexahedra")) return std::nullopt;
  const std::vector<std::array<Index, 4>> quads =
      input.quads.empty() ? HexahedronFaces(input.hexahedra) : input.quads;
  const std::vector<int> around = HexahedraAroundQuads(quads, input.hexahedra);
  const bool flip = context.parameters().flag("flipNormals");
  Topology output;
  for (std::size_t i = 0; i < quads.size(); ++i) {
    if (around[i] != 1) continue;
    const auto& q = quads[i];
    output.quads.push_back(flip ? std::array<Index, 4>{q[3], q[2], q[1], q[0]} : q);
  }
  return output;
}

}  // namespace

void Hexa2QuadTopologicalMappingComponent::Build(BuildContext& context) {
  BuildTopologicalMapping(context, &Hexa2QuadRule);
}

}  // namespace fluxion::internal
