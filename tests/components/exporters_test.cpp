// SOFA's exporters as Fluxion observers (components/vtk_exporter.h, mesh_exporter.h,
// stl_exporter.h, blender_exporter.h): files read back and compared exactly with what SOFA's
// writers lay out (VTKExporter.cpp, MeshExporter.cpp, STLExporter.cpp, BlenderExporter.inl),
// for states known by hand.
//
// The moving scene: three points of unit mass fall from rest under g = (0, -2, 0) with dt = 0.5
// under EulerExplicitSolver (symplectic Euler: v ← v + h·g, x ← x + h·v). Every number is a
// short binary fraction, so the hand recursion is exact:
//   step 1: v_y = -1, y -= 0.5;   step 2: v_y = -2, y -= 1;   step 3: v_y = -3, y -= 1.5.
#include <gmock/gmock.h>

#include <cstdint>
#include <cstring>

#include "fluxion/errors.h"
#include "output_folder.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

std::string FallingScene(const std::string& exporter) {
  return R"(<Node name="root" dt="0.5" gravity="0 -2 0">
  <EulerExplicitSolver/>
  <MeshTopology name="mesh" position="0 0 0  1 0 0  0 1 0" edges="0 1" triangles="0 1 2"/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="1"/>
  )" + exporter +
         R"(
</Node>)";
}

// The XML layout of SOFA's VTKExporter::writeVTKXML for the falling scene's mesh (one edge,
// one triangle), with the points' velocities as point data.
std::string ExpectedVtu(const std::string& points, const std::string& velocities) {
  return "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"BigEndian\">\n"
         "  <UnstructuredGrid>\n"
         "    <Piece NumberOfPoints=\"3\" NumberOfCells=\"2\">\n"
         "      <PointData>\n"
         "        <DataArray type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\" "
         "format=\"ascii\">\n" +
         velocities +
         "        </DataArray>\n"
         "      </PointData>\n"
         "      <Points>\n"
         "        <DataArray type=\"Float32\" NumberOfComponents=\"3\" format=\"ascii\">\n" +
         points +
         "        </DataArray>\n"
         "      </Points>\n"
         "      <Cells>\n"
         "        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n"
         "          0 1\n"
         "          0 1 2\n"
         "        </DataArray>\n"
         "        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n"
         "          2 5 \n"
         "        </DataArray>\n"
         "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n"
         "          3 5 \n"
         "        </DataArray>\n"
         "      </Cells>\n"
         "    </Piece>\n"
         "  </UnstructuredGrid>\n"
         "</VTKFile>\n";
}

class Exporters : public testing::OutputFolderTest {};

TEST_F(Exporters, VtkExporterWritesXmlAtBeginEveryNStepsAndAtEnd) {
  Simulation simulation = LoadScene(FallingScene(
      R"(<VTKExporter filename="out" exportAtBegin="1" exportEveryNumberOfSteps="2"
         exportAtEnd="1" edges="1" triangles="1" pointsDataFields="dofs.velocity"/>)"));
  simulation.Run(3);
  simulation.Finish();
  // SOFA numbers the files it wrote: begin (t = 0), after step 2, at the end (after step 3).
  EXPECT_THAT(Files(), ElementsAre("out0.vtu", "out1.vtu", "out2.vtu"));
  EXPECT_EQ(Read("out0.vtu"), ExpectedVtu("\t0 0 0\n\t1 0 0\n\t0 1 0\n", "0 0 0\n0 0 0\n0 0 0\n"));
  EXPECT_EQ(Read("out1.vtu"),
            ExpectedVtu("\t0 -1.5 0\n\t1 -1.5 0\n\t0 -0.5 0\n", "0 -2 0\n0 -2 0\n0 -2 0\n"));
  EXPECT_EQ(Read("out2.vtu"),
            ExpectedVtu("\t0 -3 0\n\t1 -3 0\n\t0 -2 0\n", "0 -3 0\n0 -3 0\n0 -3 0\n"));
}

TEST_F(Exporters, VtkExporterWritesLegacyFilesWithSofasNames) {
  Simulation simulation = LoadScene(FallingScene(
      R"(<VTKExporter filename="legacy.vtk" XMLformat="0" exportEveryNumberOfSteps="1"
         triangles="1" edges="0" pointsDataFields="F=dofs.force"/>)"));
  simulation.Step();
  // SOFA's writeVTKSimple: "<base>_<n><ext>"; the total force is m·g on each point.
  EXPECT_THAT(Files(), ElementsAre("legacy_0.vtk"));
  EXPECT_EQ(Read("legacy_0.vtk"),
            "# vtk DataFile Version 2.0\nExported VTK file\nASCII\n\n"
            "DATASET UNSTRUCTURED_GRID\nPOINTS 3 float\n0 -0.5 0\n1 -0.5 0\n0 0.5 0\n\n"
            "CELLS 1 4\n3 0 1 2\n\nCELL_TYPES 1\n5\n\n"
            "POINT_DATA 3\nVECTORS F double\n0 -2 0\n0 -2 0\n0 -2 0\n\n");
}

TEST_F(Exporters, VtkExporterOverwriteRewritesOneFile) {
  Simulation simulation = LoadScene(FallingScene(
      R"(<VTKExporter filename="same.vtu" overwrite="1" exportEveryNumberOfSteps="1"
         edges="1" triangles="1" pointsDataFields="dofs.velocity"/>)"));
  simulation.Run(2);  // the second export replaces the first, without --overwrite
  EXPECT_THAT(Files(), ElementsAre("same.vtu"));
  EXPECT_EQ(Read("same.vtu"),
            ExpectedVtu("\t0 -1.5 0\n\t1 -1.5 0\n\t0 -0.5 0\n", "0 -2 0\n0 -2 0\n0 -2 0\n"));
}

TEST_F(Exporters, ExportersRunInASceneWithoutSolver) {
  // SOFA animates a scene without ODE solver too: its exporters count steps and write.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5">
  <MeshTopology name="mesh" position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  <MechanicalObject name="dofs"/>
  <VTKExporter filename="still" XMLformat="0" exportEveryNumberOfSteps="2" edges="0" triangles="1"/>
</Node>)");
  simulation.Run(4);
  // SOFA's quirk: a legacy file whose name has no extension gets ".vtu".
  EXPECT_THAT(Files(), ElementsAre("still_0.vtu", "still_1.vtu"));
  EXPECT_EQ(Read("still_1.vtu"),
            "# vtk DataFile Version 2.0\nExported VTK file\nASCII\n\n"
            "DATASET UNSTRUCTURED_GRID\nPOINTS 3 float\n0 0 0\n1 0 0\n0 1 0\n\n"
            "CELLS 1 4\n3 0 1 2\n\nCELL_TYPES 1\n5\n\n");
}

TEST_F(Exporters, MeshExporterWritesSofasLegacyLayoutAndNames) {
  Simulation simulation = LoadScene(FallingScene(
      R"(<MeshExporter filename="mesh_%p_" format="vtk" exportEveryNumberOfSteps="2"
         position="@dofs.position"/>)"));
  simulation.Run(2);
  // %p = 3 points, then the export number on 5 digits (2 steps counted / 2), then ".vtk". The
  // link to the object's position follows the object.
  EXPECT_THAT(Files(), ElementsAre("mesh_3_00001.vtk"));
  EXPECT_EQ(Read("mesh_3_00001.vtk"),
            "# vtk DataFile Version 2.0\nSOFA Exported Mesh file\nASCII\n"
            "DATASET UNSTRUCTURED_GRID\nPOINTS 3 float\n0 -1.5 0\n1 -1.5 0\n0 -0.5 0\n"
            "CELLS 2 7\n2 0 1\n3 0 1 2\nCELL_TYPES 2\n3\n5\n");
}

TEST_F(Exporters, MeshExporterRefusesFormatsItDoesNotWrite) {
  try {
    (void)LoadScene(FallingScene(R"(<MeshExporter filename="m" format="gmsh"/>)"));
    FAIL() << "format gmsh was accepted";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1U);
    EXPECT_EQ(error.diagnostics()[0].line, 6);
    EXPECT_THAT(error.diagnostics()[0].message, HasSubstr("format 'gmsh'"));
    EXPECT_THAT(error.diagnostics()[0].message, HasSubstr("expected format=\"vtk\""));
  }
}

TEST_F(Exporters, StlExporterWritesAsciiAndBinary) {
  Simulation simulation = LoadScene(FallingScene(
      R"(<STLExporter filename="ascii" binaryformat="0" exportAtBegin="1"/>
  <STLExporter name="bin" filename="binary" exportEveryNumberOfSteps="1"/>)"));
  simulation.Step();
  EXPECT_EQ(Read("ascii.stl"),
            "solid Exported from Sofa\nfacet normal 0 0 0\nouter loop\n"
            "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
            "endsolid Exported from Sofa\n");
  // Binary STL: 80-byte header, facet count, then normal and 3 vertices as float32 and a zero
  // attribute count (all values are exact in float).
  const std::string binary = Read("binary00001.stl");
  ASSERT_EQ(binary.size(), 80U + 4U + 50U);
  EXPECT_EQ(binary.substr(0, 18), "Exported from Sofa");
  EXPECT_EQ(binary.substr(18, 62), std::string(62, '\0'));
  std::uint32_t count = 0;
  std::memcpy(&count, binary.data() + 80, 4);
  EXPECT_EQ(count, 1U);
  float values[12];
  std::memcpy(values, binary.data() + 84, sizeof values);
  const float expected[12] = {0, 0, 0, 0, -0.5F, 0, 1, -0.5F, 0, 0, 0.5F, 0};
  for (int k = 0; k < 12; ++k) EXPECT_EQ(values[k], expected[k]) << k;
  EXPECT_EQ(binary.substr(132, 2), std::string(2, '\0'));
}

TEST_F(Exporters, BlenderExporterWritesPointsLastToFirst) {
  Simulation simulation = LoadScene(FallingScene(
      R"(<BlenderExporter filename="cache" exportEveryNumberOfSteps="1" simulationType="2"/>)"));
  simulation.Step();
  const std::string cache = Read("cache00001_00.bphys");
  ASSERT_EQ(cache.size(), 8U + 12U + 3U * 24U);
  EXPECT_EQ(cache.substr(0, 8), "BPHYSICS");
  std::uint32_t header[3];
  std::memcpy(header, cache.data() + 8, sizeof header);
  EXPECT_EQ(header[0], 2U);  // simulationType
  EXPECT_EQ(header[1], 3U);  // points
  EXPECT_EQ(header[2], 6U);  // SOFA's data type
  float values[18];
  std::memcpy(values, cache.data() + 20, sizeof values);
  // Point 2, then 1, then 0: position, velocity.
  const float expected[18] = {0, 0.5F, 0, 0, -1, 0, 1, -0.5F, 0, 0, -1, 0, 0, -0.5F, 0, 0, -1, 0};
  for (int k = 0; k < 18; ++k) EXPECT_EQ(values[k], expected[k]) << k;
}

TEST_F(Exporters, RefusesToReplaceAFileOrLeaveTheOutputFolder) {
  // An existing file is kept: the export is refused at the exporter's line.
  { std::ofstream(folder_ / "out0.vtu") << "precious"; }
  try {
    (void)LoadScene(FallingScene(R"(<VTKExporter filename="out" exportAtBegin="1"/>)"),
                    "exporter.scn");
    FAIL() << "an existing file was replaced";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1U);
    const std::string line = error.diagnostics()[0].Format();
    EXPECT_THAT(line, ::testing::StartsWith("exporter.scn:6: VTKExporter: cannot open 'out0.vtu'"));
    EXPECT_THAT(line, HasSubstr("already exists"));
  }
  EXPECT_EQ(Read("out0.vtu"), "precious");

  // A name leaving the output folder, found at the first export during the run.
  Simulation simulation = LoadScene(
      FallingScene(
          R"(<MeshExporter filename="../escape" format="vtk" exportEveryNumberOfSteps="1"/>)"),
      "exporter.scn");
  try {
    simulation.Step();
    FAIL() << "a file outside the output folder was written";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1U);
    EXPECT_THAT(
        error.diagnostics()[0].Format(),
        ::testing::StartsWith("exporter.scn:6: MeshExporter: cannot open '../escape00001.vtk'"));
    EXPECT_THAT(error.diagnostics()[0].message, HasSubstr("'..'"));
  }
  EXPECT_FALSE(std::filesystem::exists(folder_.parent_path() / "escape00001.vtk"));
}

}  // namespace
}  // namespace fluxion
