// SOFA's engines that generate meshes and transform points (components/generate_grid.cpp,
// generate_cylinder.cpp, spiral.cpp, transform_position.cpp), on small inputs whose outputs are
// worked by hand: point and element numbering in SOFA's order, and closed forms (volumes of the
// generated tetrahedra, a closed surface's enclosed volume). An output is read back through a link
// into a Vec1 probe object (testing::DataOutput).
#include <gmock/gmock.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::Pointwise;
namespace fs = std::filesystem;

// cos and sin of multiples of π/2 leave ~6e-17; sums of a few dozen such volumes stay near 1e-15.
constexpr double kRoundOff = 1e-12;

std::vector<double> Output(const std::string& engine, const std::string& output) {
  return testing::DataOutput(engine, output);
}

std::string ErrorOf(const std::string& engines) {
  try {
    testing::LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0"><EulerExplicitSolver/>)" +
                       engines + "</Node>");
  } catch (const SceneError& error) {
    if (error.diagnostics().size() != 1) return "several errors: " + std::string(error.what());
    return error.diagnostics()[0].message;
  }
  return "no error";
}

// The sum of the unsigned volumes |(b − a)·((c − a)×(d − a))|/6 of tetrahedra (4 indices each).
double TetrahedraVolume(const std::vector<double>& x, const std::vector<double>& tetrahedra) {
  double volume = 0;
  for (std::size_t t = 0; t + 3 < tetrahedra.size(); t += 4) {
    const auto p = [&](int k) {
      const std::size_t i = 3 * static_cast<std::size_t>(tetrahedra[t + k]);
      return std::array<double, 3>{x[i], x[i + 1], x[i + 2]};
    };
    const auto a = p(0), b = p(1), c = p(2), d = p(3);
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    volume += std::abs(u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                       u[2] * (v[0] * w[1] - v[1] * w[0])) /
              6.0;
  }
  return volume;
}

class GenerateEngines : public testing::QuietTest {};

TEST_F(GenerateEngines, GenerateGridNumbersPointsHexahedraAndTetrahedraAsSofa) {
  // 2×1×1 cells on [0, 2]×[0, 1]×[0, 1]: point i + 3·(j + 2·k) at (i, j, k).
  const std::string grid = R"(<GenerateGrid name="g" min="0 0 0" max="2 1 1" resolution="2 1 1"/>)";
  EXPECT_THAT(Output(grid, "g.output_position"),
              ElementsAre(0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0,  //
                          0, 0, 1, 1, 0, 1, 2, 0, 1, 0, 1, 1, 1, 1, 1, 2, 1, 1));
  EXPECT_EQ(Output(grid, "g.position"), Output(grid, "g.output_position"));  // SOFA's alias
  // Hexahedron (i, j, k): the k face from (i, j) counter-clockwise, then the k + 1 face.
  EXPECT_THAT(Output(grid, "g.hexahedra"),
              ElementsAre(0, 1, 4, 3, 6, 7, 10, 9, 1, 2, 5, 4, 7, 8, 11, 10));
  // SOFA's six tetrahedra of h = (0 1 4 3 6 7 10 9): (h0 h5 h1 h6) (h0 h1 h3 h6) (h1 h3 h6 h2)
  // (h6 h3 h0 h7) (h6 h7 h0 h5) (h7 h5 h4 h0).
  const std::vector<double> tetrahedra = Output(grid, "g.tetrahedra");
  ASSERT_EQ(tetrahedra.size(), 48u);
  EXPECT_THAT(
      std::vector<double>(tetrahedra.begin(), tetrahedra.begin() + 24),
      ElementsAre(0, 7, 1, 10, 0, 1, 3, 10, 1, 3, 10, 4, 10, 3, 0, 9, 10, 9, 0, 7, 9, 7, 6, 0));
  // They fill the box without overlap: their volumes add up to its volume, 2.
  EXPECT_NEAR(TetrahedraVolume(Output(grid, "g.position"), tetrahedra), 2.0, kRoundOff);
}

TEST_F(GenerateEngines, GenerateGridWithoutHeightIsAFlatGridOfQuads) {
  // 2×2 cells on [1, 3]×[0, 4], resolution 0 along z: point i + 3·j at (1 + i, 2·j, 0); quads by
  // i, then j innermost; triangles (q0 q1 q3) (q3 q1 q2).
  const std::string grid = R"(<GenerateGrid name="g" min="1 0 0" max="3 4 7" resolution="2 2 0"/>)";
  EXPECT_THAT(
      Output(grid, "g.output_position"),
      ElementsAre(1, 0, 0, 2, 0, 0, 3, 0, 0, 1, 2, 0, 2, 2, 0, 3, 2, 0, 1, 4, 0, 2, 4, 0, 3, 4, 0));
  EXPECT_THAT(Output(grid, "g.quads"), ElementsAre(0, 1, 4, 3, 3, 4, 7, 6, 1, 2, 5, 4, 4, 5, 8, 7));
  EXPECT_THAT(Output(grid, "g.triangles"),
              ElementsAre(0, 1, 3, 3, 1, 4, 3, 4, 6, 6, 4, 7, 1, 2, 4, 4, 2, 5, 4, 5, 7, 7, 5, 8));
  EXPECT_THAT(ErrorOf(R"(<GenerateGrid resolution="0 2 2"/>)"),
              HasSubstr("GenerateGrid 'resolution' has 0 cells along x"));
  EXPECT_THAT(ErrorOf(R"(<GenerateGrid resolution="2 2"/>)"),
              HasSubstr("GenerateGrid 'resolution' has 2 numbers (expected 3: x y z)"));
}

TEST_F(GenerateEngines, GenerateCylinderVolumeInSofasOrder) {
  // 4 points per ring, 1 ring of radius 1, 2 layers 2 apart: per layer the centre, then the ring
  // at θ = 0, π/2, π, 3π/2.
  const std::string cylinder = R"(<GenerateCylinder name="c" radius="1" height="2"
      resCircumferential="4" resRadial="1" resHeight="2" origin="0 0 1"/>)";
  const std::vector<double> x = Output(cylinder, "c.output_position");
  const double expected[] = {0, 0, 1, 1, 0, 1, 0, 1, 1, -1, 0, 1, 0, -1, 1,
                             0, 0, 3, 1, 0, 3, 0, 1, 3, -1, 0, 3, 0, -1, 3};
  EXPECT_THAT(x, Pointwise(DoubleNear(kRoundOff), expected));
  // The prism (centre 5, ring 9 then 6, over 0, 4, 1) as SOFA's three tetrahedra (s1 s0 s2 s3)
  // (s1 s2 s4 s3) (s3 s4 s5 s2), s = (5 9 6 0 4 1).
  const std::vector<double> tetrahedra = Output(cylinder, "c.tetrahedra");
  ASSERT_EQ(tetrahedra.size(), 48u);
  EXPECT_THAT(std::vector<double>(tetrahedra.begin(), tetrahedra.begin() + 12),
              ElementsAre(9, 5, 6, 0, 9, 6, 4, 0, 0, 4, 1, 6));
  // They fill the square prism inscribed in the circle: area 2, height 2.
  EXPECT_NEAR(TetrahedraVolume(x, tetrahedra), 4.0, kRoundOff);
}

TEST_F(GenerateEngines, GenerateCylinderRingsAndClosedSurface) {
  // Two rings (radii 1, 2), 4 points each: prisms to the inner ring and hexahedra between the
  // rings fill the outer square prism, area 2·2² = 8, height 1.
  const std::string cylinder = R"(<GenerateCylinder name="c" radius="2" height="1"
      resCircumferential="4" resRadial="2" resHeight="2" openSurface="0"/>)";
  EXPECT_NEAR(
      TetrahedraVolume(Output(cylinder, "c.output_position"), Output(cylinder, "c.tetrahedra")),
      8.0, kRoundOff);
  // The closed surface: 2 outer rings, then each cap's centre and inner ring (18 points), 8 side
  // triangles, 4 + 8 on each cap. Facing outwards, its enclosed volume Σ a·(b×c)/6 (divergence
  // theorem) is the square prism's, 8.
  const std::vector<double> x = Output(cylinder, "c.output_TrianglesPosition");
  const std::vector<double> triangles = Output(cylinder, "c.triangles");
  ASSERT_EQ(x.size(), 18u * 3);
  ASSERT_EQ(triangles.size(), 32u * 3);
  double volume = 0;
  for (std::size_t t = 0; t < triangles.size(); t += 3) {
    const auto p = [&](int k) { return &x[3 * static_cast<std::size_t>(triangles[t + k])]; };
    const double *a = p(0), *b = p(1), *c = p(2);
    volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0])) /
              6.0;
  }
  EXPECT_NEAR(volume, 8.0, kRoundOff);
  // The side: (i·4 + k, (i − 1)·4 + k, (i − 1)·4 + k + 1) then (i·4 + k, (i − 1)·4 + k + 1,
  // i·4 + k + 1).
  EXPECT_THAT(std::vector<double>(triangles.begin(), triangles.begin() + 6),
              ElementsAre(4, 0, 1, 4, 1, 5));
  EXPECT_THAT(ErrorOf(R"(<GenerateCylinder resHeight="1"/>)"),
              HasSubstr("(expected resHeight ≥ 2"));
  EXPECT_THAT(ErrorOf(R"(<GenerateCylinder resRadial="1" openSurface="0"/>)"),
              HasSubstr("or ≥ 2 with openSurface=0"));
}

TEST_F(GenerateEngines, SpiralRollsTheXAxisUpByArcLength) {
  // A = 0.2. x0 = l(π) = A/2·(π√(1 + π²) + asinh π), the arc length at t = π: the point goes to
  // r = A·π at angle π, (−0.2π, 0), plus y0 along the unit normal (Aπ, −A)/|…| = (π, −1)/√(1 + π²);
  // −x0 to the mirror image r = −A·π. x0 = 0: t = 0, the normal (0, 1) bent to SOFA's
  // (−0.6, 0.8f).
  const double pi = std::numbers::pi, A = 0.2;
  const double l = A / 2 * (pi * std::sqrt(1 + pi * pi) + std::asinh(pi));
  const double s = std::sqrt(1 + pi * pi);
  const double bent = 0.8f;  // SOFA's float constant, in double
  char length[32];
  std::snprintf(length, sizeof length, "%.17g", l);  // every digit: the same double back
  const std::string spiral = std::string(R"(<Spiral name="s" curvature="0.2" rest_position=")") +
                             length + " 1 3  -" + length + R"( 0 4  0 1 2"/>)";
  const std::vector<double> x = Output(spiral, "s.position");
  const std::vector<double> expected = {
      -A * pi + pi / s, -1 / s, 3, A * pi, 0, 4, -std::sqrt(1 - bent * bent), bent, 2};
  // Newton's 10 steps from √l converge to round-off; the bent normal uses the float 0.8f as SOFA.
  EXPECT_THAT(x, Pointwise(DoubleNear(kRoundOff), expected));
}

TEST_F(GenerateEngines, TransformPositionMethodsOnThreePoints) {
  const std::string points = R"(input_position="1 0 0  0 2 0  0 0 3")";
  const auto transform = [&](const std::string& attributes) {
    return Output(R"(<TransformPosition name="t" )" + points + " " + attributes + "/>",
                  "t.output_position");
  };
  // The plane z = 1 (normal (0, 0, 2) made unit): z set to 1.
  EXPECT_THAT(transform(R"(method="projectOnPlane" origin="5 5 1" normal="0 0 2")"),
              ElementsAre(1, 0, 1, 0, 2, 1, 0, 0, 1));
  EXPECT_THAT(transform(R"(method="translation" translation="1 2 3")"),
              ElementsAre(2, 2, 3, 1, 4, 3, 1, 2, 6));
  // A quarter turn about z: (x, y, z) → (−y, x, z).
  EXPECT_THAT(transform(R"(method="rotation" rotation="0 0 90")"),
              Pointwise(DoubleNear(kRoundOff), {0.0, 1.0, 0.0, -2.0, 0.0, 0.0, 0.0, 0.0, 3.0}));
  // About the origin (1, 0, 0), by (2, 3, 4): (1, 0, 0), (−1, 6, 0), (−1, 0, 12).
  EXPECT_THAT(transform(R"(method="scale" origin="1 0 0" scale="2 3 4")"),
              ElementsAre(1, 0, 0, -1, 6, 0, -1, 0, 12));
  EXPECT_THAT(transform(R"(method="scaleTranslation" scale="2 3 4" translation="1 1 1")"),
              ElementsAre(3, 1, 1, 1, 7, 1, 1, 1, 13));
  // Scaled by 2, a quarter turn about x ((x, y, z) → (x, −z, y)), moved by (0, 0, 1).
  EXPECT_THAT(transform(R"(method="scaleRotationTranslation" scale="2 2 2" rotation="90 0 0"
                           translation="0 0 1")"),
              Pointwise(DoubleNear(kRoundOff), {2.0, 0.0, 1.0, 0.0, 0.0, 5.0, 0.0, -6.0, 1.0}));
  // A projective matrix, z moved by 5 and w = 1 + x: (1, 0, 0) → (2, 0, 5)/2, (0, 2, 0) →
  // (0, 2, 5); point 2 is fixed (it would go to (0, 0, 8)).
  EXPECT_THAT(transform(R"(method="affine" matrix="2 0 0 0  0 1 0 0  0 0 1 5  1 0 0 1"
                           fixedIndices="2")"),
              ElementsAre(1, 0, 2.5, 0, 2, 5, 0, 0, 3));
  EXPECT_THAT(ErrorOf(R"(<TransformPosition input_position="1 0 0" method="random"/>)"),
              HasSubstr("method 'random' is not supported"));
  EXPECT_THAT(ErrorOf(R"(<TransformPosition input_position="1 0 0"/>)"),
              HasSubstr("method 'projectOnPlane' has the normal 0 0 0"));
  EXPECT_THAT(ErrorOf(R"(<TransformPosition input_position="1 0 0" method="affine"
                         matrix="1 0 0 0  0 1 0 0  0 0 1 0  -1 0 0 1"/>)"),
              HasSubstr("maps point 0 to infinity"));
  EXPECT_THAT(ErrorOf(R"(<TransformPosition input_position="1 0 0" method="translation"
                         fixedIndices="1"/>)"),
              HasSubstr("'fixedIndices' has 1 (expected indices below the 1 input points)"));
}

TEST_F(GenerateEngines, TransformPositionFromSofasTfmFile) {
  // SOFA's transfo.tfm: the rotation (x, y, z) → (x, −z, y) and the translation (0, 2, 0).
  const fs::path folder =
      fs::path(::testing::TempDir()) / ("fluxion_transform_position_" + std::to_string(::getpid()));
  fs::create_directories(folder);
  std::ofstream(folder / "transfo.tfm")
      << "#Insight Transform File V1.0\n#Transform 0\nTransform: AffineTransform_double_3_3\n"
         "Parameters: 1 0 0 0 0 -1 0 1 0 0 2 0\nFixedParameters: 0 0 0\n";
  std::ofstream(folder / "scene.scn") << R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  <TransformPosition name="t" method="fromFile" filename="transfo.tfm"
                     input_position="1 0 0  0 2 0  0 0 3"/>
  <MechanicalObject position="@t.output_position"/>
  <UniformMass vertexMass="1"/>
</Node>)";
  const Simulation simulation = testing::TestHost().LoadFile((folder / "scene.scn").string());
  const Vector& x = simulation.objects().at(0).position;
  EXPECT_THAT(std::vector<double>(x.data(), x.data() + x.size()),
              ElementsAre(1, 2, 0, 0, 2, 2, 0, -1, 0));
  fs::remove_all(folder);
}

}  // namespace
}  // namespace fluxion
