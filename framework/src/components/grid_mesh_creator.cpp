#include "components/grid_mesh_creator.h"

#include <set>

#include "components/mesh_loader.h"

namespace fluxion::internal {

ComponentSpec GridMeshCreatorComponent::Spec() {
  return MeshLoaderSpec(
      "GridMeshCreator", "A grid of points on the unit square with quads or triangles",
      {FieldSpec::IndexList("resolution", "points along x and y").DefaultText("2 2"),
       FieldSpec::Integer("trianglePattern", 2,
                          "0 quads, 1 alternating, 2 upward, 3 downward triangles")
           .AtLeast(0)
           .AtMost(3)});
}

void GridMeshCreatorComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::vector<Index>& resolution = p.indices("resolution");
  if (resolution.size() != 2 || resolution[0] < 2 || resolution[1] < 2) {
    context.Error("GridMeshCreator 'resolution' needs 2 numbers of at least 2 (nx ny)");
    return;
  }
  const Index nx = resolution[0], ny = resolution[1];
  if (nx > context.max_scene_points() / ny) {
    context.Error("GridMeshCreator 'resolution' makes more than " +
                  std::to_string(context.max_scene_points()) + " points");
    return;
  }
  Topology mesh;
  for (Index y = 0; y < ny; ++y)
    for (Index x = 0; x < nx; ++x)
      mesh.points.push_back({static_cast<double>(x) * (1.0 / static_cast<double>(nx - 1)),
                             static_cast<double>(y) * (1.0 / static_cast<double>(ny - 1)), 0.0});
  const auto vert = [nx](Index x, Index y) { return x + nx * y; };
  std::set<std::array<Index, 2>> edges;  // SOFA's uniqueEdges: sorted, each pair once
  const auto edge = [&](Index a, Index b) {
    if (!edges.contains({b, a})) edges.insert({a, b});
  };
  const auto triangle = [&](Index a, Index b, Index c) {
    mesh.triangles.push_back({a, b, c});
    edge(a, b);
    edge(b, c);
    edge(c, a);
  };
  const long pattern = p.integer("trianglePattern");
  for (Index y = 0; y + 1 < ny; ++y)
    for (Index x = 0; x + 1 < nx; ++x) {
      const Index a = vert(x, y), b = vert(x + 1, y), c = vert(x + 1, y + 1), d = vert(x, y + 1);
      const bool upward = pattern == 2 || (pattern == 1 && (x + y) % 2 == 0);
      if (pattern == 0) {
        mesh.quads.push_back({a, b, c, d});
        edge(a, b);
        edge(b, c);
        edge(c, d);
        edge(d, a);
      } else if (upward) {
        triangle(a, b, c);
        triangle(a, c, d);
      } else {
        triangle(a, b, d);
        triangle(b, c, d);
      }
    }
  mesh.edges.assign(edges.begin(), edges.end());
  BuildMeshCreator(context, std::move(mesh));
}

}  // namespace fluxion::internal
