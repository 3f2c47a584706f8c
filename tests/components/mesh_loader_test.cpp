// SOFA's mesh loaders and static topology containers in scenes (components/mesh_loader.cpp,
// components/topology_container.cpp): a loader's mesh reaches a MeshTopology and a
// MechanicalObject through src and data links, transformed as SOFA's MeshLoader does; edges are
// derived as SOFA's MeshTopology derives them; files are found and refused under the input policy.
#include <gmock/gmock.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

class MeshLoading : public testing::QuietTest {
 protected:
  void SetUp() override {
    testing::QuietTest::SetUp();
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    folder_ = fs::path(::testing::TempDir()) /
              ("fluxion_mesh_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(folder_);
    fs::create_directories(folder_ / "mesh");
    // A unit square in z = 0 as two triangles sharing the diagonal 0–2.
    Write("mesh/square.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n");
    // One tetrahedron.
    Write("mesh/tet.msh",
          "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
          "$EndNodes\n$Elements\n1\n1 4 2 0 1 1 2 3 4\n$EndElements\n");
  }
  void TearDown() override {
    testing::QuietTest::TearDown();
    if (!HasFailure()) fs::remove_all(folder_);
  }
  void Write(const std::string& relative, const std::string& text) {
    std::ofstream(folder_ / relative) << text;
  }
  Simulation Load(const std::string& body) {
    std::ofstream(folder_ / "scene.scn") << R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + body + "\n</Node>\n";
    return testing::TestHost().LoadFile((folder_ / "scene.scn").string());
  }
  std::vector<std::string> Errors(const std::string& body) {
    try {
      Load(body);
    } catch (const SceneError& error) {
      std::vector<std::string> messages;
      for (const SceneDiagnostic& d : error.diagnostics()) messages.push_back(d.Format());
      return messages;
    }
    return {};
  }
  fs::path folder_;
};

std::vector<double> Values(const Vector& v) { return {v.data(), v.data() + v.size()}; }

TEST_F(MeshLoading, ObjThroughSrcIntoATopologyAndAnObject) {
  const Simulation simulation = Load(
      R"(<MeshOBJLoader name="loader" filename="mesh/square.obj" translation="0 0 2" scale="3"/>
  <MeshTopology src="@loader"/>
  <MechanicalObject name="dofs" src="@loader"/>
  <UniformMass vertexMass="1"/>)");
  const ObjectModel& object = simulation.objects().at(0);
  // scale 3 then translation (0, 0, 2).
  EXPECT_THAT(Values(object.position), ElementsAre(0, 0, 2, 3, 0, 2, 3, 3, 2, 0, 3, 2));
  ASSERT_NE(object.topology, nullptr);
  EXPECT_EQ(object.topology->triangles.size(), 2u);
  // SOFA's MeshTopology derives the edges (v_{j+1}, v_{j+2}) of each triangle, each edge once:
  // from (0 1 2): 1–2, 2–0, 0–1; from (0 2 3): 2–3, 3–0 (0–2 is already there).
  EXPECT_THAT(object.topology->edges,
              ElementsAre(std::array<Index, 2>{1, 2}, std::array<Index, 2>{2, 0},
                          std::array<Index, 2>{0, 1}, std::array<Index, 2>{2, 3},
                          std::array<Index, 2>{3, 0}));
}

// flipNormals, as SOFA's MeshLoader::addTriangle/addQuad: each element of the file reversed.
// With triangulate, SOFA's OBJ reader splits a quad face itself as a fan, (n0 n1 n2) and
// (n0 n2 n3), each reversed as it is added: (2 1 0) and (3 2 0); other loaders keep the quad
// (reversed: (3 2 1 0)) and MeshLoader::updateElements splits that into (3 2 1) and (3 1 0),
// reversed again as added: (1 2 3) and (0 1 3). Worked by hand from the files below.
TEST_F(MeshLoading, FlipNormalsReversesEachTriangleAndQuadAsSofa) {
  Write("mesh/mixed.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nf 2 5 3\nf 1 2 3 4\n");
  Write("mesh/quad.msh",
        "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n"
        "$EndNodes\n$Elements\n1\n1 3 2 0 1 1 2 3 4\n$EndElements\n");
  const auto topology = [&](const std::string& loader) {
    const Simulation simulation = Load(loader + R"(
  <MeshTopology src="@loader"/>
  <MechanicalObject name="dofs" src="@loader"/>
  <UniformMass vertexMass="1"/>)");
    return *simulation.objects().at(0).topology;
  };
  using Triangle = std::array<Index, 3>;
  using Quad = std::array<Index, 4>;
  const std::string obj = R"(<MeshOBJLoader name="loader" filename="mesh/mixed.obj" )";
  const Topology plain = topology(obj + "/>");
  EXPECT_THAT(plain.triangles, ElementsAre(Triangle{1, 4, 2}));
  EXPECT_THAT(plain.quads, ElementsAre(Quad{0, 1, 2, 3}));
  const Topology flipped = topology(obj + R"(flipNormals="1"/>)");
  EXPECT_THAT(flipped.triangles, ElementsAre(Triangle{2, 4, 1}));
  EXPECT_THAT(flipped.quads, ElementsAre(Quad{3, 2, 1, 0}));
  const Topology fan = topology(obj + R"(flipNormals="1" triangulate="1"/>)");
  EXPECT_THAT(fan.triangles, ElementsAre(Triangle{2, 4, 1}, Triangle{2, 1, 0}, Triangle{3, 2, 0}));
  EXPECT_TRUE(fan.quads.empty());
  const Topology split = topology(
      R"(<MeshGmshLoader name="loader" filename="mesh/quad.msh" flipNormals="1" triangulate="1"/>)");
  EXPECT_THAT(split.triangles, ElementsAre(Triangle{1, 2, 3}, Triangle{0, 1, 3}));
  EXPECT_TRUE(split.quads.empty());
}

TEST_F(MeshLoading, ALongerScaleListIsReadAsItsFirstNumberAsSofaReadsIt) {
  // SOFA's PointProjectiveConstraint example writes scale="1 1 0": SOFA reads one number, 1.
  ExpectWarnings(1);  // the other numbers are ignored, with a warning
  const Simulation simulation = Load(
      R"(<MeshOBJLoader name="loader" filename="mesh/square.obj" translation="0 0 2" scale="3 3 0"/>
  <MeshTopology src="@loader"/>
  <MechanicalObject name="dofs" src="@loader"/>
  <UniformMass vertexMass="1"/>)");
  EXPECT_THAT(Values(simulation.objects().at(0).position),
              ElementsAre(0, 0, 2, 3, 0, 2, 3, 3, 2, 0, 3, 2));
}

TEST_F(MeshLoading, GmshThroughDataLinksIntoATetrahedronContainer) {
  const Simulation simulation =
      Load(R"(<MeshGmshLoader name="loader" filename="mesh/tet.msh" rotation="0 0 90"/>
  <TetrahedronSetTopologyContainer name="Container" position="@loader.position" tetrahedra="@loader.tetrahedra"/>
  <TetrahedronSetTopologyModifier/>
  <TetrahedronSetGeometryAlgorithms template="Vec3d"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>)");
  const ObjectModel& object = simulation.objects().at(0);
  ASSERT_EQ(object.num_points, 4);
  // A quarter turn about z takes (1, 0, 0) to (0, 1, 0).
  EXPECT_NEAR(object.position[3], 0.0, 1e-15);
  EXPECT_NEAR(object.position[4], 1.0, 1e-15);
  // SOFA's tetrahedron edge order: 01 02 03 12 13 23.
  EXPECT_EQ(object.topology->edges.size(), 6u);
  EXPECT_THAT(object.topology->edges[3], (std::array<Index, 2>{1, 2}));
}

TEST_F(MeshLoading, VtkXmlThroughSrcIntoATetrahedronContainer) {
  // One tetrahedron in a .vtu file (VTK XML, ascii), translated by MeshLoader's translation.
  Write("mesh/tet.vtu", R"(<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" byte_order="LittleEndian">
<UnstructuredGrid><Piece NumberOfPoints="4" NumberOfCells="1">
<Points><DataArray type="Float32" NumberOfComponents="3" format="ascii">
0 0 0  1 0 0  0 1 0  0 0 1</DataArray></Points>
<Cells>
<DataArray type="Int32" Name="connectivity" format="ascii">0 1 2 3</DataArray>
<DataArray type="Int32" Name="offsets" format="ascii">4</DataArray>
<DataArray type="UInt8" Name="types" format="ascii">10</DataArray>
</Cells></Piece></UnstructuredGrid></VTKFile>
)");
  const Simulation simulation =
      Load(R"(<MeshVTKLoader name="loader" filename="mesh/tet.vtu" translation="0 0 1"/>
  <TetrahedronSetTopologyContainer src="@loader"/>
  <MechanicalObject src="@loader"/>
  <UniformMass vertexMass="1"/>)");
  const ObjectModel& object = simulation.objects().at(0);
  EXPECT_THAT(Values(object.position), ElementsAre(0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 2));
  ASSERT_NE(object.topology, nullptr);
  EXPECT_THAT(object.topology->tetrahedra, ElementsAre(std::array<Index, 4>{0, 1, 2, 3}));
}

TEST_F(MeshLoading, MissingAndOutsideFilesAndMalformedMeshesAreOneLineEach) {
  Write("outside.obj", "v 0 0 0\n");
  fs::rename(folder_ / "outside.obj",
             folder_.parent_path() / ("fluxion_outside_" + std::to_string(::getpid()) + ".obj"));
  Write("mesh/bad.obj", "v 0 0 0\nf 1 2 3\n");
  const std::vector<std::string> errors = Errors(
      R"(<MeshOBJLoader name="a" filename="mesh/none.obj"/>
  <MeshOBJLoader name="b" filename="../fluxion_outside_)" +
      std::to_string(::getpid()) + R"(.obj"/>
  <MeshOBJLoader name="c" filename="mesh/bad.obj"/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>)");
  fs::remove(folder_.parent_path() / ("fluxion_outside_" + std::to_string(::getpid()) + ".obj"));
  ASSERT_EQ(errors.size(), 3u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("scene.scn:3: <MeshOBJLoader> 'mesh/none.obj' was not found"));
  EXPECT_THAT(errors[1], HasSubstr("outside the folders a scene may read"));
  EXPECT_THAT(errors[2], HasSubstr("scene.scn:5: MeshOBJLoader cannot read the mesh: "));
  EXPECT_THAT(errors[2], HasSubstr("bad.obj:2: vertex 2 does not exist (the file has 1 vertices)"));
}

TEST_F(MeshLoading, AddDataRepositoryAddsAFolderForEveryLoaderOfTheScene) {
  // SOFA adds the folder when the scene is parsed: a loader written before it finds its file too.
  const Simulation simulation = Load(R"(<MeshOBJLoader name="loader" filename="square.obj"/>
  <AddDataRepository path="mesh"/>
  <MeshTopology src="@loader"/>
  <MechanicalObject src="@loader"/>
  <UniformMass vertexMass="1"/>)");
  EXPECT_EQ(simulation.objects().at(0).num_points, 4);
}

TEST_F(MeshLoading, AddDataRepositoryMayNotLeadOutsideTheReadableFolders) {
  const std::vector<std::string> errors = Errors(R"(<AddDataRepository path=".."/>
  <AddDataRepository path="no_such_folder"/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>)");
  ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("scene.scn:3: <AddDataRepository> '..' leads to "));
  EXPECT_THAT(errors[0], HasSubstr("outside the folders a scene may read"));
  EXPECT_THAT(errors[1], HasSubstr("'no_such_folder' is not an existing folder"));
}

TEST_F(MeshLoading, TopologyFilenameAndContainerIndexChecks) {
  const Simulation simulation = Load(R"(<MeshTopology filename="mesh/square.obj"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>)");
  EXPECT_EQ(simulation.objects().at(0).num_points, 4);
  const std::vector<std::string> errors =
      Errors(R"(<TriangleSetTopologyContainer position="0 0 0  1 0 0  0 1 0" triangles="0 1 3"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0],
              HasSubstr("'triangles' uses point 3 (expected indices below the 3 points)"));
}

TEST_F(MeshLoading, ProceduralCreators) {
  // StringMeshCreator: n points at x = i/(n − 1), translated by MeshLoader's translation.
  const Simulation string = Load(R"(<StringMeshCreator name="s" resolution="3" translation="0 1 0"/>
  <MechanicalObject src="@s"/>
  <UniformMass vertexMass="1"/>)");
  EXPECT_THAT(Values(string.objects().at(0).position), ElementsAre(0, 1, 0, 0.5, 1, 0, 1, 1, 0));
  // GridMeshCreator 3 × 2, upward triangles (SOFA's default): squares (0 1 4 3) and (1 2 5 4)
  // give (0 1 4), (0 4 3), (1 2 5), (1 5 4); each edge once, in the orientation first met, sorted
  // as SOFA's set: 9 edges.
  const Simulation grid = Load(R"(<GridMeshCreator name="g" resolution="3 2"/>
  <MeshTopology src="@g"/>
  <MechanicalObject src="@g"/>
  <UniformMass vertexMass="1"/>)");
  const Topology& t = *grid.objects().at(0).topology;
  EXPECT_THAT(t.triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 4}, std::array<Index, 3>{0, 4, 3},
                          std::array<Index, 3>{1, 2, 5}, std::array<Index, 3>{1, 5, 4}));
  EXPECT_THAT(t.edges, ElementsAre(std::array<Index, 2>{0, 1}, std::array<Index, 2>{1, 2},
                                   std::array<Index, 2>{1, 4}, std::array<Index, 2>{2, 5},
                                   std::array<Index, 2>{3, 0}, std::array<Index, 2>{4, 0},
                                   std::array<Index, 2>{4, 3}, std::array<Index, 2>{5, 1},
                                   std::array<Index, 2>{5, 4}));
}

TEST_F(MeshLoading, StlThroughSrcMergedAndTransformed) {
  // The unit square as two ASCII facets (6 vertices, 4 distinct points, SOFA merges them).
  Write("mesh/square.stl",
        "solid sq\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\n"
        "endloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 1 0\n"
        "vertex 0 1 0\nendloop\nendfacet\nendsolid sq\n");
  const Simulation simulation = Load(
      R"(<MeshSTLLoader name="loader" filename="mesh/square.stl" translation="0 0 2" scale="3"/>
  <MeshTopology src="@loader"/>
  <MechanicalObject name="dofs" src="@loader"/>
  <UniformMass vertexMass="1"/>)");
  const ObjectModel& object = simulation.objects().at(0);
  // Points by first appearance, scaled by 3 then moved by (0, 0, 2).
  EXPECT_THAT(Values(object.position), ElementsAre(0, 0, 2, 3, 0, 2, 3, 3, 2, 0, 3, 2));
  ASSERT_NE(object.topology, nullptr);
  EXPECT_THAT(object.topology->triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 2}, std::array<Index, 3>{0, 2, 3}));
  // A malformed file: one line naming the file and its line.
  EXPECT_THAT(Errors(R"(<MeshSTLLoader filename="mesh/square.obj"/>)"),
              ElementsAre(HasSubstr("MeshSTLLoader cannot read the mesh: ")));
}

TEST_F(MeshLoading, OffThroughSrcIntoATriangleContainer) {
  // The unit square as a quad and, beside it, a triangle; scaled by 2.
  Write("mesh/square.off", "OFF\n5 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n2 0 0\n4 0 1 2 3\n3 1 4 2\n");
  const Simulation simulation =
      Load(R"(<MeshOffLoader name="loader" filename="mesh/square.off" scale="2"/>
  <MeshTopology src="@loader"/>
  <MechanicalObject src="@loader"/>
  <UniformMass vertexMass="1"/>)");
  const ObjectModel& object = simulation.objects().at(0);
  EXPECT_THAT(Values(object.position), ElementsAre(0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0, 4, 0, 0));
  ASSERT_NE(object.topology, nullptr);
  EXPECT_THAT(object.topology->quads, ElementsAre(std::array<Index, 4>{0, 1, 2, 3}));
  EXPECT_THAT(object.topology->triangles, ElementsAre(std::array<Index, 3>{1, 4, 2}));
  EXPECT_THAT(Errors(R"(<MeshOffLoader filename="mesh/square.obj"/>)"),
              ElementsAre(AllOf(HasSubstr("MeshOffLoader cannot read the mesh: "),
                                HasSubstr("square.obj:1: is not an OFF file"))));
}

TEST_F(MeshLoading, TrianThroughSrcWithItsBorderOutputs) {
  // Two triangles sharing the diagonal 0–2 of the unit square: triangle 0's neighbour across
  // 2–0 (opposite vertex 1) is triangle 1, triangle 1's across 0–2 (opposite vertex 2) is 0.
  Write("mesh/square.trian", "4\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n2\n0 1 2 -1 1 -1\n0 2 3 -1 -1 0\n");
  const std::string loader =
      R"(<MeshTrianLoader name="loader" filename="mesh/square.trian" translation="0 0 1"/>)";
  const Simulation simulation = Load(loader + R"(
  <TriangleSetTopologyContainer src="@loader"/>
  <MechanicalObject src="@loader"/>
  <UniformMass vertexMass="1"/>
  <Node name="probe">
    <MechanicalObject template="Vec1" position="@../loader.edgesOnBorder"/>
    <UniformMass vertexMass="1"/>
  </Node>)");
  const ObjectModel& object = simulation.objects().at(0);
  EXPECT_THAT(Values(object.position), ElementsAre(0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1));
  EXPECT_THAT(object.topology->triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 2}, std::array<Index, 3>{0, 2, 3}));
  // The border: (1 2) and (0 1) of triangle 0, (2 3) and (3 0) of triangle 1.
  EXPECT_THAT(Values(simulation.objects().at(1).position), ElementsAre(1, 2, 0, 1, 2, 3, 3, 0));
}
}  // namespace
}  // namespace fluxion
