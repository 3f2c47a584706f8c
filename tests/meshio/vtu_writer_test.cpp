// The VTK XML writer (framework/src/meshio/vtu_writer.h): the ascii layout written out by hand
// from VTK's file-format description, and the compressed binary form read back by the VTK XML
// reader of meshio/ (written and tested against files VTK itself wrote) to the numbers put in.
// tests/tools/vtk_output_test.py reads scene-runner's files with meshio, an outside reader.
#include <gmock/gmock.h>

#include "meshio/mesh_readers.h"
#include "meshio/vtu_writer.h"

namespace fluxion::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Two points joined by a line, with a velocity per point and a length per cell.
const VtuCells kOneLine(VtkCells{.cells = {{0, 1}}, .types = {kVtkLine}});
VtuPiece TwoPoints() {
  VtuPiece piece;
  piece.points = {0, 0, 0, 1, 0.5, -2};
  piece.point_data.push_back({"velocity", 3, {0, -1, 0, 0.25, 0, 0}});
  piece.cell_data.push_back({"elongation", 1, {0.125}});
  return piece;
}

TEST(VtuWriter, AsciiLayout) {
  EXPECT_EQ(FormatVtu(TwoPoints(), kOneLine, VtuEncoding::kAscii),
            "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
            "header_type=\"UInt64\">\n"
            "  <UnstructuredGrid>\n"
            "    <Piece NumberOfPoints=\"2\" NumberOfCells=\"1\">\n"
            "      <PointData>\n"
            "        <DataArray type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\" "
            "format=\"ascii\">\n"
            "          0 -1 0 0.25 0 0\n"
            "        </DataArray>\n"
            "      </PointData>\n"
            "      <CellData>\n"
            "        <DataArray type=\"Float64\" Name=\"elongation\" format=\"ascii\">\n"
            "          0.125\n"
            "        </DataArray>\n"
            "      </CellData>\n"
            "      <Points>\n"
            "        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n"
            "          0 0 0 1 0.5 -2\n"
            "        </DataArray>\n"
            "      </Points>\n"
            "      <Cells>\n"
            "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n"
            "          0 1\n"
            "        </DataArray>\n"
            "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n"
            "          2\n"
            "        </DataArray>\n"
            "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n"
            "          3\n"
            "        </DataArray>\n"
            "      </Cells>\n"
            "    </Piece>\n"
            "  </UnstructuredGrid>\n"
            "</VTKFile>\n");
}

TEST(VtuWriter, CompressedBinaryReadsBack) {
  const std::string text = FormatVtu(TwoPoints(), kOneLine, VtuEncoding::kZlibBinary);
  EXPECT_THAT(text, HasSubstr("compressor=\"vtkZLibDataCompressor\""));
  EXPECT_THAT(text, Not(HasSubstr("format=\"ascii\"")));
  MeshNotes notes;
  const Topology mesh = ReadVtkXmlMesh(text, "two.vtu", notes, {});
  ASSERT_EQ(mesh.points.size(), 2U);
  EXPECT_EQ(mesh.points[1], (std::array<double, 3>{1, 0.5, -2}));
  ASSERT_EQ(mesh.edges.size(), 1U);
  EXPECT_EQ(mesh.edges[0], (std::array<Index, 2>{0, 1}));
}

TEST(VtuWriter, ManyBlocksReadBack) {
  // 3000 points: 72,000 bytes of coordinates, three zlib blocks of 32 KiB at most; 2999 lines.
  VtuPiece piece;
  VtkCells lines;
  for (int i = 0; i < 3000; ++i) {
    piece.points.insert(piece.points.end(), {0.5 * i, -1.0 * i, 0.25});
    if (i > 0) {
      lines.cells.push_back({i - 1, i});
      lines.types.push_back(kVtkLine);
    }
  }
  MeshNotes notes;
  const Topology mesh = ReadVtkXmlMesh(FormatVtu(piece, VtuCells(lines), VtuEncoding::kZlibBinary),
                                       "many.vtu", notes, {});
  ASSERT_EQ(mesh.points.size(), 3000U);
  EXPECT_EQ(mesh.points[2999], (std::array<double, 3>{1499.5, -2999, 0.25}));
  EXPECT_EQ(mesh.points[1366], (std::array<double, 3>{683, -1366, 0.25}));  // second block
  ASSERT_EQ(mesh.edges.size(), 2999U);
  EXPECT_EQ(mesh.edges[2998], (std::array<Index, 2>{2998, 2999}));
}

TEST(VtuWriter, CollectionLinesEscapeNamesAndFiles) {
  EXPECT_EQ(PvdHeader() + PvdDataSet(0.5, 1, "root/a&b", "x\"y.vtu") + PvdFooter(),
            "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
            "  <Collection>\n"
            "    <DataSet timestep=\"0.5\" group=\"\" part=\"1\" name=\"root/a&amp;b\" "
            "file=\"x&quot;y.vtu\"/>\n"
            "  </Collection>\n"
            "</VTKFile>\n");
}

}  // namespace
}  // namespace fluxion::internal
