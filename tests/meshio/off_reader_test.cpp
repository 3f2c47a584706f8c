// SOFA's OFF files (framework/src/meshio/off_reader.cpp) on files written here, read as SOFA's
// MeshOffLoader reads them: triangles and quads in file order, other faces skipped, comments
// skipped, counts on the OFF line or the next; and the one-line errors where SOFA reads on.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using Point = std::array<double, 3>;

Topology Off(const std::string& text, MeshNotes& notes) {
  return ReadOffMesh(text, "m.off", notes);
}

TEST(OffReader, TrianglesAndQuadsInFileOrder) {
  // A unit square pyramid: 5 points, the base as a quad, 4 triangles, a pentagon SOFA skips,
  // comments and a blank line between the lists.
  MeshNotes notes;
  const Topology mesh =
      Off("OFF\n"
          "# vertices faces edges\n"
          "5 6 0\n"
          "0 0 0\n1 0 0\n1 1 0\n0 1 0\n"
          "0.5 0.5 1 255 0 0\n"  // a colour after the coordinates, ignored
          "\n# faces\n"
          "4 0 3 2 1\n"
          "3 0 1 4\n3 1 2 4\r\n3 2 3 4\n3 3 0 4\n"
          "5 0 1 2 3 4\n",
          notes);
  EXPECT_THAT(mesh.points, ElementsAre(Point{0, 0, 0}, Point{1, 0, 0}, Point{1, 1, 0},
                                       Point{0, 1, 0}, Point{0.5, 0.5, 1}));
  EXPECT_THAT(mesh.quads, ElementsAre(std::array<Index, 4>{0, 3, 2, 1}));
  EXPECT_THAT(mesh.triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 4}, std::array<Index, 3>{1, 2, 4},
                          std::array<Index, 3>{2, 3, 4}, std::array<Index, 3>{3, 0, 4}));
  EXPECT_EQ(notes.skipped_elements, 1);
  EXPECT_TRUE(mesh.edges.empty());
}

TEST(OffReader, CountsOnTheOffLine) {
  MeshNotes notes;
  const Topology mesh = Off("OFF 3 1 3\n0 0 0\n2 0 0\n0 2 0\n3 2 1 0\n", notes);
  EXPECT_EQ(mesh.points.size(), 3u);
  EXPECT_THAT(mesh.triangles, ElementsAre(std::array<Index, 3>{2, 1, 0}));
}

std::string ErrorOf(const std::string& text) {
  try {
    MeshNotes notes;
    Off(text, notes);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(OffReader, MalformedFilesAreOneLineErrorsWithTheirLine) {
  EXPECT_THAT(ErrorOf(""), StartsWith("m.off:1: the file ends early (expected the word OFF)"));
  EXPECT_THAT(ErrorOf("COFF\n"), StartsWith("m.off:1: is not an OFF file: it starts with 'COFF'"));
  EXPECT_THAT(ErrorOf("OFF\n3\n"), StartsWith("m.off:2: the counts line has 1 number(s)"));
  EXPECT_THAT(ErrorOf("OFF\n-3 1 0\n"), StartsWith("m.off:2: the vertex count '-3'"));
  EXPECT_THAT(ErrorOf("OFF\n900 1 0\n0 0 0\n"),
              AllOf(StartsWith("m.off:2: the vertex count 900 is more than the"),
                    HasSubstr("(expected the real count)")));
  EXPECT_THAT(ErrorOf("OFF\n2 0 0\n0 0 0\n1 x 0\n"), StartsWith("m.off:4: y 'x'"));
  EXPECT_THAT(ErrorOf("OFF\n2 0 0\n0 0 0\n1.5 1.5\n"),
              StartsWith("m.off:4: a vertex has 2 number(s) (expected 3 coordinates: x y z)"));
  EXPECT_THAT(ErrorOf("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"),
              StartsWith("m.off:6: a face uses vertex 3 (expected indices below the 3 vertices)"));
  EXPECT_THAT(ErrorOf("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n4 0 1 2\n"),
              StartsWith("m.off:6: a face of 4 vertices lists 3 (expected 4)"));
  EXPECT_THAT(ErrorOf("OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
              StartsWith("m.off:6: the file ends early (expected face 1 of 2)"));
  // off_fuzz's finding (tests/fuzz/crashes/off_blank_line_without_words.off): a line of a
  // carriage return and a blank has no words; it was read as a first word (undefined behaviour).
  EXPECT_THAT(ErrorOf("\r "), StartsWith("m.off:1: the file ends early (expected the word OFF)"));
  EXPECT_THAT(ErrorOf("OFF\n\r \n"),
              StartsWith("m.off:2: the file ends early (expected the counts"));
}

}  // namespace
}  // namespace fluxion::internal
