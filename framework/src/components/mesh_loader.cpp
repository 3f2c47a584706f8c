#include "components/mesh_loader.h"
#include "components/point_selection.h"

#include <algorithm>
#include <set>
#include <utility>

#include "components/sofa_float.h"
#include "fluxion/errors.h"
#include "meshio/loader_transform.h"

namespace fluxion::internal {

ComponentSpec MeshLoaderSpec(std::string name, std::string summary, std::vector<FieldSpec> extra) {
  ComponentSpec spec{
      .name = std::move(name),
      .kind = ComponentKind::kEngine,
      .summary = std::move(summary),
      .fields =
          {FieldSpec::Text("filename", "",
                           "the mesh file: found next to the scene, then in the data folders "
                           "(README, 'Files and safety')"),
           FieldSpec::RealList("translation", "translation of the points [m]").DefaultText("0 0 0"),
           FieldSpec::RealList("rotation", "rotation of the points, Euler angles X Y Z [degrees]")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("scale3d", "scale of the points along x, y, z").DefaultText("1 1 1"),
           FieldSpec::RealList("scale",
                               "legacy: one number that multiplies scale3d (read as a float, as "
                               "SOFA; of a longer list SOFA reads the first number only)"),
           FieldSpec::RealList("transformation",
                               "4×4 homogeneous matrix, row by row; replaces translation, rotation "
                               "and scale when not the identity")
               .DefaultText("1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1"),
           FieldSpec::Bool("triangulate", false, "split quads (and polygons) into triangles"),
           FieldSpec::Bool("flipNormals", false, "SOFA option for normals: no mechanical effect"),
           FieldSpec::Bool("createSubelements", false,
                           "add the edges of the quads and triangles missing from the file's "
                           "edges (surface meshes only)"),
           FieldSpec::Bool("onlyAttachedPoints", false, "only supported as 0")},
      .aliases = {}};
  for (FieldSpec& field : extra) spec.fields.push_back(std::move(field));
  return spec;
}

namespace {

template <std::size_t N>
std::vector<Index> Flattened(const std::vector<std::array<Index, N>>& elements) {
  std::vector<Index> flat;
  flat.reserve(elements.size() * N);
  for (const auto& element : elements) flat.insert(flat.end(), element.begin(), element.end());
  return flat;
}

bool CheckOptions(BuildContext& context) {
  const Parameters& p = context.parameters();
  bool ok = true;
  if (p.flag("onlyAttachedPoints")) {
    context.Error(context.type() + " 'onlyAttachedPoints=1' is not supported (expected 0)");
    ok = false;
  }
  for (const char* field : {"translation", "rotation", "scale3d"})
    if (p.reals(field).size() != 3) {
      context.Error(context.type() + " '" + field + "' needs 3 numbers (x y z)");
      ok = false;
    }
  if (p.reals("scale").size() > 1)
    context.Warn(context.type() + " 'scale' has " + std::to_string(p.reals("scale").size()) +
                 " numbers: only the first is used, as SOFA reads it (scale3d takes three)");
  if (p.reals("transformation").size() != 16) {
    context.Error(context.type() + " 'transformation' needs 16 numbers (a 4×4 matrix)");
    ok = false;
  }
  return ok;
}

// SOFA's MeshLoader::reinit: `transformation` when it is not the identity, else T·R·S.
void Transform(const Parameters& p, Topology& mesh) {
  const std::vector<double>& m = p.reals("transformation");
  const bool identity = m == std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  if (!identity) {
    // SOFA ignores a matrix that is not an affine transformation (last row 0 0 0 1).
    if (m[12] != 0.0 || m[13] != 0.0 || m[14] != 0.0 || m[15] != 1.0) return;
    for (std::array<double, 3>& x : mesh.points) {
      const std::array<double, 3> y = x;
      for (int r = 0; r < 3; ++r)
        x[r] = m[4 * r] * y[0] + m[4 * r + 1] * y[1] + m[4 * r + 2] * y[2] + m[4 * r + 3];
    }
    return;
  }
  std::array<double, 3> scale{}, rotation{}, translation{};
  for (int c = 0; c < 3; ++c) {
    scale[c] = p.reals("scale3d")[c];
    rotation[c] = p.reals("rotation")[c];
    translation[c] = p.reals("translation")[c];
  }
  if (!p.reals("scale").empty())
    for (double& s : scale) s *= AsSofaFloat(p.reals("scale").front());
  ApplyLoaderTransform(mesh, scale, rotation, translation);
}

// SOFA's MeshLoader::updateElements with createSubelements: the side (v_{j+1}, v_{j+2}) of each
// quad, then of each triangle, appended to the edges when no edge joins its points yet.
// Source: Sofa/framework/Core/src/sofa/core/loader/MeshLoader.cpp.
void CreateMissingEdges(Topology& mesh) {
  std::set<std::pair<Index, Index>> known;
  for (const auto& [a, b] : mesh.edges) known.insert(std::minmax(a, b));
  const auto add_sides = [&](const auto& elements) {
    for (const auto& element : elements) {
      const std::size_t n = element.size();
      for (std::size_t j = 0; j < n; ++j) {
        const Index a = element[(j + 1) % n], b = element[(j + 2) % n];
        if (known.insert(std::minmax(a, b)).second) mesh.edges.push_back({a, b});
      }
    }
  };
  add_sides(mesh.quads);
  add_sides(mesh.triangles);
}

}  // namespace

void BuildMeshLoader(BuildContext& context, const MeshReader& read) {
  if (!CheckOptions(context)) return;
  const Parameters& p = context.parameters();
  if (p.text("filename").empty()) {
    context.Error(context.type() + " needs 'filename' (expected the mesh file to read)");
    return;
  }
  const std::optional<BuildContext::InputFile> file = context.ReadInputFile(p.text("filename"));
  if (!file) return;
  MeshNotes notes;
  Topology mesh;
  try {
    mesh = read(file->bytes, file->path, p, notes);
  } catch (const ConfigError& error) {
    context.Error(context.type() + " cannot read the mesh: " + error.what());
    return;
  }
  if (notes.skipped_elements > 0)
    context.Warn(context.type() + " skipped " + std::to_string(notes.skipped_elements) +
                 " element(s) of kinds SOFA's loader ignores too (points, prisms, …) in " +
                 file->path);
  PublishMesh(context, std::move(mesh));
}

void BuildMeshCreator(BuildContext& context, Topology mesh) {
  if (!CheckOptions(context)) return;
  PublishMesh(context, std::move(mesh));
}

void PublishMesh(BuildContext& context, Topology mesh) {
  const Parameters& p = context.parameters();
  const Index points = static_cast<Index>(mesh.points.size());
  if (points + context.topology_points() > context.max_scene_points()) {
    context.Error(context.type() + " makes " + std::to_string(points) + " points (expected " +
                  PointLimitText(context, context.max_scene_points()) + ")");
    return;
  }
  if (p.flag("triangulate")) TriangulateQuads(mesh);
  if (p.flag("createSubelements")) {
    if (!mesh.tetrahedra.empty() || !mesh.hexahedra.empty()) {
      context.Error(context.type() +
                    " 'createSubelements=1' on a volume mesh is not supported yet (expected "
                    "triangles or quads)");
      return;
    }
    CreateMissingEdges(mesh);
  }
  Transform(p, mesh);
  std::vector<double> position;
  position.reserve(mesh.points.size() * 3);
  for (const auto& x : mesh.points) position.insert(position.end(), x.begin(), x.end());
  context.SetOutput("position", std::move(position));
  context.SetOutput("edges", Flattened(mesh.edges));
  context.SetOutput("triangles", Flattened(mesh.triangles));
  context.SetOutput("quads", Flattened(mesh.quads));
  context.SetOutput("tetrahedra", Flattened(mesh.tetrahedra));
  context.SetOutput("hexahedra", Flattened(mesh.hexahedra));
}

}  // namespace fluxion::internal
