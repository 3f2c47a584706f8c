#include "components/mesh_stl_loader.h"

#include "components/mesh_loader.h"

namespace fluxion::internal {

ComponentSpec MeshSTLLoaderComponent::Spec() {
  return MeshLoaderSpec(
      "MeshSTLLoader", "Reads an STL surface mesh file (ASCII or binary)",
      {FieldSpec::Integer("headerSize", 80, "bytes of a binary file's header").AtLeast(0),
       FieldSpec::Bool("forceBinary", false,
                       "read the file as binary even when its first word is 'solid'"),
       FieldSpec::Bool("mergePositionUsingMap", true,
                       "SOFA's choice of merging algorithm: the same merged points either way")});
}

void MeshSTLLoaderComponent::Build(BuildContext& context) {
  long degenerate = 0;
  std::string path;
  BuildMeshLoader(context, [&](std::string_view bytes, const std::string& file, const Parameters& p,
                               MeshNotes& notes) {
    Topology mesh = ReadStlMesh(bytes, file, p.flag("forceBinary"),
                                static_cast<std::size_t>(p.integer("headerSize")), notes);
    degenerate = notes.degenerate_triangles;
    path = file;
    return mesh;
  });
  if (degenerate > 0)
    context.Warn("MeshSTLLoader dropped " + std::to_string(degenerate) +
                 " facet(s) whose points are not all different in " + path +
                 " (as SOFA does for binary files)");
}

}  // namespace fluxion::internal
