#include "components/sparse_grid_surface.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "fluxion/errors.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {

namespace {

void AddTriangles(const std::vector<std::array<Index, 3>>& triangles, Surface& surface) {
  for (const auto& t : triangles) {
    surface.triangles.push_back(t);
    surface.facet_edges.push_back({t[0], t[1]});
    surface.facet_edges.push_back({t[1], t[2]});
  }
}

void AddQuads(const std::vector<std::array<Index, 4>>& quads, Surface& surface) {
  for (const auto& q : quads) {
    surface.triangles.push_back({q[0], q[1], q[2]});
    surface.triangles.push_back({q[0], q[2], q[3]});
    for (std::size_t j = 1; j < 4; ++j) surface.facet_edges.push_back({q[j - 1], q[j]});
  }
}

std::optional<Surface> FromFile(BuildContext& context, const std::string& name) {
  const std::string extension = name.substr(std::min(name.rfind('.'), name.size()));
  if (extension != ".obj" && extension != ".OBJ") {
    context.Error(context.type() + " 'fileTopology' is '" + name +
                  "' (expected a .obj surface mesh; SOFA's .voxel and .raw voxel files are not "
                  "supported)");
    return std::nullopt;
  }
  const std::optional<BuildContext::InputFile> file = context.ReadInputFile(name);
  if (!file) return std::nullopt;
  Topology mesh;
  MeshNotes notes;
  try {
    mesh =
        ReadObjMesh(file->bytes, file->path, /*triangulate=*/false, /*handle_seams=*/false, notes);
  } catch (const ConfigError& error) {
    context.Error(context.type() + std::string(" cannot read the mesh: ") + error.what());
    return std::nullopt;
  }
  Surface surface{.vertices = std::move(mesh.points), .triangles = {}, .facet_edges = {}};
  AddTriangles(mesh.triangles, surface);
  AddQuads(mesh.quads, surface);
  return surface;
}

std::optional<Surface> FromData(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::vector<double>& position = p.reals("position");
  if (position.empty()) {
    context.Error(context.type() +
                  " has neither 'fileTopology' nor 'position' (expected a closed "
                  "surface mesh: a .obj file, or position with triangles or quads)");
    return std::nullopt;
  }
  if (position.size() % 3 != 0) {
    context.Error(context.type() + " 'position' has " + std::to_string(position.size()) +
                  " numbers (expected 3 per point)");
    return std::nullopt;
  }
  Surface surface;
  for (std::size_t i = 0; i < position.size(); i += 3)
    surface.vertices.push_back({position[i], position[i + 1], position[i + 2]});
  const std::vector<Index>& triangles = p.indices("triangles");
  const std::vector<Index>& quads = p.indices("quads");
  if (triangles.size() % 3 != 0 || quads.size() % 4 != 0) {
    context.Error(context.type() + " '" + (triangles.size() % 3 != 0 ? "triangles" : "quads") +
                  "' has an incomplete last element (expected 3 indices per triangle, 4 per quad)");
    return std::nullopt;
  }
  std::vector<std::array<Index, 3>> triangle_list;
  for (std::size_t i = 0; i < triangles.size(); i += 3)
    triangle_list.push_back({triangles[i], triangles[i + 1], triangles[i + 2]});
  AddTriangles(triangle_list, surface);
  std::vector<std::array<Index, 4>> quad_list;
  for (std::size_t i = 0; i < quads.size(); i += 4)
    quad_list.push_back({quads[i], quads[i + 1], quads[i + 2], quads[i + 3]});
  AddQuads(quad_list, surface);
  return surface;
}

// True when every edge is used by an even number of triangles: the surface encloses a volume
// (mod 2), so the flood from the grid's border cannot leak into it.
bool IsClosed(const Surface& surface, std::array<Index, 2>& open_edge) {
  std::vector<std::array<Index, 2>> edges;
  edges.reserve(surface.triangles.size() * 3);
  for (const auto& t : surface.triangles)
    for (int e = 0; e < 3; ++e) {
      const Index a = t[static_cast<std::size_t>(e)], b = t[static_cast<std::size_t>((e + 1) % 3)];
      if (a != b) edges.push_back({std::min(a, b), std::max(a, b)});
    }
  std::sort(edges.begin(), edges.end());
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    if ((j - i) % 2 != 0) {
      open_edge = edges[i];
      return false;
    }
    i = j;
  }
  return true;
}

}  // namespace

std::optional<Surface> ReadSparseGridSurface(BuildContext& context) {
  const std::string& file = context.parameters().text("fileTopology");
  std::optional<Surface> surface = file.empty() ? FromData(context) : FromFile(context, file);
  if (!surface) return std::nullopt;
  const std::string what = file.empty() ? "its 'position'" : "'" + file + "'";
  if (surface->vertices.empty()) {
    context.Error(context.type() + ": the mesh " + what +
                  " has no vertices (expected a closed surface mesh)");
    return std::nullopt;
  }
  for (std::size_t v = 0; v < surface->vertices.size(); ++v)
    for (const double x : surface->vertices[v])
      if (!std::isfinite(x)) {
        context.Error(context.type() + ": vertex " + std::to_string(v) + " of " + what +
                      " is not finite (expected finite coordinates)");
        return std::nullopt;
      }
  const auto count = static_cast<Index>(surface->vertices.size());
  for (const auto& t : surface->triangles)
    for (const Index v : t)
      if (v < 0 || v >= count) {
        context.Error(context.type() + ": an element of " + what + " uses vertex " +
                      std::to_string(v) + " (expected 0.." + std::to_string(count - 1) + ")");
        return std::nullopt;
      }
  std::array<Index, 2> edge{};
  if (!IsClosed(*surface, edge))
    context.Warn(context.type() + ": the surface " + what + " is open: its edge " +
                 std::to_string(edge[0]) + "-" + std::to_string(edge[1]) +
                 " borders an odd number of faces; as in SOFA, the cells it encloses are kept "
                 "only where the flood from the grid's border does not reach them through the "
                 "holes (a closed surface has every edge shared by an even number of faces)");
  return surface;
}

}  // namespace fluxion::internal
