#include "components/mesh_obj_loader.h"

#include "components/mesh_loader.h"

namespace fluxion::internal {

ComponentSpec MeshOBJLoaderComponent::Spec() {
  return MeshLoaderSpec(
      "MeshOBJLoader", "Reads a Wavefront OBJ mesh file",
      {FieldSpec::Bool(
           "handleSeams", false,
           "split vertices where faces give them different texture coordinates or normals (SOFA)"),
       FieldSpec::Bool("loadMaterial", true, "SOFA option for materials: no mechanical effect"),
       FieldSpec::Bool("computeMaterialFaces", false,
                       "SOFA option for materials: no mechanical effect")});
}

void MeshOBJLoaderComponent::Build(BuildContext& context) {
  BuildMeshLoader(context, [](std::string_view bytes, const std::string& file, const Parameters& p,
                              MeshNotes& notes) {
    return ReadObjMesh(bytes, file, p.flag("triangulate"), p.flag("handleSeams"), notes);
  });
}

}  // namespace fluxion::internal
