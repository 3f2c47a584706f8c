#include "components/tetra2_triangle_topological_mapping.h"

#include "components/topological_mapping.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

ComponentSpec Tetra2TriangleTopologicalMappingComponent::Spec() {
  ComponentSpec spec = TopologicalMappingSpec(
      "Tetra2TriangleTopologicalMapping",
      "The border triangles of a tetrahedral topology (faces of exactly one tetrahedron)");
  spec.fields.push_back(FieldSpec::Bool("flipNormals", false, "reverse each triangle (t0 t2 t1)"));
  spec.fields.push_back(FieldSpec::Bool(
      "noNewTriangles", false, "SOFA option for topology changes: no effect on a static scene"));
  spec.fields.push_back(
      FieldSpec::Bool("noInitialTriangles", false, "leave the output without triangles"));
  spec.fields.push_back(
      FieldSpec::Link("modifier", "SOFA's topology modifier for topology changes: ignored"));
  return spec;
}

namespace {

std::optional<Topology> Tetra2TriangleRule(BuildContext& context, const Topology& input) {
  if (!RequireInputElements(context, input.tetrahedra.size(), "tetrahedra")) return std::nullopt;
  Topology output;
  const Parameters& p = context.parameters();
  if (p.flag("noInitialTriangles")) return output;
  const std::vector<std::array<Index, 3>> triangles =
      input.triangles.empty() ? TetrahedronFaces(input.tetrahedra) : input.triangles;
  const std::vector<int> around = TetrahedraAroundTriangles(triangles, input.tetrahedra);
  const bool flip = p.flag("flipNormals");
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    if (around[i] != 1) continue;
    const auto& t = triangles[i];
    output.triangles.push_back(flip ? std::array<Index, 3>{t[0], t[2], t[1]} : t);
  }
  return output;
}

}  // namespace

void Tetra2TriangleTopologicalMappingComponent::Build(BuildContext& context) {
  BuildTopologicalMapping(context, &Tetra2TriangleRule);
}

}  // namespace fluxion::internal
