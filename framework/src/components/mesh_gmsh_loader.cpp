#include "components/mesh_gmsh_loader.h"

#include "components/mesh_loader.h"

namespace fluxion::internal {

ComponentSpec MeshGmshLoaderComponent::Spec() {
  return MeshLoaderSpec("MeshGmshLoader", "Reads a Gmsh MSH (formats 1, 2 and 4, ASCII) mesh file",
                        {});
}

void MeshGmshLoaderComponent::Build(BuildContext& context) {
  BuildMeshLoader(context, [](std::string_view bytes, const std::string& file, const Parameters& p,
                              MeshNotes& notes) {
    (void)p;
    return ReadGmshMesh(bytes, file, notes);
  });
}

}  // namespace fluxion::internal
