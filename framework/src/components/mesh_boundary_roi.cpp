#include "components/mesh_boundary_roi.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace fluxion::internal {

ComponentSpec MeshBoundaryRoiComponent::Spec() {
  return ComponentSpec{
      .name = "MeshBoundaryROI",
      .kind = ComponentKind::kEngine,
      .summary = "Selects the boundary points of a triangle/quad surface (output for links)",
      .fields = {FieldSpec::IndexList("triangles", "triangles (default: the node topology's)"),
                 FieldSpec::IndexList("quads", "quads (default: the node topology's)"),
                 FieldSpec::IndexList("inputROI",
                                      "only elements with all their points here count "
                                      "(default: every element)"),
                 FieldSpec::Link("src",
                                 "a loader or topology whose triangles and quads this takes")},
      .aliases = {}};
}

void MeshBoundaryRoiComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::shared_ptr<const Topology> topology = context.topology();
  // The elements: given, else the node topology's (flattened).
  const auto elements = [&](const char* field, const auto* given) {
    if (p.has(field) || given == nullptr) return p.indices(field);
    std::vector<Index> flat;
    for (const auto& element : *given) flat.insert(flat.end(), element.begin(), element.end());
    return flat;
  };
  const std::vector<Index> triangles =
      elements("triangles", topology ? &topology->triangles : nullptr);
  const std::vector<Index> quads = elements("quads", topology ? &topology->quads : nullptr);
  bool ok = true;
  for (const auto& [field, flat, size] : {std::tuple{"triangles", &triangles, std::size_t{3}},
                                          std::tuple{"quads", &quads, std::size_t{4}}})
    if (flat->size() % size != 0) {
      context.Error(std::string("MeshBoundaryROI '") + field + "' has " +
                    std::to_string(flat->size()) + " indices (expected " + std::to_string(size) +
                    " per element)");
      ok = false;
    }
  if (!ok) return;
  const std::vector<Index>& roi_list = p.indices("inputROI");
  const std::set<Index> roi(roi_list.begin(), roi_list.end());
  const auto in_roi = [&](Index v) { return roi.empty() || roi.count(v) != 0; };

  // How many elements have each edge (smaller point first).
  std::map<std::pair<Index, Index>, int> count;
  const auto count_edges = [&](const std::vector<Index>& flat, std::size_t size) {
    for (std::size_t e = 0; e < flat.size(); e += size) {
      const auto first = flat.begin() + static_cast<std::ptrdiff_t>(e);
      if (!std::all_of(first, first + static_cast<std::ptrdiff_t>(size), in_roi)) continue;
      for (std::size_t j = 0; j < size; ++j) {
        const Index a = flat[e + j], b = flat[e + (j + 1) % size];
        ++count[{std::min(a, b), std::max(a, b)}];
      }
    }
  };
  count_edges(triangles, 3);
  count_edges(quads, 4);
  std::set<Index> boundary;
  for (const auto& [edge, n] : count)
    if (n == 1) {
      boundary.insert(edge.first);
      boundary.insert(edge.second);
    }
  context.SetOutput("indices", std::vector<Index>(boundary.begin(), boundary.end()));
}

}  // namespace fluxion::internal
