#include "components/mesh_vtk_loader.h"

#include "components/mesh_loader.h"

namespace fluxion::internal {

ComponentSpec MeshVTKLoaderComponent::Spec() {
  return MeshLoaderSpec("MeshVTKLoader", "Reads a legacy ASCII VTK mesh file", {});
}

void MeshVTKLoaderComponent::Build(BuildContext& context) {
  BuildMeshLoader(context, [](std::string_view bytes, const std::string& file, const Parameters& p,
                              MeshNotes& notes) {
    (void)p;
    return ReadVtkMesh(bytes, file, notes);
  });
}

}  // namespace fluxion::internal
