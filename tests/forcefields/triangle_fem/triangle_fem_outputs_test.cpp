// The triangular membranes' per-element von Mises stress (Fluxion's output `vonMisesPerElement`,
// what --vtk writes as cell data) through the public Simulation::ElementOutputs, against closed
// forms of a homogeneous in-plane stretch of a rectangle of two triangles: x = R·F·X with
// F = diag(1 + e, 1 − ν·e, 1) and R a rotation.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include <Eigen/Geometry>

#include "fluxion/simulation.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class TriangleFemOutputs : public testing::QuietTest {};

constexpr double kYoung = 1e6, kPoisson = 0.3, kStrain = 0.01;
constexpr double kWidth = 2.0, kHeight = 1.0;

// The rectangle's corners 0 (0, 0), 1 (w, 0), 2 (w, h), 3 (0, h). Each triangle's first edge
// lies along x (0 → 1 and 2 → 3), so that its frame stays the world's under the stretch.
Eigen::Vector3d Corner(int i) {
  return Eigen::Vector3d((i == 1 || i == 2) ? kWidth : 0.0, i >= 2 ? kHeight : 0.0, 0.0);
}

std::string Points(const Eigen::Matrix3d& map) {
  std::ostringstream out;
  out.precision(17);
  for (int i = 0; i < 4; ++i) {
    const Eigen::Vector3d p = map * Corner(i);
    out << p.x() << ' ' << p.y() << ' ' << p.z() << ' ';
  }
  return out.str();
}

// The rectangle at rest in a MeshTopology of two triangles (or one quad), its points at map·X,
// under `field` (a force field element with its attributes).
std::string Rectangle(const Eigen::Matrix3d& map, const std::string& field, bool quad = false) {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/><CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-20"/>
  <MeshTopology name="mesh" position=")" +
         Points(Eigen::Matrix3d::Identity()) +
         (quad ? R"(" quads="0 1 2 3"/>)" : R"(" triangles="0 1 3  2 3 1"/>)") +
         R"(<MechanicalObject name="dofs" position=")" + Points(map) + R"(" rest_position=")" +
         Points(Eigen::Matrix3d::Identity()) + R"("/>
  <UniformMass totalMass="1"/>)" +
         field + "</Node>";
}

const Eigen::Matrix3d kStretch =
    Eigen::Vector3d(1 + kStrain, 1 - kPoisson * kStrain, 1).asDiagonal();
const Eigen::Matrix3d kRotation =
    Eigen::AngleAxisd(2.0 * M_PI / 3.0, Eigen::Vector3d::Ones().normalized()).toRotationMatrix();

// √(½((σx − σy)² + (σy − σz)² + (σz − σx)²)) for principal stresses (no shear here).
double VonMises(double sx, double sy, double sz) {
  return std::sqrt(0.5 * ((sx - sy) * (sx - sy) + (sy - sz) * (sy - sz) + (sz - sx) * (sz - sx)));
}

// Plane stress of a strain (ex, ey): σx = E/(1 − ν²)·(ex + ν·ey), σy = E/(1 − ν²)·(ey + ν·ex).
double PlaneStressVonMises(double ex, double ey) {
  const double c = kYoung / (1 - kPoisson * kPoisson);
  return VonMises(c * (ex + kPoisson * ey), c * (ey + kPoisson * ex), 0.0);
}

// The strain TriangleFEMForceField and TriangularFEMForceField measure: their gradients come
// from the current triangle (b', c') = ((1 + e)·w, (1 − ν·e)·h), so for d = B − b', D − c'
//   ε_xx = d_b,x / b'_x = −e/(1 + e),   ε_yy = d_c,y / c'_y = ν·e/(1 − ν·e)
// (the sign is SOFA's D = rest − current; the measure ignores it).
double CurrentStrainX() { return -kStrain / (1 + kStrain); }
double CurrentStrainY() { return kPoisson * kStrain / (1 - kPoisson * kStrain); }

void ExpectEveryElement(Simulation& simulation, double expected, std::size_t count,
                        const std::string& component) {
  const std::vector<ElementValues> outputs = simulation.ElementOutputs();
  ASSERT_EQ(outputs.size(), 1u);
  const ElementValues& output = outputs[0];
  EXPECT_EQ(output.component, component);
  EXPECT_EQ(output.name, "vonMisesPerElement");
  EXPECT_EQ(output.unit, "Pa");
  EXPECT_EQ(output.type, ElementType::kTriangle);
  ASSERT_EQ(output.values.size(), count);
  for (const double value : output.values) EXPECT_NEAR(value, expected, 1e-10 * expected);
}

TEST_F(TriangleFemOutputs, OptimIsTheUniaxialStressAndIgnoresARotation) {
  // Optim's gradients are the rest triangle's: ε = (e, −ν·e, 0) exactly, and plane stress gives
  // σ = (E·e, 0, 0): von Mises E·e, whatever rigid rotation follows the stretch.
  const double expected = kYoung * kStrain;
  EXPECT_NEAR(PlaneStressVonMises(kStrain, -kPoisson * kStrain), expected, 1e-9);
  for (const Eigen::Matrix3d& map : {kStretch, Eigen::Matrix3d(kRotation * kStretch)}) {
    Simulation simulation = LoadScene(Rectangle(
        map,
        R"(<TriangularFEMForceFieldOptim name="fem" youngModulus="1e6" poissonRatio="0.3"/>)"));
    ExpectEveryElement(simulation, expected, 2, "root/fem");
    EXPECT_EQ(simulation.ElementOutputs()[0].topology, simulation.objects()[0].topology);
  }
}

TEST_F(TriangleFemOutputs, TriangularFemMeasuresTheStrainOfTheCurrentTriangle) {
  // method large: the strain of the current gradients (CurrentStrainX/Y), not e and −ν·e: at
  // e = 1 % the two von Mises values differ by about 1 %.
  const double expected = PlaneStressVonMises(CurrentStrainX(), CurrentStrainY());
  EXPECT_GT(std::abs(expected - kYoung * kStrain), 5e-3 * expected);
  for (const Eigen::Matrix3d& map : {kStretch, Eigen::Matrix3d(kRotation * kStretch)}) {
    Simulation simulation = LoadScene(Rectangle(
        map, R"(<TriangularFEMForceField name="fem" youngModulus="1e6" poissonRatio="0.3"/>)"));
    ExpectEveryElement(simulation, expected, 2, "root/fem");
  }
}

TEST_F(TriangleFemOutputs, PlaneStrainAddsTheOutOfPlaneStressAndNotTheThickness) {
  // TriangleFEMForceField planeStrain=1: σx = E/((1 + ν)(1 − 2ν))·((1 − ν)·εx + ν·εy), σy the
  // same with x and y swapped, σz = ν·(σx + σy) (εz = 0); the thickness scales the force, not
  // the stress.
  const double ex = CurrentStrainX(), ey = CurrentStrainY();
  const double c = kYoung / ((1 + kPoisson) * (1 - 2 * kPoisson));
  const double sx = c * ((1 - kPoisson) * ex + kPoisson * ey);
  const double sy = c * ((1 - kPoisson) * ey + kPoisson * ex);
  const double expected = VonMises(sx, sy, kPoisson * (sx + sy));
  Simulation simulation =
      LoadScene(Rectangle(kStretch, R"(<TriangleFEMForceField name="fem" youngModulus="1e6"
          poissonRatio="0.3" planeStrain="1" thickness="2.5"/>)"));
  ExpectEveryElement(simulation, expected, 2, "root/fem");
}

TEST_F(TriangleFemOutputs, SplitQuadsGetATopologyOfTheirOwnAndRestIsZero) {
  // TriangleFEMForceField on quads splits each into (q0, q1, q2), (q0, q2, q3): the output's
  // topology holds those two triangles, not the object's quad. At rest: zero stress.
  Simulation simulation = LoadScene(Rectangle(
      Eigen::Matrix3d::Identity(),
      R"(<TriangleFEMForceField name="fem" youngModulus="1e6" poissonRatio="0.3"/>)", true));
  const std::vector<ElementValues> outputs = simulation.ElementOutputs();
  ASSERT_EQ(outputs.size(), 1u);
  ASSERT_NE(outputs[0].topology, nullptr);
  EXPECT_NE(outputs[0].topology, simulation.objects()[0].topology);
  ASSERT_EQ(outputs[0].topology->triangles.size(), 2u);
  EXPECT_EQ(outputs[0].topology->triangles[1], (std::array<Index, 3>{0, 2, 3}));
  for (const double value : outputs[0].values) EXPECT_EQ(value, 0.0);
}

}  // namespace
}  // namespace fluxion
