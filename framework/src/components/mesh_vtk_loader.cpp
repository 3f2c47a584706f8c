#include "components/mesh_vtk_loader.h"

#include "components/mesh_loader.h"
#include "components/point_selection.h"

namespace fluxion::internal {

ComponentSpec MeshVTKLoaderComponent::Spec() {
  return MeshLoaderSpec("MeshVTKLoader",
                        "Reads a VTK mesh file: legacy ASCII .vtk, or VTK XML .vtu and .vtp", {});
}

void MeshVTKLoaderComponent::Build(BuildContext& context) {
  BuildMeshLoader(context, [&context](std::string_view bytes, const std::string& file,
                                      const Parameters& p, MeshNotes& notes) {
    (void)p;
    return ReadVtkMesh(bytes, file, notes, MeshBudgetOf(context));
  });
}

}  // namespace fluxion::internal
