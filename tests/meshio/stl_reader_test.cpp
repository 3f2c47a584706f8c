// The STL reader (framework/src/meshio/stl_reader.cpp) on small files built here, ASCII and
// binary, against SOFA's MeshSTLLoader: points merged when exactly equal and numbered by first
// appearance, one triangle per facet in file order, binary facets with repeated points dropped;
// and its one-line errors.
#include <gmock/gmock.h>

#include <cstdint>
#include <cstring>
#include <limits>

#include "fluxion/errors.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using Point = std::array<double, 3>;
using Triangle = std::array<Index, 3>;

// The unit square in z = 0 as two facets sharing the diagonal (0,0,0)–(1,1,0): 6 vertices in the
// file, 4 distinct points.
constexpr const char* kAsciiSquare =
    "solid square\n"
    "  facet normal 0 0 1\n    outer loop\n"
    "      vertex 0 0 0\n      vertex 1 0 0\n      vertex 1 1 0\n"
    "    endloop\n  endfacet\n"
    "  facet normal 0 0 1\n    outer loop\n"
    "      vertex 0 0 0\n      vertex 1 1 0\n      vertex 0 1 0\n"
    "    endloop\n  endfacet\n"
    "endsolid square\n";

// A binary STL: `header` bytes of header, the facet count, then each facet (normal, 3 vertices,
// attribute), little-endian 32-bit floats.
std::string Binary(const std::vector<std::array<Point, 3>>& facets, std::size_t header = 80,
                   const std::string& header_text = "binary square") {
  std::string bytes(header, '\0');
  std::memcpy(bytes.data(), header_text.data(), std::min(header, header_text.size()));
  const auto put32 = [&](std::uint32_t word) {
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<char>((word >> (8 * b)) & 0xff));
  };
  const auto put_float = [&](double x) {
    const float f = static_cast<float>(x);
    std::uint32_t word = 0;
    std::memcpy(&word, &f, 4);
    put32(word);
  };
  put32(static_cast<std::uint32_t>(facets.size()));
  for (const auto& facet : facets) {
    for (int c = 0; c < 3; ++c) put_float(c == 2 ? 1.0 : 0.0);  // normal
    for (const Point& x : facet)
      for (const double c : x) put_float(c);
    bytes += std::string(2, '\0');  // attribute byte count
  }
  return bytes;
}

const std::vector<std::array<Point, 3>> kSquareFacets = {
    {Point{0, 0, 0}, Point{1, 0, 0}, Point{1, 1, 0}},
    {Point{0, 0, 0}, Point{1, 1, 0}, Point{0, 1, 0}}};

Topology Stl(const std::string& bytes, bool force_binary = false, std::size_t header = 80) {
  MeshNotes notes;
  return ReadStlMesh(bytes, "m.stl", force_binary, header, notes);
}

std::string ErrorOf(const std::string& bytes, bool force_binary = false) {
  try {
    Stl(bytes, force_binary);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(StlReader, AsciiSquareMergesTheSharedVertices) {
  const Topology mesh = Stl(kAsciiSquare);
  // Points in order of first appearance: (0,0,0) (1,0,0) (1,1,0), then (0,1,0) from facet 2.
  EXPECT_THAT(mesh.points,
              ElementsAre(Point{0, 0, 0}, Point{1, 0, 0}, Point{1, 1, 0}, Point{0, 1, 0}));
  EXPECT_THAT(mesh.triangles, ElementsAre(Triangle{0, 1, 2}, Triangle{0, 2, 3}));
  EXPECT_TRUE(mesh.edges.empty());
  EXPECT_TRUE(mesh.quads.empty());
}

TEST(StlReader, BinarySquareGivesTheSameMesh) {
  const std::string bytes = Binary(kSquareFacets);
  ASSERT_EQ(bytes.size(), 84u + 2 * 50u);  // the binary STL layout
  const Topology mesh = Stl(bytes);
  EXPECT_THAT(mesh.points,
              ElementsAre(Point{0, 0, 0}, Point{1, 0, 0}, Point{1, 1, 0}, Point{0, 1, 0}));
  EXPECT_THAT(mesh.triangles, ElementsAre(Triangle{0, 1, 2}, Triangle{0, 2, 3}));
}

TEST(StlReader, BinaryCoordinatesAreFloats) {
  // 0.1 is stored as the float 0.100000001490116…; SOFA widens that float to double.
  const Topology mesh = Stl(Binary({{Point{0.1, 0, 0}, Point{1, 0, 0}, Point{0, 1, 0}}}));
  EXPECT_EQ(mesh.points[0][0], static_cast<double>(0.1f));
  EXPECT_NE(mesh.points[0][0], 0.1);
}

TEST(StlReader, MergesOnlyExactlyEqualPointsAndMinusZero) {
  // (0,0,0) and (-0,0,0) are equal numbers: one point; (1e-12,0,0) is another point.
  const Topology mesh =
      Stl("solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
          "endloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex -0 0 0\nvertex 1e-12 0 0\n"
          "vertex 0 1 0\nendloop\nendfacet\nendsolid s\n");
  EXPECT_EQ(mesh.points.size(), 4u);
  EXPECT_THAT(mesh.triangles, ElementsAre(Triangle{0, 1, 2}, Triangle{0, 3, 2}));
}

TEST(StlReader, DegenerateFacetsAreDroppedInBinaryKeptInAscii) {
  // Facet 2 repeats (1,0,0): SOFA's binary reader drops it and counts it; its ASCII reader keeps
  // it. The repeated point is still a point.
  const std::vector<std::array<Point, 3>> facets = {
      {Point{0, 0, 0}, Point{1, 0, 0}, Point{0, 1, 0}},
      {Point{1, 0, 0}, Point{1, 0, 0}, Point{2, 0, 0}}};
  MeshNotes notes;
  const Topology binary = ReadStlMesh(Binary(facets), "m.stl", false, 80, notes);
  EXPECT_EQ(binary.points.size(), 4u);
  EXPECT_THAT(binary.triangles, ElementsAre(Triangle{0, 1, 2}));
  EXPECT_EQ(notes.degenerate_triangles, 1);
  const Topology ascii =
      Stl("solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
          "endloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 1 0 0\nvertex 1 0 0\n"
          "vertex 2 0 0\nendloop\nendfacet\nendsolid s\n");
  EXPECT_THAT(ascii.triangles, ElementsAre(Triangle{0, 1, 2}, Triangle{1, 1, 3}));
}

TEST(StlReader, HeaderSizeAndForceBinary) {
  // A 100-byte header read with headerSize=100.
  const Topology mesh = Stl(Binary(kSquareFacets, 100), false, 100);
  EXPECT_EQ(mesh.points.size(), 4u);
  EXPECT_EQ(mesh.triangles.size(), 2u);
  // A binary file whose header begins with "solid": read as binary (its facets are not ASCII),
  // with or without forceBinary.
  const std::string solid_header = Binary(kSquareFacets, 80, "solid exported by a CAD tool");
  EXPECT_EQ(Stl(solid_header).triangles.size(), 2u);
  EXPECT_EQ(Stl(solid_header, true).triangles.size(), 2u);
  // forceBinary on an ASCII file: its size is not a binary STL's.
  EXPECT_THAT(ErrorOf(kAsciiSquare, true), StartsWith("m.stl: byte 0: the file has"));
}

TEST(StlReader, AsciiEndsAtEndsolid) {
  const Topology mesh = Stl(std::string(kAsciiSquare) + "facet normal 0 0 1\nvertex 9 9 9\n");
  EXPECT_EQ(mesh.points.size(), 4u);
}

TEST(StlReader, MalformedFilesGiveOneLine) {
  const std::string head = "solid s\nfacet normal 0 0 1\nouter loop\n";
  EXPECT_EQ(ErrorOf(head + "vertex 0 0\n"), "m.stl:4: 'vertex' with 2 numbers (expected x y z)");
  EXPECT_THAT(ErrorOf(head + "vertex 0 nan 0\n"), StartsWith("m.stl:4: y 'nan' is"));
  EXPECT_EQ(ErrorOf(head + "vertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\n"),
            "m.stl:7: 'endfacet' after 2 vertices (expected 3 per facet)");
  EXPECT_EQ(ErrorOf(head + "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nvertex 1 1 0\n"),
            "m.stl:7: a fourth vertex in a facet (expected 3 per facet)");
  EXPECT_EQ(ErrorOf("solid s\nvertex 0 0 0\n"),
            "m.stl:2: 'vertex' outside a facet (expected 'facet normal …' first)");
  EXPECT_EQ(ErrorOf(head + "vertex 0 0 0\n"),
            "m.stl:4: the file ends inside a facet (expected 'endfacet')");
  // Binary: size and count disagree; too short for a header; a NaN coordinate.
  std::string truncated = Binary(kSquareFacets);
  truncated.pop_back();
  EXPECT_EQ(ErrorOf(truncated),
            "m.stl: byte 0: the file has 183 bytes (expected 184 for the 2 facets a binary STL "
            "with a 80-byte header declares)");
  EXPECT_THAT(ErrorOf("tiny"), StartsWith("m.stl: byte 0: the file has 4 bytes"));
  const std::string nan = Binary(
      {{Point{0, 0, 0}, Point{std::numeric_limits<double>::quiet_NaN(), 0, 0}, Point{0, 1, 0}}});
  // Facet 0 starts at byte 84; its second vertex's x at 84 + 12 + 12 = 108.
  EXPECT_EQ(ErrorOf(nan),
            "m.stl: byte 108: facet 0 has a coordinate that is not finite (expected a finite "
            "32-bit float)");
}

}  // namespace
}  // namespace fluxion::internal
