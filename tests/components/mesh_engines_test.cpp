// SOFA's data engines that make meshes and point lists (components/merge_meshes.cpp,
// merge_vectors.cpp, mesh_boundary_roi.cpp, transform_engine.cpp, transform_matrix_engine.cpp),
// on small inputs whose outputs are worked by hand. An output is read back through a link into a
// probe object: a Vec1 MechanicalObject whose positions are the output's numbers.
#include <gmock/gmock.h>

#include <cmath>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

// Rotations by 90° leave cos 90° ≈ 6e-17 and products of a few such roundings.
constexpr double kRoundOff = 1e-12;

std::vector<double> Output(const std::string& engines, const std::string& output) {
  return testing::DataOutput(engines, output);
}

std::string ErrorOf(const std::string& engines) {
  try {
    LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0"><EulerExplicitSolver/>)" + engines +
              "</Node>");
  } catch (const SceneError& error) {
    if (error.diagnostics().size() != 1) return "several errors: " + std::string(error.what());
    return error.diagnostics()[0].message;
  }
  return "no error";
}

class MeshEngines : public testing::QuietTest {};

TEST_F(MeshEngines, MergeMeshesConcatenatesAndRenumbers) {
  // Mesh 1: a triangle of 3 points; mesh 2: an edge of 2 points, renumbered by 3; mesh 3: one
  // point, no element.
  const std::string merge =
      R"(<MergeMeshes name="m" nbMeshes="3" position1="0 0 0  1 0 0  0 1 0" triangles1="0 1 2"
                 position2="5 0 0  6 0 0" edges2="0 1" position3="9 9 9"/>)";
  EXPECT_THAT(Output(merge, "m.position"),
              ElementsAre(0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 0, 0, 6, 0, 0, 9, 9, 9));
  EXPECT_THAT(Output(merge, "m.triangles"), ElementsAre(0, 1, 2));
  EXPECT_THAT(Output(merge, "m.edges"), ElementsAre(3, 4));
  EXPECT_THAT(Output(merge, "m.npoints"), ElementsAre(6));
  // The merged mesh through src into a topology and an object.
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + merge + R"(
  <MeshTopology src="@m"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
</Node>)");
  EXPECT_EQ(simulation.objects().at(0).position.size(), 18);
  ASSERT_NE(simulation.objects().at(0).topology, nullptr);
  EXPECT_THAT(simulation.objects().at(0).topology->triangles,
              ElementsAre(std::array<Index, 3>{0, 1, 2}));
}

TEST_F(MeshEngines, MergeMeshesRefusesBadInputs) {
  EXPECT_THAT(ErrorOf(R"(<MergeMeshes position1="0 0 0" triangles1="0 0 1"/>)"),
              HasSubstr("'triangles1' uses point 1 (expected indices below the 1 points"));
  EXPECT_THAT(ErrorOf(R"(<MergeMeshes nbMeshes="2" position3="0 0 0"/>)"),
              HasSubstr("'position3' is beyond nbMeshes=2"));
  EXPECT_THAT(ErrorOf(R"(<MergeMeshes position1="0 0"/>)"),
              HasSubstr("'position1' has 2 numbers (expected 3 per point)"));
}

TEST_F(MeshEngines, MergeVectorsConcatenatesInOrder) {
  EXPECT_THAT(Output(R"(<MergeVectors name="v" template="Data<double>" input1="1 2" input2="3"/>)",
                     "v.output"),
              ElementsAre(1, 2, 3));
  EXPECT_THAT(
      Output(R"(<MergeVectors name="v" nbInputs="3" input1="1" input3="4 5"/>)", "v.output"),
      ElementsAre(1, 4, 5));
  EXPECT_THAT(ErrorOf(R"(<MergeVectors input3="1"/>)"), HasSubstr("'input3' is beyond"));
}

// A 3×3 grid of points (i + 3j at (i, j)) as 4 quads: point 4 is the only interior one.
constexpr const char* kGrid =
    R"(<MeshTopology position="0 0 0 1 0 0 2 0 0  0 1 0 1 1 0 2 1 0  0 2 0 1 2 0 2 2 0"
                  quads="0 1 4 3  1 2 5 4  3 4 7 6  4 5 8 7"/>)";

TEST_F(MeshEngines, MeshBoundaryRoiKeepsPointsOfEdgesOfOneElement) {
  // The node topology's quads: every edge of the outer square belongs to one quad.
  EXPECT_THAT(Output(std::string(kGrid) + R"(<MeshBoundaryROI name="b"/>)", "b.indices"),
              ElementsAre(0, 1, 2, 3, 5, 6, 7, 8));
  // inputROI 0 1 3 4: only quad 0 has all its points there; its 4 edges are boundary edges.
  EXPECT_THAT(
      Output(std::string(kGrid) + R"(<MeshBoundaryROI name="b" inputROI="4 0 1 3"/>)", "b.indices"),
      ElementsAre(0, 1, 3, 4));
  // Triangles given, a closed fan around point 0: (0 1 2), (0 2 3), (0 3 1). Edges 0–1, 0–2,
  // 0–3 belong to two triangles each, 1–2, 2–3, 3–1 to one: point 0 is interior.
  EXPECT_THAT(Output(R"(<MeshBoundaryROI name="b" triangles="0 1 2  0 2 3  0 3 1"/>)", "b.indices"),
              ElementsAre(1, 2, 3));
  // Without the third triangle, 0–1 and 0–3 are boundary edges too.
  EXPECT_THAT(Output(R"(<MeshBoundaryROI name="b" triangles="0 1 2  0 2 3"/>)", "b.indices"),
              ElementsAre(0, 1, 2, 3));
}

TEST_F(MeshEngines, TransformEngineScalesRotatesThenTranslates) {
  // (1,0,0), (0,1,0) scaled by (2,1,1): (2,0,0), (0,1,0); rotated 90° about z ((x,y) → (−y,x)):
  // (0,2,0), (−1,0,0); moved by (10,0,0): (10,2,0), (9,0,0).
  const std::string transform = R"(<TransformEngine name="t" input_position="1 0 0  0 1 0"
      scale="2 1 1" rotation="0 0 90" translation="10 0 0"/>)";
  EXPECT_THAT(
      Output(transform, "t.output_position"),
      ElementsAre(DoubleNear(10, kRoundOff), DoubleNear(2, kRoundOff), DoubleNear(0, kRoundOff),
                  DoubleNear(9, kRoundOff), DoubleNear(0, kRoundOff), DoubleNear(0, kRoundOff)));
  // inverse: the same operations inverted, in reverse order, bring the points back.
  EXPECT_THAT(
      Output(R"(<TransformEngine name="t" input_position="10 2 0  9 0 0" inverse="1"
      scale="2 1 1" rotation="0 0 90" translation="10 0 0"/>)",
             "t.output_position"),
      ElementsAre(DoubleNear(1, kRoundOff), DoubleNear(0, kRoundOff), DoubleNear(0, kRoundOff),
                  DoubleNear(0, kRoundOff), DoubleNear(1, kRoundOff), DoubleNear(0, kRoundOff)));
  // Euler angles X then Y then Z (R = Rz·Ry·Rx): (0,1,0) turned 90° about x is (0,0,1), then
  // 90° about y is (1,0,0).
  EXPECT_THAT(
      Output(R"(<TransformEngine name="t" input_position="0 1 0" rotation="90 90 0"/>)",
             "t.output_position"),
      ElementsAre(DoubleNear(1, kRoundOff), DoubleNear(0, kRoundOff), DoubleNear(0, kRoundOff)));
}

TEST_F(MeshEngines, TransformEngineQuaternionAsSofaRotates) {
  // q = (0, 0, sin 45°, cos 45°): 90° about z, (1,0,0) → (0,1,0).
  const double s = std::sqrt(0.5);
  EXPECT_THAT(Output(R"(<TransformEngine name="t" input_position="1 0 0" quaternion="0 0 )" +
                         std::to_string(s) + " " + std::to_string(s) + R"("/>)",
                     "t.output_position"),
              ElementsAre(DoubleNear(0, 1e-6), DoubleNear(1, 1e-6), DoubleNear(0, 1e-6)));
  // SOFA does not normalize: q = (0,0,1,1), v = (1,0,0): t = 2 q×v = (0,2,0),
  // v + w t + q×t = (1,0,0) + (0,2,0) + (−2,0,0) = (−1,2,0).
  EXPECT_THAT(Output(R"(<TransformEngine name="t" input_position="1 0 0" quaternion="0 0 1 1"/>)",
                     "t.output_position"),
              ElementsAre(-1, 2, 0));
}

// T1 = translation (10,11,12); T2 = T1·diag(1.2,1.5,0.8,1); T3 = T2·Rz(90°); T4 = T2⁻¹.
constexpr const char* kMatrices = R"(
  <TranslateTransformMatrixEngine name="T1" translation="10 11 12"/>
  <ScaleTransformMatrixEngine name="T2" inT="@T1.outT" scale="1.2 1.5 0.8"/>
  <RotateTransformMatrixEngine name="T3" inT="@T2.outT" rotation="0 0 90"/>
  <InvertTransformMatrixEngine name="T4" inT="@T2.outT"/>)";

std::vector<::testing::Matcher<double>> Near(const std::vector<double>& values) {
  std::vector<::testing::Matcher<double>> matchers;
  for (const double v : values) matchers.push_back(DoubleNear(v, kRoundOff));
  return matchers;
}

TEST_F(MeshEngines, TransformMatricesCompose) {
  EXPECT_THAT(Output(kMatrices, "T2.outT"),
              ElementsAre(1.2, 0, 0, 10, 0, 1.5, 0, 11, 0, 0, 0.8, 12, 0, 0, 0, 1));
  // T2·Rz: columns x, y of T2 become y, −x: [0 −1.2 0 10; 1.5 0 0 11; 0 0 0.8 12; 0 0 0 1].
  EXPECT_THAT(Output(kMatrices, "T3.outT"),
              ::testing::ElementsAreArray(
                  Near({0, -1.2, 0, 10, 1.5, 0, 0, 11, 0, 0, 0.8, 12, 0, 0, 0, 1})));
  // T2⁻¹ = [A⁻¹ −A⁻¹t]: diag(1/1.2, 1/1.5, 1.25), −(10/1.2, 11/1.5, 15).
  EXPECT_THAT(Output(kMatrices, "T4.outT"),
              ::testing::ElementsAreArray(Near({1 / 1.2, 0, 0, -10 / 1.2, 0, 1 / 1.5, 0, -11 / 1.5,
                                                0, 0, 1.25, -15, 0, 0, 0, 1})));
  // Into a loader's transformation: (0,0,0) → (10,11,12), (1,0,0) → (10, 12.5, 12).
  EXPECT_THAT(
      Output(std::string(kMatrices) +
                 R"(<StringMeshCreator name="s" resolution="2" transformation="@T3.outT"/>)",
             "s.position"),
      ::testing::ElementsAreArray(Near({10, 11, 12, 10, 12.5, 12})));
  // A singular matrix cannot be inverted; SOFA's unset scale is 0 0 0.
  EXPECT_THAT(ErrorOf(R"(<ScaleTransformMatrixEngine name="S"/>
  <InvertTransformMatrixEngine inT="@S.outT"/>)"),
              HasSubstr("singular"));
}

}  // namespace
}  // namespace fluxion
