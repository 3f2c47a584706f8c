#include "components/mesh_vtk_loader.h"

#include "components/mesh_loader.h"

namespace fluxion::internal {

ComponentSpec MeshVTKLoaderComponent::Spec() {
  return MeshLoaderSpec(
      "MeshVTKLoader",
      "Reads a VTK mesh file: legacy ASCII, or XML UnstructuredGrid with ascii arrays", {});
}

void MeshVTKLoaderComponent::Build(BuildContext& context) {
  BuildMeshLoader(context, [](std::string_view bytes, const std::string& file, const Parameters& p,
                              MeshNotes& notes) {
    (void)p;
    return ReadVtkMesh(bytes, file, notes);
  });
}

}  // namespace fluxion::internal
