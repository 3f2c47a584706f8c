#include "components/mesh_trian_loader.h"

#include "components/mesh_loader.h"

namespace fluxion::internal {

ComponentSpec MeshTrianLoaderComponent::Spec() {
  return MeshLoaderSpec("MeshTrianLoader", "Reads a SOFA .trian (or .trian2) triangulation file",
                        {FieldSpec::Bool("trian2", false, "the file is in the trian2 format")});
}

void MeshTrianLoaderComponent::Build(BuildContext& context) {
  std::optional<TrianMesh> read;
  BuildMeshLoader(context, [&](std::string_view bytes, const std::string& file, const Parameters& p,
                               MeshNotes& notes) {
    (void)notes;
    read = ReadTrianMesh(bytes, file, p.flag("trian2"));
    return read->mesh;
  });
  if (!read) return;  // reported
  std::vector<Index> neighbours, border_edges;
  for (const auto& n : read->neighbours) neighbours.insert(neighbours.end(), n.begin(), n.end());
  for (const auto& e : read->border_edges)
    border_edges.insert(border_edges.end(), e.begin(), e.end());
  context.SetOutput("neighborTable", std::move(neighbours));
  context.SetOutput("edgesOnBorder", std::move(border_edges));
  context.SetOutput("trianglesOnBorderList", std::move(read->border_triangles));
}

}  // namespace fluxion::internal
