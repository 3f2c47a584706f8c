#include "components/mesh_subset_engine.h"

#include <map>

#include "components/engine_inputs.h"
#include "fluxion/log.h"

namespace fluxion::internal {

ComponentSpec MeshSubsetEngineComponent::Spec() {
  return ComponentSpec{
      .name = "MeshSubsetEngine",
      .kind = ComponentKind::kEngine,
      .summary = "The part of a mesh on selected points, renumbered (output for links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
                 FieldSpec::RealList("inputPosition", "points of the mesh [m]"),
                 FieldSpec::IndexList("inputEdges", "edges of the mesh"),
                 FieldSpec::IndexList("inputTriangles", "triangles of the mesh"),
                 FieldSpec::IndexList("inputQuads", "quads of the mesh"),
                 FieldSpec::IndexList("inputTetrahedra", "tetrahedra of the mesh"),
                 FieldSpec::IndexList("inputHexahedra", "hexahedra of the mesh"),
                 FieldSpec::IndexList("indices", "the selected points")},
      .aliases = {}};
}

namespace {
// The elements of the flat list whose points all have a new index, renumbered.
std::vector<Index> Keep(const std::vector<Index>& flat, std::size_t size,
                        const std::map<Index, Index>& renumber) {
  std::vector<Index> kept;
  for (std::size_t e = 0; e + size <= flat.size(); e += size) {
    std::vector<Index> element;
    for (std::size_t v = 0; v < size; ++v) {
      const auto found = renumber.find(flat[e + v]);
      if (found == renumber.end()) break;
      element.push_back(found->second);
    }
    if (element.size() == size) kept.insert(kept.end(), element.begin(), element.end());
  }
  return kept;
}
}  // namespace

void MeshSubsetEngineComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const auto positions = ReadPoints(context, "inputPosition");
  if (!positions) return;
  const auto points = static_cast<Index>(positions->size());
  struct Elements {
    const char* input;
    const char* output;
    std::size_t size;
  };
  static constexpr std::array<Elements, 5> kElements = {{{"inputEdges", "edges", 2},
                                                         {"inputTriangles", "triangles", 3},
                                                         {"inputQuads", "quads", 4},
                                                         {"inputTetrahedra", "tetrahedra", 4},
                                                         {"inputHexahedra", "hexahedra", 8}}};
  bool ok = true;
  for (const Elements& elements : kElements) {
    const std::vector<Index>& flat = p.indices(elements.input);
    if (flat.size() % elements.size != 0) {
      context.Error(std::string("MeshSubsetEngine '") + elements.input + "' has " +
                    std::to_string(flat.size()) + " indices (expected " +
                    std::to_string(elements.size) + " per element)");
      ok = false;
    }
  }
  const std::vector<Index>& indices = p.indices("indices");
  if (!ok || !CheckIndices(context, "indices", indices, points)) return;
  std::vector<double> position;
  std::map<Index, Index> renumber;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const Point3& x = (*positions)[static_cast<std::size_t>(indices[i])];
    position.insert(position.end(), x.begin(), x.end());
    renumber[indices[i]] = static_cast<Index>(i);
  }
  context.SetOutput("position", std::move(position));
  std::string kept = std::to_string(indices.size()) + " points";
  for (const Elements& elements : kElements) {
    std::vector<Index> subset = Keep(p.indices(elements.input), elements.size, renumber);
    kept += ", " + std::to_string(subset.size() / elements.size) + " " + elements.output;
    context.SetOutput(elements.output, std::move(subset));
  }
  LogInfo(context.Where() + "MeshSubsetEngine keeps " + kept);
}

}  // namespace fluxion::internal
