#include "components/triangle2_edge_topological_mapping.h"

#include "components/topological_mapping.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

ComponentSpec Triangle2EdgeTopologicalMappingComponent::Spec() {
  ComponentSpec spec = TopologicalMappingSpec(
      "Triangle2EdgeTopologicalMapping",
      "The border edges of a triangle topology (sides of exactly one triangle)");
  return spec;
}

namespace {

std::optional<Topology> Triangle2EdgeRule(BuildContext& context, const Topology& input) {
  if (!RequireInputElements(context, input.triangles.size(), "triangles")) return std::nullopt;
  std::vector<std::array<Index, 2>> edges = input.edges;
  if (edges.empty()) {
    Topology triangles;
    triangles.triangles = input.triangles;
    CompleteTopology(triangles);
    edges = std::move(triangles.edges);
  }
  const std::vector<int> around = TrianglesAroundEdges(edges, input.triangles);
  Topology output;
  for (std::size_t i = 0; i < edges.size(); ++i)
    if (around[i] == 1) output.edges.push_back(edges[i]);
  return output;
}

}  // namespace

void Triangle2EdgeTopologicalMappingComponent::Build(BuildContext& context) {
  BuildTopologicalMapping(context, &Triangle2EdgeRule);
}

}  // namespace fluxion::internal
