// SOFA's engines that measure or reshape a mesh at load time (components/average_coord.cpp,
// volume_from_triangles.cpp, volume_from_volumetric_elements.cpp, mesh_subset_engine.cpp,
// smooth_mesh_engine.cpp, hausdorff_distance.cpp), on small inputs whose outputs are worked by
// hand in the comments. An output is read back through a link into a probe object: a Vec1
// MechanicalObject whose positions are the output's numbers.
#include <gmock/gmock.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

constexpr double kRoundOff = 1e-12;

std::vector<double> Output(const std::string& body, const std::string& output) {
  return testing::DataOutput(body, output);
}

double Scalar(const std::string& body, const std::string& output) {
  const std::vector<double> values = Output(body, output);
  EXPECT_EQ(values.size(), 1u);
  return values.empty() ? std::nan("") : values[0];
}

std::string ErrorOf(const std::string& body) {
  try {
    LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0"><EulerExplicitSolver/>)" + body +
              "</Node>");
  } catch (const SceneError& error) {
    if (error.diagnostics().size() != 1) return "several errors: " + std::string(error.what());
    return error.diagnostics()[0].message;
  }
  return "no error";
}

class AnalysisEngines : public testing::QuietTest {};

TEST_F(AnalysisEngines, AverageCoordOfAllOrSomePoints) {
  // Points (0 0 0) (2 0 0) (0 4 0) (2 4 6): mean (1, 2, 1.5); of points 1 and 3: (2, 2, 3).
  const std::string object =
      R"(<MechanicalObject position="0 0 0  2 0 0  0 4 0  2 4 6" rest_position="1 1 1  3 3 3
         1 1 1  3 3 3"/><UniformMass vertexMass="1"/>)";
  EXPECT_THAT(Output(object + R"(<AverageCoord name="a" template="Vec3"/>)", "a.average"),
              ElementsAre(1, 2, 1.5));
  EXPECT_THAT(Output(object + R"(<AverageCoord name="a" indices="1 3"/>)", "a.average"),
              ElementsAre(2, 2, 3));
  // vecId 2: the rest positions, mean (2, 2, 2).
  EXPECT_THAT(Output(object + R"(<AverageCoord name="a" vecId="2"/>)", "a.average"),
              ElementsAre(2, 2, 2));
  // A Vec2 object: 2 numbers. (1 1), (2 3), (6 2): mean (3, 2).
  EXPECT_THAT(Output(R"(<MechanicalObject template="Vec2" position="1 1  2 3  6 2"/>
                        <UniformMass vertexMass="1"/><AverageCoord name="a" template="Vec2"/>)",
                     "a.average"),
              ElementsAre(3, 2));
  EXPECT_THAT(ErrorOf(object + R"(<AverageCoord indices="4"/>)"),
              HasSubstr("'indices' has point 4 (expected indices below the 4 points"));
  EXPECT_THAT(ErrorOf(object + R"(<AverageCoord vecId="3"/>)"), HasSubstr("'vecId' is 3"));
}

// The unit cube's corners: corner i at (i & 1, (i >> 1) & 1, (i >> 2) & 1).
constexpr const char* kCube = "0 0 0  1 0 0  0 1 0  1 1 0  0 0 1  1 0 1  0 1 1  1 1 1";
// Its 6 faces as outward quads, and as 12 outward triangles (each quad split along 0–2).
constexpr const char* kCubeQuads = "0 2 3 1  4 5 7 6  0 1 5 4  2 6 7 3  0 4 6 2  1 3 7 5";
constexpr const char* kCubeTriangles =
    "0 2 3  0 3 1  4 5 7  4 7 6  0 1 5  0 5 4  2 6 7  2 7 3  0 4 6  0 6 2  1 3 7  1 7 5";

TEST_F(AnalysisEngines, PointsFromIndicesTakesThePointsInIndexOrderOnceEach) {
  // Points 0 (1 2 3), 1 (4 5 6), 2 (1 2 3: equal to point 0); indices 1 2 0 1: point 1, then
  // point 2, then point 0 (the same coordinates as point 2: left out, as SOFA's `contains`
  // check does), then point 1 again (left out).
  EXPECT_THAT(Output(R"(<PointsFromIndices name="points" position="1 2 3  4 5 6  1 2 3"
                     indices="1 2 0 1"/>)",
                     "points.indices_position"),
              ElementsAre(4, 5, 6, 1, 2, 3));
  // Vec2d points: (1 2), (3 4); index 1.
  EXPECT_THAT(
      Output(
          R"(<PointsFromIndices name="points" template="Vec2d" position="1 2 3 4" indices="1"/>)",
          "points.indices_position"),
      ElementsAre(3, 4));
}

TEST_F(AnalysisEngines, PointsFromIndicesRefusesAnIndexOutOfRange) {
  try {
    LoadScene(R"(<Node name="root" dt="0.1">
  <PointsFromIndices name="points" position="1 2 3" indices="1"/>
</Node>)");
    FAIL() << "expected a SceneError";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("'indices' has point 1 (expected indices below the 1 "
                                        "points of 'position')"));
  }
}

TEST_F(AnalysisEngines, VolumeFromTrianglesOfClosedSurfaces) {
  const std::string cube = std::string("position=\"") + kCube + "\"";
  // The unit cube: 1, from triangles or quads given, or from the node's topology and object.
  EXPECT_THAT(
      Scalar(R"(<VolumeFromTriangles name="v" )" + cube + " triangles=\"" + kCubeTriangles + "\"/>",
             "v.volume"),
      DoubleNear(1.0, kRoundOff));
  EXPECT_THAT(Scalar(R"(<VolumeFromTriangles name="v" )" + cube + " quads=\"" + kCubeQuads + "\"/>",
                     "v.volume"),
              DoubleNear(1.0, kRoundOff));
  EXPECT_THAT(Scalar(R"(<MeshTopology )" + cube + " quads=\"" + kCubeQuads + R"("/>
                        <MechanicalObject/><UniformMass vertexMass="1"/>
                        <VolumeFromTriangles name="v"/>)",
                     "v.volume"),
              DoubleNear(1.0, kRoundOff));
  // The tetrahedron (0 0 0) (1 0 0) (0 1 0) (0 0 1): 1/6, faces inward-oriented (|total|).
  EXPECT_THAT(Scalar(R"(<VolumeFromTriangles name="v" position="0 0 0 1 0 0 0 1 0 0 0 1"
                        triangles="0 1 2  0 1 3  0 2 3  1 2 3"/>)",
                     "v.volume"),
              DoubleNear(1.0 / 6.0, kRoundOff));
  // A 2 × 3 × 4 box (the cube scaled), moved away from the origin: 24.
  EXPECT_THAT(Scalar(R"(<VolumeFromTriangles name="v" quads=")" + std::string(kCubeQuads) +
                         R"(" position="5 5 5  7 5 5  5 8 5  7 8 5  5 5 9  7 5 9  5 8 9  7 8 9"/>)",
                     "v.volume"),
              DoubleNear(24.0, 1e-11));
  EXPECT_THAT(ErrorOf(R"(<VolumeFromTriangles position="0 0 0" triangles="0 0 1"/>)"),
              HasSubstr("'triangles' uses point 1 (expected indices below the 1 points)"));
}

TEST_F(AnalysisEngines, VolumeFromVolumetricElementsSumsElementVolumes) {
  // The unit tetrahedron: 1/6, whatever its orientation.
  EXPECT_THAT(Scalar(R"(<VolumeFromVolumetricElements name="v" position="0 0 0 1 0 0 0 1 0 0 0 1"
                        tetras="0 2 1 3"/>)",
                     "v.volume"),
              DoubleNear(1.0 / 6.0, kRoundOff));
  // A parallelepiped on edges a = (2 0 0), b = (1 3 0), c = (0.5 0.5 4) in SOFA's hexahedron
  // order (0 a a+b b, then + c): |a · (b × c)| = 2 · 12 = 24.
  const std::string hexa =
      R"(position="0 0 0  2 0 0  3 3 0  1 3 0  0.5 0.5 4  2.5 0.5 4  3.5 3.5 4  1.5 3.5 4")";
  EXPECT_THAT(
      Scalar(R"(<VolumeFromVolumetricElements name="v" )" + hexa + R"( hexas="0 1 2 3 4 5 6 7"/>)",
             "v.volume"),
      DoubleNear(24.0, 1e-11));
  // Both kinds from the node's topology: the unit cube as one hexahedron plus a tetrahedron
  // (0 1 2 4) of volume 1/6 counted again.
  EXPECT_THAT(Scalar(std::string(R"(<MeshTopology position=")") + kCube +
                         R"(" hexahedra="0 1 3 2 4 5 7 6" tetrahedra="0 1 2 4"/>
                 <MechanicalObject/><UniformMass vertexMass="1"/>
                 <VolumeFromVolumetricElements name="v"/>)",
                     "v.volume"),
              DoubleNear(1.0 + 1.0 / 6.0, kRoundOff));
  EXPECT_THAT(ErrorOf(R"(<VolumeFromVolumetricElements position="0 0 0"/>)"),
              HasSubstr("has no tetrahedra or hexahedra"));
}

TEST_F(AnalysisEngines, MeshSubsetEngineRenumbersKeptElements) {
  // Points p0..p3 = x 0..3; triangles (0 1 2) (1 3 2), edges (0 1) (2 3). Selecting 3 1 2:
  // position p3 p1 p2; new numbers 3→0, 1→1, 2→2; triangle (1 3 2) → (1 0 2), edge (2 3) → (2 0);
  // the elements using point 0 are dropped.
  const std::string mesh = R"(<MeshSubsetEngine name="s" inputPosition="0 0 0  1 0 0  2 0 0  3 0 0"
      inputTriangles="0 1 2  1 3 2" inputEdges="0 1  2 3" )";
  EXPECT_THAT(Output(mesh + R"(indices="3 1 2"/>)", "s.position"),
              ElementsAre(3, 0, 0, 1, 0, 0, 2, 0, 0));
  EXPECT_THAT(Output(mesh + R"(indices="3 1 2"/>)", "s.triangles"), ElementsAre(1, 0, 2));
  EXPECT_THAT(Output(mesh + R"(indices="3 1 2"/>)", "s.edges"), ElementsAre(2, 0));
  // Point 1 listed twice (places 0 and 2): it appears twice, elements take its last place.
  // 1→2, 2→1, 3→3: triangle (1 3 2) → (2 3 1).
  EXPECT_THAT(Output(mesh + R"(indices="1 2 1 3"/>)", "s.position"),
              ElementsAre(1, 0, 0, 2, 0, 0, 1, 0, 0, 3, 0, 0));
  EXPECT_THAT(Output(mesh + R"(indices="1 2 1 3"/>)", "s.triangles"), ElementsAre(2, 3, 1));
  EXPECT_THAT(ErrorOf(mesh + R"(indices="4"/>)"),
              HasSubstr("'indices' uses point 4 (expected indices below the 4 points)"));
}

TEST_F(AnalysisEngines, SmoothMeshEngineAveragesNeighbours) {
  // A path 0–1–2 at x = 0, 1, 4. One sweep: x0 → x1 = 1, x1 → (0 + 4)/2 = 2, x2 → x1 = 1.
  // A second from (1, 2, 1): 2, 1, 2.
  const std::string path =
      R"(<MeshTopology position="0 0 0  1 0 0  4 0 0" edges="0 1  1 2"/>
         <SmoothMeshEngine name="s" input_position="0 0 0  1 0 0  4 0 0" )";
  EXPECT_THAT(Output(path + "/>", "s.output_position"), ElementsAre(1, 0, 0, 2, 0, 0, 1, 0, 0));
  EXPECT_THAT(Output(path + R"(nb_iterations="2"/>)", "s.output_position"),
              ElementsAre(2, 0, 0, 1, 0, 0, 2, 0, 0));
  // Only point 1 moves: (0, 2, 4).
  EXPECT_THAT(Output(path + R"(input_indices="1"/>)", "s.output_position"),
              ElementsAre(0, 0, 0, 2, 0, 0, 4, 0, 0));
  EXPECT_THAT(Output(path + R"(nb_iterations="0"/>)", "s.output_position"),
              ElementsAre(0, 0, 0, 1, 0, 0, 4, 0, 0));
  // Edges derived from a quad are its 4 sides, not a diagonal: every corner of the unit square
  // moves to the mean of its 2 side neighbours, the centre (0.5 0.5). Point 4 has no edge and
  // stays.
  const std::string square = "0 0 0  1 0 0  1 1 0  0 1 0  7 7 7";
  EXPECT_THAT(Output(std::string(R"(<MeshTopology name="t" position=")") + square +
                         R"(" quads="0 1 2 3"/><Node name="n"><SmoothMeshEngine name="s"
                         topology="@../t" input_position=")" +
                         square + "\"/></Node>",
                     "n/s.output_position"),
              ElementsAre(0.5, 0.5, 0, 0.5, 0.5, 0, 0.5, 0.5, 0, 0.5, 0.5, 0, 7, 7, 7));
  // From a triangle: its 3 sides. (0 0 0) (3 0 0) (0 3 0) → (1.5 1.5 0) (0 1.5 0) (1.5 0 0).
  EXPECT_THAT(Output(R"(<MeshTopology position="0 0 0  3 0 0  0 3 0" triangles="0 1 2"/>
                        <SmoothMeshEngine name="s" input_position="0 0 0  3 0 0  0 3 0"/>)",
                     "s.output_position"),
              ElementsAre(1.5, 1.5, 0, 0, 1.5, 0, 1.5, 0, 0));
  EXPECT_THAT(ErrorOf(R"(<SmoothMeshEngine input_position="0 0 0"/>)"),
              HasSubstr("SmoothMeshEngine needs a topology"));
}

TEST_F(AnalysisEngines, HausdorffDistanceOfHandPlacedClouds) {
  // points1 (0 0 0) (4 0 0), points2 (0 1 0) (0 0 3). Nearest in 2: from (0 0 0) 1, from
  // (4 0 0) min(√17, 5) = √17: d12 = √17. Nearest in 1: from (0 1 0) min(1, √17) = 1, from
  // (0 0 3) min(3, 5) = 3: d21 = 3. max = √17.
  const std::string clouds =
      R"(<HausdorffDistance name="h" points1="0 0 0  4 0 0" points2="0 1 0  0 0 3"/>)";
  EXPECT_THAT(Scalar(clouds, "h.d12"), DoubleNear(std::sqrt(17.0), kRoundOff));
  EXPECT_THAT(Scalar(clouds, "h.d21"), DoubleNear(3.0, kRoundOff));
  EXPECT_THAT(Scalar(clouds, "h.max"), DoubleNear(std::sqrt(17.0), kRoundOff));
  // Vec2: (3 4) against (0 0): 5 both ways. Vec1: {1, 5} against {2}: d12 = 3, d21 = 1.
  EXPECT_THAT(Scalar(R"(<HausdorffDistance name="h" template="Vec2" points1="3 4" points2="0 0"/>)",
                     "h.max"),
              DoubleNear(5.0, kRoundOff));
  const std::string line =
      R"(<HausdorffDistance name="h" template="Vec1" points1="1 5" points2="2"/>)";
  EXPECT_THAT(Scalar(line, "h.d12"), DoubleNear(3.0, kRoundOff));
  EXPECT_THAT(Scalar(line, "h.d21"), DoubleNear(1.0, kRoundOff));
  EXPECT_THAT(ErrorOf(R"(<HausdorffDistance points1="1 2 3" points2=""/>)"),
              HasSubstr("'points2' is empty"));
  EXPECT_THAT(ErrorOf(R"(<HausdorffDistance template="Vec2" points1="1 2 3"/>)"),
              HasSubstr("'points1' has 3 numbers (expected 2 per point)"));
}

TEST_F(AnalysisEngines, MeshSamplerFarthestPointsThenLloyd) {
  // Points at x = 0, 1, 2, 3, 10, 2 samples. Farthest from point 0 (squared distances 0 1 4 9
  // 100): point 4. Without Lloyd: 0 4.
  const std::string line = R"(<MeshSampler name="s" number="2" position="0 0 0  1 0 0  2 0 0
      3 0 0  10 0 0" )";
  EXPECT_THAT(Output(line + R"(maxIter="0"/>)", "s.outputIndices"), ElementsAre(0, 4));
  // Lloyd: region of point 0 is x = 0..3, centroid 1.5; the first point nearest to it is x = 1
  // (0.25, x = 2 ties and is not taken); the next sweep changes nothing.
  EXPECT_THAT(Output(line + "/>", "s.outputIndices"), ElementsAre(1, 4));
  EXPECT_THAT(Output(line + "/>", "s.outputPosition"), ElementsAre(1, 0, 0, 10, 0, 0));
  // A U of edges 0–1–2–3: (0 0 0) (5 0 0) (5 1 0) (0 1 0). Euclidean, the farthest from point
  // 0 is point 2 (26 against 25 and 1); along the edges point 3 (11 against 5 and 6).
  const std::string u = R"(<MeshSampler name="s" number="2" maxIter="0"
      position="0 0 0  5 0 0  5 1 0  0 1 0" )";
  EXPECT_THAT(Output(u + "/>", "s.outputIndices"), ElementsAre(0, 2));
  EXPECT_THAT(Output(u + R"(edges="0 1  1 2  2 3"/>)", "s.outputIndices"), ElementsAre(0, 3));
  // More samples than points: every point once.
  EXPECT_THAT(
      Output(R"(<MeshSampler name="s" number="5" position="0 0 0  1 0 0"/>)", "s.outputIndices"),
      ElementsAre(0, 1));
}

TEST_F(AnalysisEngines, MeshClosingEngineFillsAHoleWithAFan) {
  // The unit cube moved to x = 2..3 without its face x = 3 (quad 1 3 7 5). Its border, as the
  // neighbouring quads run: 3→1, 1→5, 5→7, 7→3; the loop from the smallest point: 1 5 7 3.
  // Centroid (3, 0.5, 0.5) becomes point 8; fan triangles (8, point, previous): (8 1 3)
  // (8 5 1) (8 7 5) (8 3 7), turning as the missing face 1 3 7 5 did.
  const std::string open =
      R"(<MeshClosingEngine name="c" inputPosition="2 0 0  3 0 0  2 1 0  3 1 0  2 0 1  3 0 1
          2 1 1  3 1 1" inputQuads="0 2 3 1  4 5 7 6  0 1 5 4  2 6 7 3  0 4 6 2"/>)";
  EXPECT_THAT(Output(open, "c.triangles"), ElementsAre(8, 1, 3, 8, 5, 1, 8, 7, 5, 8, 3, 7));
  EXPECT_THAT(Output(open, "c.indices"), ElementsAre(1, 5, 7, 3, 8));
  const std::vector<double> position = Output(open, "c.position");
  ASSERT_EQ(position.size(), 27u);
  EXPECT_THAT(std::vector<double>(position.begin() + 24, position.end()), ElementsAre(3, 0.5, 0.5));
  EXPECT_THAT(Output(open, "c.closingPosition"),
              ElementsAre(3, 0, 0, 3, 0, 1, 3, 1, 1, 3, 1, 0, 3, 0.5, 0.5));
  EXPECT_THAT(Output(open, "c.closingTriangles"), ElementsAre(4, 0, 3, 4, 1, 0, 4, 2, 1, 4, 3, 2));
  // The closed mesh encloses the unit cube: volume 1 (a fan turned the wrong way would give
  // |−2 − 3| = 5, the faces x = 2 and x = 3 contributing −2 and ±3).
  EXPECT_THAT(Scalar(open + R"(<VolumeFromTriangles name="v" position="@c.position"
                                triangles="@c.triangles" quads="@c.quads"/>)",
                     "v.volume"),
              DoubleNear(1.0, kRoundOff));
}

TEST_F(AnalysisEngines, MeshBarycentricMapperEngineLocatesPoints) {
  // T0 = the unit tetrahedron (0 1 2 3), T1 = (1 2 3 4) with point 4 at (1 1 1).
  // (0.1 0.2 0.3): inside T0, whose edges are the axes: coordinates (0.1 0.2 0.3).
  // (0.6 0.6 0.6): x − p1 = (−0.4 0.6 0.6) = a(−1 1 0) + b(−1 0 1) + c(0 1 1) → a = b = 0.2,
  //   c = 0.4, inside T1 (T0's coordinates sum to 1.8).
  // (2 0 0): outside both; T1's centre (0.5 0.5 0.5) is nearer (2.75 against 3.1875 squared):
  //   (1 0 0) = a(−1 1 0) + b(−1 0 1) + c(0 1 1) → a = b = −0.5, c = 0.5.
  const std::string tetras = R"(<MeshTopology name="t" position="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1"
      tetrahedra="0 1 2 3  1 2 3 4"/>
      <MeshBarycentricMapperEngine name="b" topology="@t" computeLinearInterpolation="1"
      inputPositions="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1"
      mappedPointPositions="0.1 0.2 0.3  0.6 0.6 0.6  2 0 0"/>)";
  EXPECT_THAT(Output(tetras, "b.tableElements"), ElementsAre(0, 1, 1));
  const std::vector<double> v = Output(tetras, "b.barycentricPositions");
  const std::vector<double> expected = {0.1, 0.2, 0.3, 0.2, 0.2, 0.4, -0.5, -0.5, 0.5};
  ASSERT_EQ(v.size(), expected.size());
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], expected[i], kRoundOff) << i;
  EXPECT_THAT(Output(tetras, "b.linearInterpolationIndices"),
              ElementsAre(0, 1, 2, 3, 1, 2, 3, 4, 1, 2, 3, 4));
  // Weights 1 − Σv then v: (0.4 0.1 0.2 0.3) — they rebuild the point: 0.1·(1 0 0) +
  // 0.2·(0 1 0) + 0.3·(0 0 1).
  const std::vector<double> w = Output(tetras, "b.linearInterpolationValues");
  ASSERT_EQ(w.size(), 12u);
  EXPECT_NEAR(w[0], 0.4, kRoundOff);
  EXPECT_NEAR(w[4], 0.2, kRoundOff);
  // A triangle (0 0 0) (2 0 0) (0 2 0): (0.5 0.5 0.1) → (0.25 0.25), the normal's coordinate
  // (0.1/4) dropped.
  EXPECT_THAT(Output(R"(<MeshTopology name="t" position="0 0 0  2 0 0  0 2 0" triangles="0 1 2"/>
      <MeshBarycentricMapperEngine name="b" topology="@t" inputPositions="0 0 0  2 0 0  0 2 0"
      mappedPointPositions="0.5 0.5 0.1"/>)",
                     "b.barycentricPositions"),
              ElementsAre(DoubleNear(0.25, kRoundOff), DoubleNear(0.25, kRoundOff), 0));
  EXPECT_THAT(
      ErrorOf(R"(<MeshTopology name="t" position="0 0 0  1 0 0  1 1 0  0 1 0" quads="0 1 2 3"/>
      <MeshBarycentricMapperEngine topology="@t" inputPositions="0 0 0  1 0 0  1 1 0  0 1 0"
      mappedPointPositions="0 0 0"/>)"),
      HasSubstr("cannot map into quads"));
}

TEST_F(AnalysisEngines, ExtrudeSurfaceBuildsAPrism) {
  // The unit square in z = 0 as triangles (0 1 2) (0 2 3), normals +z, extruded by 2. Points in
  // order of first use, each then moved by (0 0 2): p0 p0' p1 p1' p2 p2' p3 p3' = 0..7.
  // Triangle (0 1 2) → low (0 2 4): bottom (0 4 2), top (1 3 5); (0 2 3) → low (0 4 6): bottom
  // (0 6 4), top (1 5 7). Edges met once: (0 2) (0 6) (2 4) (4 6) ((0 4) twice); each (a b)
  // gives (a b a+1) (b+1 a+1 b).
  const std::string extrude = R"(<ExtrudeSurface name="e" heightFactor="2" triangles="0 1 2  0 2 3"
      surfaceVertices="0 0 0  1 0 0  1 1 0  0 1 0" surfaceTriangles="0 1"/>)";
  EXPECT_THAT(Output(extrude, "e.extrusionVertices"),
              ElementsAre(0, 0, 0, 0, 0, 2, 1, 0, 0, 1, 0, 2, 1, 1, 0, 1, 1, 2, 0, 1, 0, 0, 1, 2));
  EXPECT_THAT(Output(extrude, "e.extrusionTriangles"),
              ElementsAre(0, 4, 2, 1, 3, 5, 0, 6, 4, 1, 5, 7,  // bottoms and tops
                          0, 2, 1, 3, 1, 2, 0, 6, 1, 7, 1, 6, 2, 4, 3, 5, 3, 4, 4, 6, 5, 7, 5, 6));
}

TEST_F(AnalysisEngines, RandomPointsInsideATetrahedronSurface) {
  // The unit tetrahedron's surface, normals outward. Without a distance limit, a draw is kept
  // exactly when it is inside: x, y, z ≥ 0 and x + y + z ≤ 1; about 1/6 of the draws in the
  // unit box are.
  const std::string surface = R"(vertices="0 0 0  1 0 0  0 1 0  0 0 1"
      triangles="0 2 1  0 1 3  0 3 2  1 2 3")";
  const auto load = [&](const std::string& extra, const std::string& output) {
    return Output(R"(<RandomPointDistributionInSurface name="r" )" + surface + " " + extra + "/>",
                  output);
  };
  const std::vector<double> in =
      load(R"(minDistanceBetweenPoints="-1" randomSeed="7" numberOfInPoints="300")", "r.inPoints");
  const std::vector<double> out =
      load(R"(minDistanceBetweenPoints="-1" randomSeed="7" numberOfInPoints="300")", "r.outPoints");
  ASSERT_EQ(in.size(), 900u);
  for (std::size_t i = 0; i < in.size(); i += 3) {
    EXPECT_LE(in[i] + in[i + 1] + in[i + 2], 1.0) << i / 3;
    EXPECT_GE(std::min({in[i], in[i + 1], in[i + 2]}), 0.0) << i / 3;
  }
  for (std::size_t i = 0; i < out.size(); i += 3)
    EXPECT_GT(out[i] + out[i + 1] + out[i + 2], 1.0) << i / 3;
  const double fraction = 300.0 / (300.0 + static_cast<double>(out.size() / 3));
  EXPECT_GT(fraction, 0.12);
  EXPECT_LT(fraction, 0.22);
  // Deterministic for a seed; another seed draws other points.
  EXPECT_EQ(
      load(R"(minDistanceBetweenPoints="-1" randomSeed="7" numberOfInPoints="300")", "r.inPoints"),
      in);
  EXPECT_NE(
      load(R"(minDistanceBetweenPoints="-1" randomSeed="8" numberOfInPoints="300")", "r.inPoints"),
      in);
  // With a distance limit, the kept points are that far apart.
  const std::vector<double> spread =
      load(R"(minDistanceBetweenPoints="0.05" numberOfInPoints="30")", "r.inPoints");
  for (std::size_t i = 0; i < spread.size(); i += 3)
    for (std::size_t j = i + 3; j < spread.size(); j += 3)
      EXPECT_GE(std::hypot(spread[i] - spread[j], spread[i + 1] - spread[j + 1],
                           spread[i + 2] - spread[j + 2]),
                0.05);
}

// An engine may take its input from a loader in a node that otherwise only draws (SOFA's
// HausdorffDistance.scn): that node is read, not skipped as visual.
TEST_F(AnalysisEngines, LoaderInADrawingNodeFeedsAnEngine) {
  namespace fs = std::filesystem;
  const fs::path folder =
      fs::path(::testing::TempDir()) / ("fluxion_engines_" + std::to_string(::getpid()));
  fs::create_directories(folder);
  std::ofstream(folder / "square.obj") << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n";
  std::ofstream(folder / "scene.scn") << R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <Node name="mesh1">
    <MeshOBJLoader name="loader1" filename="square.obj"/>
    <OglModel name="visual" src="@loader1"/>
  </Node>
  <HausdorffDistance name="h" points1="@mesh1/loader1.position" points2="0 0 3"/>
  <Node name="probe">
    <MechanicalObject template="Vec1" position="@../h.d12"/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>)";
  const Simulation simulation = testing::TestHost().LoadFile((folder / "scene.scn").string());
  // The farthest corner (1 1 0) from (0 0 3): √11.
  EXPECT_THAT(simulation.objects().back().position[0], DoubleNear(std::sqrt(11.0), kRoundOff));
  fs::remove_all(folder);
}

}  // namespace
}  // namespace fluxion
