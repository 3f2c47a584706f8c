// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshOBJLoader.cpp (readOBJ).
// handleSeams as SOFA's (vertices split where faces give them different texture coordinates or
// normals). Deviations: a vertex index that is 0, not a number, or beyond the file's vertices is
// an error (SOFA keeps −1 or reads past its arrays); a face of one vertex is an error (SOFA drops
// it).
#include "meshio/mesh_readers.h"
#include "meshio/mesh_text.h"

#include <map>

#include "core/text_parsing.h"

namespace fluxion::internal {

namespace {

// One `f` or `l` statement: its vertex, texture-coordinate and normal numbers (−1: none), 0-based.
struct Face {
  std::vector<long> v, t, n;
  int line = 0;
};

// An OBJ number field ("12", "-3", ""): 0-based index, −1 when empty, relative to `count`.
long ObjIndex(const MeshText& text, std::string_view field, long count, const char* what) {
  if (field.empty()) return -1;
  std::string why;
  const std::optional<long> value = ParseInteger(field, &why);
  if (!value || *value == 0)
    text.Fail(std::string(what) + " '" + Shown(field, 40) +
              "' is not a number of one (expected 1, 2, … or −1, −2, … counting back)");
  const long index = *value > 0 ? *value - 1 : *value + count;
  if (index < 0)
    text.Fail(std::string(what) + " " + std::to_string(*value) + " counts back before the first");
  return index;
}

void AddElement(Topology& mesh, const std::vector<Index>& nodes, bool triangulate) {
  if (nodes.size() == 2)
    mesh.edges.push_back({std::min(nodes[0], nodes[1]), std::max(nodes[0], nodes[1])});
  else if (nodes.size() == 4 && !triangulate)
    mesh.quads.push_back({nodes[0], nodes[1], nodes[2], nodes[3]});
  else
    for (std::size_t j = 2; j < nodes.size(); ++j)
      mesh.triangles.push_back({nodes[0], nodes[j - 1], nodes[j]});
}

}  // namespace

Topology ReadObjMesh(std::string_view bytes, const std::string& file, bool triangulate,
                     bool handle_seams, MeshNotes& notes) {
  (void)notes;
  MeshText text(bytes, file);
  std::vector<std::array<double, 3>> points;
  long texcoords = 0, normals = 0;
  std::vector<Face> faces;
  std::string_view line;
  while (text.NextLine(line)) {
    const std::vector<std::string_view> words = MeshText::Words(line);
    if (words.empty() || words[0].front() == '#') continue;
    if (words[0] == "v") {
      if (words.size() < 4)
        text.Fail("'v' with " + std::to_string(words.size() - 1) + " numbers (expected x y z)");
      points.push_back(
          {text.Real(words[1], "x"), text.Real(words[2], "y"), text.Real(words[3], "z")});
    } else if (words[0] == "vt") {
      ++texcoords;
    } else if (words[0] == "vn") {
      ++normals;
    } else if (words[0] == "f" || words[0] == "l") {
      Face face;
      face.line = text.line();
      for (std::size_t k = 1; k < words.size(); ++k) {
        std::string_view rest = words[k];
        std::string_view fields[3];
        for (int j = 0; j < 3 && !rest.empty(); ++j) {
          const std::size_t slash = rest.find('/');
          fields[j] = rest.substr(0, slash);
          rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
        }
        const long v = ObjIndex(text, fields[0], static_cast<long>(points.size()), "vertex");
        if (v < 0) text.Fail("a face corner without a vertex number");
        face.v.push_back(v);
        face.t.push_back(ObjIndex(text, fields[1], texcoords, "texture coordinate"));
        face.n.push_back(ObjIndex(text, fields[2], normals, "normal"));
      }
      if (face.v.size() < 2)
        text.Fail("'" + std::string(words[0]) + "' with " + std::to_string(face.v.size()) +
                  " vertex (expected at least 2)");
      faces.push_back(std::move(face));
    }  // g, usemtl, s, o, mtllib …: no mechanics
  }
  for (const Face& face : faces)
    for (const long v : face.v)
      if (v >= static_cast<long>(points.size()))
        text.FailAt(face.line, "vertex " + std::to_string(v + 1) +
                                   " does not exist (the file has " +
                                   std::to_string(points.size()) + " vertices)");
  Topology mesh;
  std::vector<Index> nodes;
  if (!handle_seams) {
    mesh.points = std::move(points);
    for (const Face& face : faces) {
      nodes.assign(face.v.begin(), face.v.end());
      AddElement(mesh, nodes, triangulate);
    }
    return mesh;
  }
  // SOFA's handleSeams: one vertex per (position, texture coordinate, normal) used by the faces,
  // numbered by position then by (texture coordinate, normal); positions no face uses vanish.
  std::vector<std::map<std::pair<long, long>, Index>> copies(points.size());
  for (const Face& face : faces)
    for (std::size_t k = 0; k < face.v.size(); ++k)
      copies[static_cast<std::size_t>(face.v[k])][{face.t[k], face.n[k]}] = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
    for (auto& [pair, index] : copies[i]) {
      index = static_cast<Index>(mesh.points.size());
      mesh.points.push_back(points[i]);
    }
  for (const Face& face : faces) {
    nodes.clear();
    for (std::size_t k = 0; k < face.v.size(); ++k)
      nodes.push_back(copies[static_cast<std::size_t>(face.v[k])][{face.t[k], face.n[k]}]);
    AddElement(mesh, nodes, triangulate);
  }
  return mesh;
}

}  // namespace fluxion::internal
