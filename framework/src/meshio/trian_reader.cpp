// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshTrianLoader.cpp (readTrian,
// readTrian2). Both formats are streams of whitespace-separated words, lines not mattering:
//   trian:  V, V×(x y z), T, T×(i0 i1 i2 n0 n1 n2): n_k the triangle across the edge opposite
//           vertex k, −1 on the border;
//   trian2: 13 lines of material parameters (unused), then "WORD V", V×(x y z), "WORD N",
//           N×(nx ny nz) normals (unused here), "WORD T", T×(i0 i1 i2).
// For trian, SOFA's border outputs: for each triangle, its border edges in the order n0 (i1 i2),
// n1 (i2 i0), n2 (i0 i1), and the triangle's index once when it has one.
// Deviations, making a malformed file an error where SOFA's stream reads on with zeros or what it
// had: a count, coordinate or index that is not a number, a vertex index beyond the V vertices, a
// neighbour below −1, and a file that ends before its counts say.
#include "meshio/mesh_readers.h"
#include "meshio/mesh_text.h"

#include "core/text_parsing.h"

namespace fluxion::internal {

namespace {

// The file's words one at a time, across lines (SOFA reads it with >>).
class TrianWords {
 public:
  explicit TrianWords(MeshText& text) : text_(text) {}
  std::string_view Next(const std::string& what) {
    while (next_ == words_.size()) {
      words_ = MeshText::Words(text_.RequireLine(what));
      next_ = 0;
    }
    return words_[next_++];
  }
  double Real(const char* what) { return text_.Real(Next(what), what); }
  long Count(const char* what) { return text_.Count(Next(what), what); }

 private:
  MeshText& text_;
  std::vector<std::string_view> words_;
  std::size_t next_ = 0;
};

void TrianPoints(MeshText& text, TrianWords& words, long count,
                 std::vector<std::array<double, 3>>& out) {
  text.CheckCount(count, 6, "the vertex count");  // "0 0 0 ": a count or keyword follows
  out.reserve(static_cast<std::size_t>(count));
  for (long v = 0; v < count; ++v) {
    const double x = words.Real("x"), y = words.Real("y"), z = words.Real("z");
    out.push_back({x, y, z});
  }
}

Index TrianVertex(MeshText& text, TrianWords& words, std::size_t vertices) {
  const long node = words.Count("a vertex index");
  if (static_cast<std::size_t>(node) >= vertices)
    text.Fail("a triangle uses vertex " + std::to_string(node) + " (expected indices below the " +
              std::to_string(vertices) + " vertices)");
  return node;
}

}  // namespace

TrianMesh ReadTrianMesh(std::string_view bytes, const std::string& file, bool trian2) {
  MeshText text(bytes, file);
  TrianWords words(text);
  TrianMesh trian;
  Topology& mesh = trian.mesh;
  if (trian2) {
    // 13 lines of material parameters, which SOFA does not read either.
    std::string_view line;
    for (int k = 0; k < 13; ++k)
      if (!text.NextLine(line))
        text.Fail(
            "the file ends in its 13 lines of material parameters (expected them, then "
            "the vertices)");
    words.Next("the vertices' keyword and count");
    TrianPoints(text, words, words.Count("the vertex count"), mesh.points);
    words.Next("the normals' keyword and count");
    std::vector<std::array<double, 3>> normals;
    TrianPoints(text, words, words.Count("the normal count"), normals);
    words.Next("the triangles' keyword and count");
    const long triangles = words.Count("the triangle count");
    text.CheckCount(triangles, 5, "the triangle count");  // "0 1 2" at the shortest
    for (long t = 0; t < triangles; ++t) {
      const Index a = TrianVertex(text, words, mesh.points.size());
      const Index b = TrianVertex(text, words, mesh.points.size());
      const Index c = TrianVertex(text, words, mesh.points.size());
      mesh.triangles.push_back({a, b, c});
    }
    return trian;
  }
  TrianPoints(text, words, words.Count("the vertex count"), mesh.points);
  const long triangles = words.Count("the triangle count");
  text.CheckCount(triangles, 11, "the triangle count");  // "0 1 2 0 0 0" at the shortest
  for (long t = 0; t < triangles; ++t) {
    std::array<Index, 3> nodes{};
    for (Index& node : nodes) node = TrianVertex(text, words, mesh.points.size());
    std::array<Index, 3> neighbours{};
    for (Index& neighbour : neighbours) {
      std::string why;
      const std::string_view word = words.Next("a neighbour");
      const std::optional<long> value = ParseInteger(word, &why);
      if (!value || *value < -1)
        text.Fail("the neighbour '" + Shown(word, 40) +
                  "' is not a whole number ≥ −1 (expected a triangle index, or −1 on the border)");
      neighbour = *value;
    }
    mesh.triangles.push_back(nodes);
    trian.neighbours.push_back(neighbours);
    // The edge opposite vertex k is on the border when neighbour k is −1.
    bool border = false;
    for (int k = 0; k < 3; ++k)
      if (neighbours[static_cast<std::size_t>(k)] == -1) {
        trian.border_edges.push_back({nodes[static_cast<std::size_t>((k + 1) % 3)],
                                      nodes[static_cast<std::size_t>((k + 2) % 3)]});
        border = true;
      }
    if (border) trian.border_triangles.push_back(t);
  }
  return trian;
}

}  // namespace fluxion::internal
