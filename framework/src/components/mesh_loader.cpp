#include "components/mesh_loader.h"
#include "components/point_selection.h"

#include <algorithm>
#include <array>
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
           FieldSpec::Bool("flipNormals", false,
                           "reverse each triangle and quad the file gives, (t2 t1 t0) and "
                           "(q3 q2 q1 q0), as SOFA's loaders: every normal turns"),
           FieldSpec::Bool("createSubelements", false,
                           "add the faces of the volumes and the edges of the faces missing "
                           "from the file's lists, in SOFA's order (MeshGmshLoader: on unless "
                           "set to 0, as SOFA's)"),
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

// SOFA's MeshLoader::updateElements with createSubelements, in its order: the faces of the
// hexahedra (h0 h3 h2 h1, h4 h5 h6 h7, h0 h1 h5 h4, h1 h2 h6 h5, h2 h3 h7 h6, h3 h0 h4 h7),
// then of the tetrahedra (t0 t2 t1, t0 t1 t3, t0 t3 t2, t1 t2 t3: VTK's), then the side
// (v_{j+1}, v_{j+2}) of each quad and of each triangle, each appended when no element of its
// kind joins its points yet (in any order).
// Source: Sofa/framework/Core/src/sofa/core/loader/MeshLoader.cpp.
template <std::size_t N>
std::array<Index, N> Unordered(std::array<Index, N> vertices) {
  std::sort(vertices.begin(), vertices.end());
  return vertices;
}

template <std::size_t N, class Make>
void AppendMissing(std::vector<std::array<Index, N>>& list, Make make_all) {
  std::set<std::array<Index, N>> known;
  for (const auto& element : list) known.insert(Unordered(element));
  make_all([&](const std::array<Index, N>& element) {
    if (known.insert(Unordered(element)).second) list.push_back(element);
  });
}

void CreateSubelements(Topology& mesh) {
  AppendMissing(mesh.quads, [&](auto add) {
    for (const auto& h : mesh.hexahedra) {
      add({h[0], h[3], h[2], h[1]});
      add({h[4], h[5], h[6], h[7]});
      add({h[0], h[1], h[5], h[4]});
      add({h[1], h[2], h[6], h[5]});
      add({h[2], h[3], h[7], h[6]});
      add({h[3], h[0], h[4], h[7]});
    }
  });
  AppendMissing(mesh.triangles, [&](auto add) {
    for (const auto& t : mesh.tetrahedra) {
      add({t[0], t[2], t[1]});
      add({t[0], t[1], t[3]});
      add({t[0], t[3], t[2]});
      add({t[1], t[2], t[3]});
    }
  });
  const auto sides = [&](const auto& elements) {
    AppendMissing(mesh.edges, [&](auto add) {
      for (const auto& element : elements) {
        const std::size_t n = element.size();
        for (std::size_t j = 0; j < n; ++j) add({element[(j + 1) % n], element[(j + 2) % n]});
      }
    });
  };
  sides(mesh.quads);
  sides(mesh.triangles);
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
  const bool flip = p.flag("flipNormals");
  if (flip) FlipElements(mesh);
  PublishMesh(context, std::move(mesh), flip);
}

void BuildMeshCreator(BuildContext& context, Topology mesh) {
  if (!CheckOptions(context)) return;
  PublishMesh(context, std::move(mesh));
}

void PublishMesh(BuildContext& context, Topology mesh, bool flip_normals) {
  const Parameters& p = context.parameters();
  const Index points = static_cast<Index>(mesh.points.size());
  if (points + context.topology_points() > context.max_scene_points()) {
    context.Error(context.type() + " makes " + std::to_string(points) + " points (expected " +
                  PointLimitText(context, context.max_scene_points()) + ")");
    return;
  }
  if (p.flag("triangulate")) TriangulateQuads(mesh, flip_normals);
  // SOFA's MeshGmshLoader sets createSubelements when the scene does not (doLoad).
  const bool subelements =
      p.has("createSubelements") ? p.flag("createSubelements") : context.type() == "MeshGmshLoader";
  if (subelements) CreateSubelements(mesh);
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
