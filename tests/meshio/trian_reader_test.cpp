// SOFA's .trian and .trian2 files (framework/src/meshio/trian_reader.cpp) on files written here,
// read as SOFA's MeshTrianLoader reads them: a stream of words whatever the lines; the border
// edges and triangles its -1 neighbours give; and the one-line errors where SOFA reads on.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::StartsWith;
using Point = std::array<double, 3>;

TEST(TrianReader, TrianglesNeighboursAndBorder) {
  // A unit square as two triangles sharing the diagonal 0–2: triangle 0 (0 1 2) has triangle 1
  // across the edge opposite vertex 1 (2–0), triangle 1 (0 2 3) has triangle 0 across the edge
  // opposite vertex 2 (0–2). Words spread over lines as SOFA's stream allows.
  const TrianMesh read = ReadTrianMesh(
      "4\n0 0 0\n1 0 0\n1 1 0 0 1\n0\n2\n"
      "0 1 2  -1 1 -1\n"
      "0 2 3  -1 -1 0\n",
      "m.trian", false);
  EXPECT_THAT(read.mesh.points,
              ElementsAre(Point{0, 0, 0}, Point{1, 0, 0}, Point{1, 1, 0}, Point{0, 1, 0}));
  EXPECT_THAT(read.mesh.triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 2}, std::array<Index, 3>{0, 2, 3}));
  EXPECT_THAT(read.neighbours,
              ElementsAre(std::array<Index, 3>{-1, 1, -1}, std::array<Index, 3>{-1, -1, 0}));
  // Border edges: triangle 0 opposite vertex 0 (1 2) and vertex 2 (0 1); triangle 1 opposite
  // vertex 0 (2 3) and vertex 1 (3 0).
  EXPECT_THAT(read.border_edges,
              ElementsAre(std::array<Index, 2>{1, 2}, std::array<Index, 2>{0, 1},
                          std::array<Index, 2>{2, 3}, std::array<Index, 2>{3, 0}));
  EXPECT_THAT(read.border_triangles, ElementsAre(0, 1));
}

TEST(TrianReader, Trian2SkipsItsHeaderAndNormals) {
  std::string header;
  for (int k = 0; k < 13; ++k) header += "material line " + std::to_string(k) + "\n";
  const TrianMesh read = ReadTrianMesh(
      header + "Vertices 3\n0 0 0\n2 0 0\n0 2 0\nNormals 1\n0 0 1\nTriangles 1\n2 1 0\n",
      "m.trian2", true);
  EXPECT_THAT(read.mesh.points, ElementsAre(Point{0, 0, 0}, Point{2, 0, 0}, Point{0, 2, 0}));
  EXPECT_THAT(read.mesh.triangles, ElementsAre(std::array<Index, 3>{2, 1, 0}));
  EXPECT_TRUE(read.neighbours.empty());
}

std::string ErrorOf(const std::string& text, bool trian2 = false) {
  try {
    ReadTrianMesh(text, "m.trian", trian2);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(TrianReader, MalformedFilesAreOneLineErrorsWithTheirLine) {
  EXPECT_THAT(ErrorOf(""),
              StartsWith("m.trian:1: the file ends early (expected the vertex count)"));
  EXPECT_THAT(ErrorOf("2\n0 0 0\n1.25 0.5\n"),
              StartsWith("m.trian:3: the file ends early (expected z)"));
  EXPECT_THAT(ErrorOf("1\n0 0 inf\n"), StartsWith("m.trian:2: z 'inf'"));
  EXPECT_THAT(ErrorOf("3\n0 0 0\n1 0 0\n0 1 0\n1\n0 1 3 -1 -1 -1\n"),
              StartsWith("m.trian:6: a triangle uses vertex 3 (expected indices below the 3"));
  EXPECT_THAT(ErrorOf("3\n0 0 0\n1 0 0\n0 1 0\n1\n0 1 2 -2 -1 -1\n"),
              StartsWith("m.trian:6: the neighbour '-2' is not a whole number ≥ −1"));
  EXPECT_THAT(ErrorOf("99999\n0 0 0\n"), StartsWith("m.trian:1: the vertex count 99999 is more"));
  // trian_fuzz's finding (tests/fuzz/crashes/trian_count_on_a_last_line_without_newline.trian):
  // a count on a last line without a newline left the reader one byte past the end, and the bytes
  // left wrapped around, so any count passed the check (a 10 GB reservation).
  EXPECT_THAT(ErrorOf("444444444"),
              StartsWith("m.trian:1: the vertex count 444444444 is more than the 0 bytes left"));
  EXPECT_THAT(ErrorOf("a\nb\n", true),
              StartsWith("m.trian:2: the file ends in its 13 lines of material parameters"));
}

}  // namespace
}  // namespace fluxion::internal
