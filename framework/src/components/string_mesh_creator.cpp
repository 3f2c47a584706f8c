#include "components/string_mesh_creator.h"

#include "components/mesh_loader.h"

namespace fluxion::internal {

ComponentSpec StringMeshCreatorComponent::Spec() {
  ComponentSpec spec =
      MeshLoaderSpec("StringMeshCreator", "A string of points along x from 0 to 1, with its edges",
                     {FieldSpec::Integer("resolution", 2, "number of points").AtLeast(2)});
  return spec;
}

void StringMeshCreatorComponent::Build(BuildContext& context) {
  const long n = context.parameters().integer("resolution");
  if (n > context.max_scene_points()) {
    context.Error("StringMeshCreator 'resolution' is " + std::to_string(n) + " (expected at most " +
                  std::to_string(context.max_scene_points()) + ")");
    return;
  }
  Topology mesh;
  for (long x = 0; x < n; ++x)
    mesh.points.push_back({static_cast<double>(x) * (1.0 / static_cast<double>(n - 1)), 0, 0});
  for (long e = 1; e < n; ++e) mesh.edges.push_back({e - 1, e});
  BuildMeshCreator(context, std::move(mesh));
}

}  // namespace fluxion::internal
