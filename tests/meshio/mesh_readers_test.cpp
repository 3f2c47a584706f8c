// The mesh readers (framework/src/meshio/) on small files written here, element by element as
// SOFA's loaders keep them (MeshOBJLoader, MeshGmshLoader, MeshVTKLoader, MeshLoader), and their
// one-line errors.
#include <gmock/gmock.h>

#include <cmath>

#include "fluxion/errors.h"
#include "meshio/loader_transform.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Point = std::array<double, 3>;

Topology Obj(const std::string& text, bool triangulate = false, bool seams = false) {
  MeshNotes notes;
  return ReadObjMesh(text, "m.obj", triangulate, seams, notes);
}

std::string ErrorOf(const std::function<void()>& read) {
  try {
    read();
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

constexpr const char* kSquare = "# a unit square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n";

TEST(ObjReader, QuadsTrianglesEdgesAndFans) {
  const Topology quad = Obj(std::string(kSquare) + "f 1 2 3 4\n");
  EXPECT_THAT(quad.points,
              ElementsAre(Point{0, 0, 0}, Point{1, 0, 0}, Point{1, 1, 0}, Point{0, 1, 0}));
  EXPECT_THAT(quad.quads, ElementsAre(std::array<Index, 4>{0, 1, 2, 3}));
  const Topology split = Obj(std::string(kSquare) + "f 1 2 3 4\n", true);
  EXPECT_TRUE(split.quads.empty());
  EXPECT_THAT(split.triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 2}, std::array<Index, 3>{0, 2, 3}));
  // v/vt/vn forms, negative (relative) numbers, an edge stored smaller index first, a fan.
  const Topology mixed =
      Obj(std::string(kSquare) +
          "vt 0 0\nvn 0 0 1\nf 1/1/1 2//1 3/1\nf -1 -2 -3\nl 4 1\nv 2 2 0\nf 1 2 3 4 5\n");
  EXPECT_THAT(mixed.triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 2}, std::array<Index, 3>{3, 2, 1},
                          std::array<Index, 3>{0, 1, 2}, std::array<Index, 3>{0, 2, 3},
                          std::array<Index, 3>{0, 3, 4}));
  EXPECT_THAT(mixed.edges, ElementsAre(std::array<Index, 2>{0, 3}));
}

TEST(ObjReader, HandleSeamsSplitsVerticesWithSeveralTextureCoordinates) {
  // Vertex 2 (index 1) is used with vt 1 and vt 2: it becomes two vertices; vertex 4 (index 3) is
  // used by no face and vanishes, as in SOFA.
  const Topology mesh =
      Obj(std::string(kSquare) + "vt 0 0\nvt 1 0\nf 1/1 2/1 3/1\nf 2/2 3/1 1/1\n", false, true);
  EXPECT_THAT(mesh.points,
              ElementsAre(Point{0, 0, 0}, Point{1, 0, 0}, Point{1, 0, 0}, Point{1, 1, 0}));
  EXPECT_THAT(mesh.triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 3}, std::array<Index, 3>{2, 3, 0}));
}

TEST(MeshReaders, ControlBytesFromTheFileAreShownEscaped) {
  // The fuzzers' first findings (tests/fuzz/crashes/*_control_bytes_*): file bytes echoed raw.
  MeshNotes notes;
  const std::string obj = ErrorOf([] { Obj("v 0 0 0\nf 1/\x01/1 1 1\n"); });
  const std::string msh =
      ErrorOf([&] { ReadGmshMesh("$NOD\n1\n1 0 0 0\n$END\x1b[2J\n", "m.msh", notes); });
  const std::string vtk =
      ErrorOf([&] { ReadVtkMesh("# vtk\x01\x02 DataFile\n", "m.vtk", notes, {}); });
  for (const std::string& message : {obj, msh, vtk}) {
    for (const char c : message) EXPECT_GE(static_cast<unsigned char>(c), 0x20u) << message;
    EXPECT_THAT(message, HasSubstr("\\x")) << message;
  }
}

TEST(ObjReader, MalformedFilesGiveOneLine) {
  EXPECT_EQ(ErrorOf([] { Obj(std::string(kSquare) + "f 1 2 9\n"); }),
            "m.obj:6: vertex 9 does not exist (the file has 4 vertices)");
  EXPECT_THAT(ErrorOf([] { Obj("v 1 2\n"); }), HasSubstr("m.obj:1: 'v' with 2 numbers"));
  EXPECT_THAT(ErrorOf([] { Obj("v 1 nan 0\n"); }), HasSubstr("m.obj:1: y 'nan'"));
  EXPECT_THAT(ErrorOf([] { Obj(std::string(kSquare) + "f 0 1 2\n"); }),
              HasSubstr("m.obj:6: vertex '0'"));
  EXPECT_THAT(ErrorOf([] { Obj(std::string(kSquare) + "f 1\n"); }),
              HasSubstr("m.obj:6: 'f' with 1 vertex"));
}

Topology Gmsh(const std::string& text, MeshNotes& notes) {
  return ReadGmshMesh(text, "m.msh", notes);
}

TEST(GmshReader, Format2WithTagsGapsAndSkippedPoints) {
  MeshNotes notes;
  const Topology mesh = Gmsh(R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
1
3 1 "body"
$EndPhysicalNames
$Nodes
5
10 0 0 0
20 1 0 0
30 0 1 0
40 0 0 1
50 1 1 1
$EndNodes
$Elements
3
1 15 2 0 1 10
2 4 2 1 1 10 20 30 40
3 2 2 0 5 20 30 50
$EndElements
)",
                             notes);
  EXPECT_EQ(mesh.points.size(), 5u);
  EXPECT_THAT(mesh.points[3], (Point{0, 0, 1}));
  EXPECT_THAT(mesh.tetrahedra, ElementsAre(std::array<Index, 4>{0, 1, 2, 3}));
  EXPECT_THAT(mesh.triangles, ElementsAre(std::array<Index, 3>{1, 2, 4}));
  EXPECT_EQ(notes.skipped_elements, 1);  // the point element
}

TEST(GmshReader, Format4AndSecondOrderTriangles) {
  MeshNotes notes;
  const Topology mesh = Gmsh(R"($MeshFormat
4.1 0 8
$EndMeshFormat
$Nodes
1 6 1 6
2 1 0 6
1
2
3
4
5
6
0 0 0
2 0 0
0 2 0
1 0 0
1 1 0
0 1 0
$EndNodes
$Elements
1 1 1 1
2 1 9 1
1 1 2 3 4 5 6
$EndElements
)",
                             notes);
  EXPECT_THAT(mesh.triangles, ElementsAre(std::array<Index, 3>{0, 1, 2}));
  // SOFA also adds the triangle's corner edges, smaller index first, in the order 01 12 20.
  EXPECT_THAT(mesh.edges, ElementsAre(std::array<Index, 2>{0, 1}, std::array<Index, 2>{1, 2},
                                      std::array<Index, 2>{0, 2}));
}

TEST(GmshReader, MalformedFilesGiveOneLineAndHugeCountsFailFast) {
  MeshNotes notes;
  EXPECT_THAT(ErrorOf([&] { Gmsh("$MeshFormat\n2.2 1 8\n$EndMeshFormat\n", notes); }),
              HasSubstr("m.msh:2: a binary MSH file"));
  EXPECT_THAT(
      ErrorOf([&] { Gmsh("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n99999999999\n", notes); }),
      HasSubstr("m.msh:5: node count 99999999999 is more than the"));
  EXPECT_THAT(
      ErrorOf([&] { Gmsh("$NOD\n1\n1 0 0 0\n$ENDNOD\n$ELM\n1\n1 1 0 0 2 1 7\n$ENDELM\n", notes); }),
      HasSubstr("m.msh:7: node 7 is not defined in $Nodes"));
  // The gmsh fuzzer's second finding (tests/fuzz/crashes/gmsh_huge_format_version.msh): a format
  // version beyond int converted to int (undefined behaviour).
  EXPECT_THAT(ErrorOf([&] { Gmsh("$MeshFormat\n7.7e15 0 8\n", notes); }),
              HasSubstr("m.msh:2: MSH format 7.7e15 (expected 1, 2 or 4"));
  EXPECT_THAT(ErrorOf([&] { Gmsh("hello\n", notes); }),
              HasSubstr("m.msh:1: the file starts with 'hello'"));
}

Topology Vtk(const std::string& text) {
  MeshNotes notes;
  return ReadVtkMesh(text, "m.vtk", notes, {});
}

TEST(VtkReader, UnstructuredGridAndPolydataAsSofaKeepsThem) {
  const Topology grid = Vtk(R"(# vtk DataFile Version 3.0
cells
ASCII
DATASET UNSTRUCTURED_GRID
POINTS 5 float
0 0 0  1 0 0  0 1 0
1 1 0  0 0 1
CELLS 2 10
4 0 1 2 4
4 0 1 2 3
CELL_TYPES 2
10
8
POINT_DATA 5
)");
  EXPECT_THAT(grid.tetrahedra, ElementsAre(std::array<Index, 4>{0, 1, 2, 4}));
  EXPECT_THAT(grid.quads, ElementsAre(std::array<Index, 4>{0, 1, 3, 2}));  // a pixel
  const Topology poly = Vtk(R"(# vtk DataFile Version 3.0
polygons
ASCII
DATASET POLYDATA
POINTS 5 double
0 0 0 1 0 0 1 1 0 0 1 0 2 2 0
POLYGONS 2 11
4 0 1 2 3
5 0 1 2 3 4
)");
  EXPECT_THAT(poly.quads, ElementsAre(std::array<Index, 4>{0, 1, 2, 3}));
  EXPECT_EQ(poly.triangles.size(), 3u);
}

TEST(VtkReader, RefusesWhatItDoesNotRead) {
  // VTK XML goes to the XML reader (vtk_xml_reader_test.cpp), here an unclosed element.
  EXPECT_THAT(ErrorOf([] { Vtk("<?xml version=\"1.0\"?>\n<VTKFile>\n"); }),
              HasSubstr("the XML is malformed"));
  EXPECT_THAT(ErrorOf([] { Vtk("# vtk DataFile Version 3.0\nt\nBINARY\n"); }),
              HasSubstr("m.vtk:3: a BINARY"));
  EXPECT_THAT(ErrorOf([] {
                Vtk("# vtk DataFile Version 3.0\nt\nASCII\nDATASET POLYDATA\nPOINTS 1 float\n0 0 "
                    "0\nPOLYGONS 1 4\n3 0 1 2\n");
              }),
              HasSubstr("m.vtk:8: vertex 1 does not exist"));
}

TEST(LoaderTransform, ScaleThenRotateThenTranslate) {
  Topology mesh;
  mesh.points = {{1, 0, 0}};
  // (1, 0, 0) scaled by 2 → (2, 0, 0), a quarter turn about z → (0, 2, 0), then + (0, 0, 1).
  ApplyLoaderTransform(mesh, {2, 3, 4}, {0, 0, 90}, {0, 0, 1});
  EXPECT_NEAR(mesh.points[0][0], 0.0, 1e-15);
  EXPECT_NEAR(mesh.points[0][1], 2.0, 1e-15);
  EXPECT_EQ(mesh.points[0][2], 1.0);
  mesh.quads = {{0, 1, 2, 3}};
  TriangulateQuads(mesh);
  EXPECT_THAT(mesh.triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 2}, std::array<Index, 3>{0, 2, 3}));
}

}  // namespace
}  // namespace fluxion::internal
