#include "components/mesh_off_loader.h"

#include "components/mesh_loader.h"

namespace fluxion::internal {

ComponentSpec MeshOffLoaderComponent::Spec() {
  return MeshLoaderSpec("MeshOffLoader", "Reads an OFF (Object File Format) surface mesh file", {});
}

void MeshOffLoaderComponent::Build(BuildContext& context) {
  BuildMeshLoader(context, [](std::string_view bytes, const std::string& file, const Parameters& p,
                              MeshNotes& notes) {
    (void)p;
    return ReadOffMesh(bytes, file, notes);
  });
}

}  // namespace fluxion::internal
