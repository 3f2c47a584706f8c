// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshOffLoader.cpp (doLoad, readOFF).
// The Object File Format: the word OFF, a line of counts "V F E" (E unused), V lines of x y z,
// F lines "n i0 … i(n−1)"; lines that are empty or start with '#' are skipped everywhere after
// the word OFF. Faces of 3 vertices are triangles, of 4 quads, in file order; SOFA skips others.
// Deviations, all making a malformed file an error where SOFA reads on with what it has: a count,
// coordinate or vertex index that is not a number, a vertex index beyond the V vertices, a face
// line with fewer indices than it announces, and a file that ends before its V vertices and F
// faces; a line of blanks is skipped (SOFA reads it as a point it does not set). A face of
// another size counts among the F faces (SOFA reads one more line for each: the same mesh when the
// file ends after its faces) and is reported in `notes.skipped_elements`. Words after a vertex's
// three coordinates (colours) are ignored, as SOFA's stream does.
#include "meshio/mesh_readers.h"
#include "meshio/mesh_text.h"

#include "core/text_parsing.h"

namespace fluxion::internal {

namespace {

// The words of the next line that is neither blank nor a comment (a line of other whitespace
// than RequireLine skips, e.g. a form feed, has no words).
std::vector<std::string_view> NextWords(MeshText& text, const std::string& what) {
  while (true) {
    const std::vector<std::string_view> words = MeshText::Words(text.RequireLine(what));
    if (!words.empty() && words.front().front() != '#') return words;
  }
}

}  // namespace

Topology ReadOffMesh(std::string_view bytes, const std::string& file, MeshNotes& notes) {
  MeshText text(bytes, file);
  // The word OFF first (SOFA reads it as the first word of the file); the counts may follow it on
  // its line.
  std::vector<std::string_view> words;
  while (words.empty()) words = MeshText::Words(text.RequireLine("the word OFF"));
  if (words.front() != "OFF")
    text.Fail("is not an OFF file: it starts with '" + Shown(words.front(), 40) +
              "' (expected the word OFF)");
  words.erase(words.begin());
  if (words.empty() || words.front().front() == '#')
    words = NextWords(text, "the counts: vertices faces edges");
  if (words.size() < 2)
    text.Fail("the counts line has " + std::to_string(words.size()) +
              " number(s) (expected: vertices faces edges)");
  const long vertices = text.Count(words[0], "the vertex count");
  const long faces = text.Count(words[1], "the face count");
  // A vertex takes at least 5 bytes ("0 0 0", the last line may end the file), a face 1 ("0": a
  // face SOFA skips).
  text.CheckCount(vertices, 5, "the vertex count");
  text.CheckCount(faces, 1, "the face count");

  Topology mesh;
  mesh.points.reserve(static_cast<std::size_t>(vertices));
  for (long v = 0; v < vertices; ++v) {
    words = NextWords(text, "vertex " + std::to_string(v) + " of " + std::to_string(vertices));
    if (words.size() < 3)
      text.Fail("a vertex has " + std::to_string(words.size()) +
                " number(s) (expected 3 coordinates: x y z)");
    mesh.points.push_back(
        {text.Real(words[0], "x"), text.Real(words[1], "y"), text.Real(words[2], "z")});
  }
  for (long f = 0; f < faces; ++f) {
    words = NextWords(text, "face " + std::to_string(f) + " of " + std::to_string(faces));
    const long size = text.Count(words[0], "the face's vertex count");
    if (size < 3 || size > 4) {
      ++notes.skipped_elements;  // SOFA keeps triangles and quads only
      continue;
    }
    if (static_cast<long>(words.size()) < size + 1)
      text.Fail("a face of " + std::to_string(size) + " vertices lists " +
                std::to_string(words.size() - 1) + " (expected " + std::to_string(size) + ")");
    std::array<Index, 4> nodes{};
    for (long k = 0; k < size; ++k) {
      const long node = text.Count(words[static_cast<std::size_t>(k + 1)], "a vertex index");
      if (node >= vertices)
        text.Fail("a face uses vertex " + std::to_string(node) + " (expected indices below the " +
                  std::to_string(vertices) + " vertices)");
      nodes[static_cast<std::size_t>(k)] = node;
    }
    if (size == 3)
      mesh.triangles.push_back({nodes[0], nodes[1], nodes[2]});
    else
      mesh.quads.push_back(nodes);
  }
  return mesh;
}

}  // namespace fluxion::internal
