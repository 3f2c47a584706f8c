// The VTK XML reader (framework/src/meshio/vtk_xml_reader.cpp) on small .vtu and .vtp files
// written here: one mesh of eight points and seven cells, in ascii, in uncompressed base64 and in
// zlib-compressed base64 (big-endian, UInt64 headers). The base64 texts were made independently
// of Fluxion, with Python's struct, base64 and zlib modules, laid out as VTK writes them (the
// header and the data as two base64 runs; zlib blocks of 64 bytes). Expected elements are those
// SOFA's MeshVTKLoader keeps, written down by hand from the connectivity.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "meshio/mesh_readers.h"
#include "support/vtk_zlib_bomb.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Point = std::array<double, 3>;

std::string ErrorOf(const std::string& text, const MeshBudget& budget = {}) {
  try {
    MeshNotes notes;
    ReadVtkMesh(text, "m.vtu", notes, budget);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

// A .vtu file around the DataArrays of the cube mesh: `points`, `connectivity`, `offsets` and
// `types` are the arrays' elements, attributes and text.
std::string Grid(const std::string& file_attributes, const std::string& points,
                 const std::string& cells) {
  return R"(<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="0.1" )" +
         file_attributes + R"(>
  <UnstructuredGrid>
    <Piece NumberOfPoints="8" NumberOfCells="7">
      <PointData><DataArray type="Float32" Name="t" format="appended" offset="0"/></PointData>
      <Points>
        )" +
         points + R"(
      </Points>
      <Cells>
)" + cells +
         R"(
      </Cells>
    </Piece>
  </UnstructuredGrid>
</VTKFile>
)";
}

// The cube's corners in VTK's voxel order, and seven cells: a voxel, a tetrahedron, a triangle,
// a quad, a line, a vertex and a pentagon, whose offsets are 8 12 15 19 21 22 27.
const std::string kAsciiPoints = R"(<DataArray type="Float32" NumberOfComponents="3" format="ascii">
          0 0 0  1 0 0  0 1 0  1 1 0
          0 0 1  1 0 1  0 1 1  1 1 1
        </DataArray>)";
const std::string kAsciiCells =
    R"(        <DataArray type="Int32" Name="connectivity" format="ascii">
          0 1 2 3 4 5 6 7  0 1 2 4  1 3 5  0 1 3 2  0 7  6  0 1 5 7 6
        </DataArray>
        <DataArray type="Int32" Name="offsets" format="ascii">8 12 15 19 21 22 27</DataArray>
        <DataArray type="UInt8" Name="types" format="ascii">11 10 5 9 3 1 7</DataArray>)";

void ExpectCube(const Topology& mesh, const MeshNotes& notes) {
  EXPECT_THAT(mesh.points,
              ElementsAre(Point{0, 0, 0}, Point{1, 0, 0}, Point{0, 1, 0}, Point{1, 1, 0},
                          Point{0, 0, 1}, Point{1, 0, 1}, Point{0, 1, 1}, Point{1, 1, 1}));
  // The voxel 0…7 becomes the hexahedron 0 1 3 2 4 5 7 6 (VTK's voxel order to SOFA's).
  EXPECT_THAT(mesh.hexahedra, ElementsAre(std::array<Index, 8>{0, 1, 3, 2, 4, 5, 7, 6}));
  EXPECT_THAT(mesh.tetrahedra, ElementsAre(std::array<Index, 4>{0, 1, 2, 4}));
  EXPECT_THAT(mesh.quads, ElementsAre(std::array<Index, 4>{0, 1, 3, 2}));
  EXPECT_THAT(mesh.edges, ElementsAre(std::array<Index, 2>{0, 7}));
  // The triangle, then the pentagon 0 1 5 7 6 as the fan (0 1 5) (0 5 7) (0 7 6).
  EXPECT_THAT(mesh.triangles,
              ElementsAre(std::array<Index, 3>{1, 3, 5}, std::array<Index, 3>{0, 1, 5},
                          std::array<Index, 3>{0, 5, 7}, std::array<Index, 3>{0, 7, 6}));
  EXPECT_EQ(notes.skipped_elements, 1);  // the vertex (type 1)
}

TEST(VtkXmlReader, AsciiUnstructuredGrid) {
  MeshNotes notes;
  const Topology mesh =
      ReadVtkMesh(Grid(R"(byte_order="BigEndian")", kAsciiPoints, kAsciiCells), "m.vtu", notes, {});
  ExpectCube(mesh, notes);
}

TEST(VtkXmlReader, Base64LittleEndianUInt32Headers) {
  // Float32 points, Int64 connectivity, Int32 offsets, UInt8 types (written "uint8": SOFA reads
  // type names in any case).
  const std::string points =
      R"(<DataArray type="Float32" NumberOfComponents="3" format="binary">
YAAAAA==AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAAAAAAAAAAAAIA/AACAPwAAAAAAAIA/AAAAAAAAgD8AAIA/AACAPwAAgD8AAIA/
        </DataArray>)";
  const std::string cells = R"(<DataArray type="Int64" Name="connectivity" format="binary">
2AAAAA==AAAAAAAAAAABAAAAAAAAAAIAAAAAAAAAAwAAAAAAAAAEAAAAAAAAAAUAAAAAAAAABgAAAAAAAAAHAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAACAAAAAAAAAAQAAAAAAAAAAQAAAAAAAAADAAAAAAAAAAUAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAMAAAAAAAAAAgAAAAAAAAAAAAAAAAAAAAcAAAAAAAAABgAAAAAAAAAAAAAAAAAAAAEAAAAAAAAABQAAAAAAAAAHAAAAAAAAAAYAAAAAAAAA
</DataArray>
<DataArray type="Int32" Name="offsets" format="binary">HAAAAA==CAAAAAwAAAAPAAAAEwAAABUAAAAWAAAAGwAAAA==</DataArray>
<DataArray type="uint8" Name="types" format="binary">BwAAAA==CwoFCQMBBw==</DataArray>)";
  MeshNotes notes;
  ExpectCube(ReadVtkMesh(Grid(R"(byte_order="LittleEndian")", points, cells), "m.vtu", notes, {}),
             notes);
}

// zlib blocks of 64 bytes: the 192 bytes of Float64 points are 3 full blocks, the 216 bytes of
// Int64 connectivity 3 full blocks and one of 24.
const std::string kZlibPoints =
    R"(<DataArray type="Float64" NumberOfComponents="3" format="binary">AAAAAAAAAAMAAAAAAAAAQAAAAAAAAAAAAAAAAAAAABIAAAAAAAAAEwAAAAAAAAAUeJxjYMAO7D/gkECTBwA3MAJfeJxjYIAA+w+oNC6Arg4AlAAEvXicY2CAAPsPDCgAxidEAwDK8Acb</DataArray>)";
const std::string kZlibCells =
    R"(<DataArray type="Int64" Name="connectivity" format="binary">AAAAAAAAAAQAAAAAAAAAQAAAAAAAAAAYAAAAAAAAABwAAAAAAAAAGQAAAAAAAAAcAAAAAAAAABI=eJxjYEABjFCaCUozQ2kWKM0KpdmgNDsAAhwAHXicY2BAAYxQmglKs6CJM0NpVpgGAAHAABF4nGNgAANGCMXADKWZGFABO5RmQxNnBAACdAAVeJxjYAADVgjFwA6l2QAAsgAT</DataArray>
<DataArray type="Int32" Name="offsets" format="binary">AAAAAAAAAAEAAAAAAAAAQAAAAAAAAAAcAAAAAAAAABw=eJxjYGDgYGBg4AFifiAWBmJRIBYDYmkABRwAfQ==</DataArray>
<DataArray type="UInt8" Name="types" format="binary">AAAAAAAAAAEAAAAAAAAAQAAAAAAAAAAHAAAAAAAAAA8=eJzj5mLlZGZkBwAA3wAv</DataArray>)";
const std::string kZlibAttributes =
    R"(byte_order="BigEndian" header_type="UInt64" compressor="vtkZLibDataCompressor")";

TEST(VtkXmlReader, ZlibBigEndianUInt64Headers) {
  MeshNotes notes;
  ExpectCube(ReadVtkMesh(Grid(kZlibAttributes, kZlibPoints, kZlibCells), "m.vtu", notes, {}),
             notes);
}

TEST(VtkXmlReader, PolyDataAsSofaTypesItsPolygons) {
  // Polygons of 3, 4, 2 and 5 vertices: a triangle, a quad, an edge, and a SOFA polyline
  // (skipped), plus the one vertex and one line of Verts and Lines (skipped too).
  MeshNotes notes;
  const Topology mesh = ReadVtkMesh(R"(<VTKFile type="PolyData" byte_order="LittleEndian">
<PolyData>
<Piece NumberOfPoints="5" NumberOfVerts="1" NumberOfLines="1" NumberOfPolys="4">
<Points><DataArray type="Float64" NumberOfComponents="3" format="ascii">
0 0 0 1 0 0 1 1 0 0 1 0 0.5 2.25 -1e-3</DataArray></Points>
<Verts>
<DataArray type="Int32" Name="connectivity" format="ascii">4</DataArray>
<DataArray type="Int32" Name="offsets" format="ascii">1</DataArray>
</Verts>
<Lines>
<DataArray type="Int32" Name="connectivity" format="ascii">0 4</DataArray>
<DataArray type="Int32" Name="offsets" format="ascii">2</DataArray>
</Lines>
<Polys>
<DataArray type="Int32" Name="connectivity" format="ascii">0 1 2  0 1 2 3  3 4  0 1 2 3 4</DataArray>
<DataArray type="Int32" Name="offsets" format="ascii">3 7 9 14</DataArray>
</Polys>
</Piece>
</PolyData>
</VTKFile>)",
                                    "m.vtp", notes, {});
  EXPECT_THAT(mesh.points, ElementsAre(Point{0, 0, 0}, Point{1, 0, 0}, Point{1, 1, 0},
                                       Point{0, 1, 0}, Point{0.5, 2.25, -1e-3}));
  EXPECT_THAT(mesh.triangles, ElementsAre(std::array<Index, 3>{0, 1, 2}));
  EXPECT_THAT(mesh.quads, ElementsAre(std::array<Index, 4>{0, 1, 2, 3}));
  EXPECT_THAT(mesh.edges, ElementsAre(std::array<Index, 2>{3, 4}));
  EXPECT_EQ(notes.skipped_elements, 3);
}

TEST(VtkXmlReader, MalformedFilesGiveOneLineWithTheirLine) {
  // Not XML: tinyxml2's line, that of the element the wrong end tag (line 3) should close.
  EXPECT_THAT(ErrorOf("<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\">\n</PolyData>\n"),
              HasSubstr("m.vtu:2: the XML is malformed"));
  EXPECT_THAT(ErrorOf("<VTKFile type=\"ImageData\"><ImageData/></VTKFile>"),
              HasSubstr("m.vtu:1: a VTK XML dataset of type 'ImageData' (expected "
                        "UnstructuredGrid or PolyData"));
  // A bad number names its own line: the 2nd line of the points' text, the file's 9th.
  std::string points = kAsciiPoints;
  points.replace(points.find("1 1 1"), 5, "1 x 1");
  EXPECT_THAT(ErrorOf(Grid("", points, kAsciiCells)), HasSubstr("m.vtu:9: coordinate 'x' is"));
  // Counts that do not match the arrays.
  std::string lying = Grid("", kAsciiPoints, kAsciiCells);
  lying.replace(lying.find("NumberOfPoints=\"8\""), 18, "NumberOfPoints=\"4000000000\"");
  EXPECT_THAT(ErrorOf(lying), HasSubstr("m.vtu:7: DataArray 'points' should hold 12000000000 "
                                        "values by the counts, more than a 860-byte file can "
                                        "hold"));
  std::string fewer = Grid("", kAsciiPoints, kAsciiCells);
  fewer.replace(fewer.find("NumberOfPoints=\"8\""), 18, "NumberOfPoints=\"9\"");
  EXPECT_THAT(ErrorOf(fewer),
              HasSubstr("m.vtu:7: DataArray 'points' holds 24 values (expected 27, as its counts "
                        "declare)"));
  std::string offsets = kAsciiCells;
  offsets.replace(offsets.find("22 27"), 5, "22 26");
  EXPECT_THAT(ErrorOf(Grid("", kAsciiPoints, offsets)),
              HasSubstr("m.vtu:14: DataArray 'connectivity' holds more than the 26 values its "
                        "counts declare"));
  std::string vertex = kAsciiCells;
  vertex.replace(vertex.find("0 7  6"), 6, "0 8  6");
  EXPECT_THAT(ErrorOf(Grid("", kAsciiPoints, vertex)),
              HasSubstr("cell 4: cell vertex 8 does not exist (the file has 8 points)"));
  // What is not read is refused.
  std::string appended = kAsciiPoints;
  appended.replace(appended.find("ascii"), 5, "appended");
  EXPECT_THAT(ErrorOf(Grid("", appended, kAsciiCells)),
              HasSubstr("a DataArray in appended format (expected ascii or binary"));
  EXPECT_THAT(ErrorOf(Grid(R"(compressor="vtkLZ4DataCompressor")", kZlibPoints, kZlibCells)),
              HasSubstr("m.vtu:2: compressor 'vtkLZ4DataCompressor'"));
}

TEST(VtkXmlReader, LyingBinaryHeadersFailBeforeAnyAllocation) {
  // An uncompressed array whose UInt32 byte count (0xFFFFFFF0) exceeds its 4 data bytes.
  const std::string cells_tail = R"(
<DataArray type="Int32" Name="offsets" format="ascii">8 12 15 19 21 22 27</DataArray>
<DataArray type="UInt8" Name="types" format="ascii">11 10 5 9 3 1 7</DataArray>)";
  EXPECT_THAT(ErrorOf(Grid("", kAsciiPoints,
                           R"(<DataArray type="Int32" Name="connectivity" format="binary">)"
                           "8P///w==AAAAAA==</DataArray>" +
                               cells_tail)),
              HasSubstr("declares 4294967280 bytes (expected 108: 27 values of 4 bytes"));
  // A zlib header claiming one block of 2^40 bytes from 16 compressed bytes.
  EXPECT_THAT(ErrorOf(Grid(kZlibAttributes, kZlibPoints,
                           R"(<DataArray type="Int32" Name="connectivity" format="binary">)"
                           "AAAAAAAAAAEAAAEAAAAAAAAAAAAAAAAAAAAAAAAAABA=AAAAAAAAAAAAAAAAAAAAAA=="
                           "</DataArray>" +
                               cells_tail)),
              HasSubstr("block claims 1099511627776 bytes from 16 (more than zlib can produce)"));
  // Base64 that is not.
  EXPECT_THAT(ErrorOf(Grid("", kAsciiPoints,
                           R"(<DataArray type="Int32" Name="connectivity" format="binary">)"
                           "AA*A</DataArray>" +
                               cells_tail)),
              HasSubstr("holds '*' (expected base64 text)"));
}

// Issue 25, item 2: a zlib bomb — 1,228,800 points at the origin, 29 MB of coordinates in a
// 190 KB file — is refused from its declared point count before anything is inflated, and a
// declared size other than the counts' is refused before its blocks are inflated.
TEST(VtkXmlReader, ZlibBombIsRefusedBeforeItIsInflated) {
  const std::string bomb = testing::ZlibBombVtu(4096 * 300);
  ASSERT_LT(bomb.size(), 200'000U);
  const MeshBudget budget{.max_points = 1000, .text = "at most 1000 points in the whole scene"};
  EXPECT_THAT(ErrorOf(bomb, budget),
              HasSubstr("m.vtu:2: NumberOfPoints=1228800 is more than the memory budget allows "
                        "(expected at most 1000 points in the whole scene)"));
  // Within the budget it loads, inflated a chunk at a time.
  MeshNotes notes;
  EXPECT_EQ(ReadVtkMesh(bomb, "m.vtu", notes, {}).points.size(), 4096U * 300);
  // The same blocks under a count of 8 points: 29 MB declared for the 192 bytes expected.
  std::string lying = bomb;
  lying.replace(lying.find("NumberOfPoints=\"1228800\""), 24, "NumberOfPoints=\"8\"");
  EXPECT_THAT(ErrorOf(lying), HasSubstr("m.vtu:3: a binary DataArray declares 29491200 bytes "
                                        "(expected 192: 24 values of 8 bytes"));
}

// Every array's size comes from the counts before it is decoded, and all of them together are
// charged to the budget: offsets declaring a connectivity of a million values under a budget of
// 8 points (512 values) fail before the connectivity is read.
TEST(VtkXmlReader, ArraysAreChargedToTheBudgetBeforeTheyAreDecoded) {
  const MeshBudget eight{.max_points = 8, .text = "at most 8 points in the whole scene"};
  EXPECT_THAT(ErrorOf(Grid("", kAsciiPoints, kAsciiCells), eight), HasSubstr("no error"));
  std::string offsets = kAsciiCells;
  offsets.replace(offsets.find("22 27"), 5, "22 1000000");
  EXPECT_THAT(ErrorOf(Grid("", kAsciiPoints, offsets), eight),
              HasSubstr("m.vtu:13: DataArray 'connectivity' should hold 1000000 values by the "
                        "counts, more than the memory budget leaves (expected at most 64 values "
                        "per point, at most 8 points in the whole scene)"));
}

// Issue 25, item 21: skipped Verts, Lines and Strips are counted from the offsets the file holds;
// a count declared without its cells is an error, not a warning about 3·10¹² elements.
TEST(VtkXmlReader, SkippedCellsAreCountedFromTheirData) {
  const std::string declared_only = R"(<VTKFile type="PolyData">
<PolyData>
<Piece NumberOfPoints="0" NumberOfVerts="3298534883329">
</Piece>
</PolyData>
</VTKFile>)";
  EXPECT_THAT(ErrorOf(declared_only),
              HasSubstr("m.vtu:3: no <Verts> for NumberOfVerts=3298534883329 (expected a "
                        "<Verts> element)"));
  const std::string empty_verts = R"(<VTKFile type="PolyData">
<PolyData>
<Piece NumberOfPoints="0" NumberOfVerts="3298534883329">
<Verts>
<DataArray type="Int32" Name="connectivity" format="ascii"></DataArray>
<DataArray type="Int32" Name="offsets" format="ascii"></DataArray>
</Verts>
</Piece>
</PolyData>
</VTKFile>)";
  EXPECT_THAT(
      ErrorOf(empty_verts),
      HasSubstr("m.vtu:6: DataArray 'offsets' should hold 3298534883329 values by the counts, "
                "more than a 281-byte file can hold"));
}

}  // namespace
}  // namespace fluxion::internal
