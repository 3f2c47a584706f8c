// TetrahedronFEMForceField's per-element output (SOFA's vonMisesPerElement, computeVonMisesStress
// 1 or 2) through the public Simulation::ElementOutputs, against the closed-form von Mises stress
// of a homogeneous deformation: a unit cube of six tetrahedra whose points are moved to x = R·F·X.
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

class TetrahedronFemOutputs : public testing::QuietTest {};

constexpr double kYoung = 1e6, kPoisson = 0.3;

// The cube's corners (x fastest) and its six tetrahedra around the diagonal 0–7.
Eigen::Vector3d Corner(int i) { return Eigen::Vector3d(i & 1, (i >> 1) & 1, (i >> 2) & 1); }
const char* kTetrahedra = "0 1 3 7  0 1 5 7  0 2 3 7  0 2 6 7  0 4 5 7  0 4 6 7";

std::string Points(const Eigen::Matrix3d& map) {
  std::ostringstream out;
  out.precision(17);
  for (int i = 0; i < 8; ++i) {
    const Eigen::Vector3d p = map * Corner(i);
    out << p.x() << ' ' << p.y() << ' ' << p.z() << ' ';
  }
  return out.str();
}

// The cube at rest in its MeshTopology, its points at x = map·X. `in_child`: the force field in
// a child node with a topology of its own (the usual SOFA layout), not the object's.
std::string Cube(const Eigen::Matrix3d& map, const std::string& method, int von_mises,
                 bool in_child = false) {
  const std::string fem = R"(<TetrahedronFEMForceField name="fem" youngModulus="1e6"
      poissonRatio="0.3" method=")" +
                          method + R"(" computeVonMisesStress=")" + std::to_string(von_mises) +
                          R"("/>)";
  const std::string topology = R"(<MeshTopology name="mesh" position=")" +
                               Points(Eigen::Matrix3d::Identity()) + R"(" tetrahedra=")" +
                               kTetrahedra + R"("/>)";
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/><CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-20"/>)" +
         (in_child ? std::string() : topology) + R"(<MechanicalObject name="dofs" position=")" +
         Points(map) + R"(" rest_position=")" + Points(Eigen::Matrix3d::Identity()) + R"("/>
  <UniformMass totalMass="1"/>)" +
         (in_child ? R"(<Node name="tets">)" + topology + fem + "</Node>" : fem) + "</Node>";
}

// σ = λ·tr(ε)·I + 2μ·ε for a diagonal strain, and its von Mises value
// √(½((σ₁−σ₂)² + (σ₂−σ₃)² + (σ₃−σ₁)²)) (the λ term cancels).
double VonMisesOfDiagonalStrain(const Eigen::Vector3d& e) {
  const double mu = kYoung / (2.0 * (1.0 + kPoisson));
  const Eigen::Vector3d d(e[0] - e[1], e[1] - e[2], e[2] - e[0]);
  return 2.0 * mu * std::sqrt(0.5 * d.squaredNorm());
}

const Eigen::Vector3d kStretch(1.01, 0.99, 1.02);

TEST_F(TetrahedronFemOutputs, CorotationalVonMisesIsTheStretchsAndIgnoresARotation) {
  // computeVonMisesStress=1 with large: the strain in the element's frame, F − I for the
  // symmetric F, whatever the rotation R (here 120° about (1, 1, 1)).
  const Eigen::Matrix3d F = kStretch.asDiagonal();
  const Eigen::Matrix3d R =
      Eigen::AngleAxisd(2.0 * M_PI / 3.0, Eigen::Vector3d::Ones().normalized()).toRotationMatrix();
  const double expected = VonMisesOfDiagonalStrain(kStretch - Eigen::Vector3d::Ones());
  EXPECT_NEAR(expected, 20351.93316, 1e-5);  // 2μ·√(½·14e-4), μ = 1e6/2.6
  for (const Eigen::Matrix3d& map : {Eigen::Matrix3d(F), Eigen::Matrix3d(R * F)}) {
    Simulation simulation = LoadScene(Cube(map, "large", 1));
    const std::vector<ElementValues> outputs = simulation.ElementOutputs();
    ASSERT_EQ(outputs.size(), 1u);
    const ElementValues& output = outputs[0];
    EXPECT_EQ(output.component, "root/fem");
    EXPECT_EQ(output.name, "vonMisesPerElement");
    EXPECT_EQ(output.unit, "Pa");
    EXPECT_EQ(output.object, 0);
    EXPECT_EQ(output.type, ElementType::kTetrahedron);
    EXPECT_EQ(output.topology, simulation.objects()[0].topology);
    ASSERT_EQ(output.values.size(), 6u);
    for (const double value : output.values) EXPECT_NEAR(value, expected, 1e-9 * expected);
  }
}

TEST_F(TetrahedronFemOutputs, GreenVonMisesIsTheGreenStrainsStress) {
  // computeVonMisesStress=2: E = ½(FᵀF − I) = ½(F² − I) for the diagonal F.
  const Eigen::Matrix3d F = kStretch.asDiagonal();
  const Eigen::Vector3d green = 0.5 * (kStretch.cwiseProduct(kStretch) - Eigen::Vector3d::Ones());
  const double expected = VonMisesOfDiagonalStrain(green);
  Simulation simulation = LoadScene(Cube(F, "small", 2));
  const std::vector<ElementValues> outputs = simulation.ElementOutputs();
  ASSERT_EQ(outputs.size(), 1u);
  for (const double value : outputs[0].values) EXPECT_NEAR(value, expected, 1e-9 * expected);
  // Not the linear strain's: the two differ by ½(F − I)² (here 0.6 % of the stress).
  EXPECT_GT(std::abs(expected - VonMisesOfDiagonalStrain(kStretch - Eigen::Vector3d::Ones())),
            1e-3 * expected);
}

TEST_F(TetrahedronFemOutputs, FollowsTheStateAndNamesTheComponentsOwnTopology) {
  // In a child node with its own topology: the output names that topology, not the object's;
  // and it is the current state's: at rest, zero.
  Simulation simulation = LoadScene(Cube(kStretch.asDiagonal(), "large", 1, true));
  std::vector<ElementValues> outputs = simulation.ElementOutputs();
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].component, "root/tets/fem");
  ASSERT_NE(outputs[0].topology, nullptr);
  EXPECT_NE(outputs[0].topology, simulation.objects()[0].topology);
  EXPECT_EQ(outputs[0].topology->tetrahedra.size(), 6u);
  EXPECT_GT(outputs[0].values[0], 1e4);
  Vector rest(24);
  for (int i = 0; i < 8; ++i) rest.segment<3>(3 * i) = Corner(i);
  simulation.SetPosition(0, rest);
  outputs = simulation.ElementOutputs();
  for (const double value : outputs[0].values) EXPECT_NEAR(value, 0.0, 1e-9);
}

TEST_F(TetrahedronFemOutputs, NoneWithoutComputeVonMisesStress) {
  // SOFA's computeVonMisesStress=0 computes nothing: no output.
  Simulation simulation = LoadScene(Cube(kStretch.asDiagonal(), "large", 0));
  EXPECT_TRUE(simulation.ElementOutputs().empty());
}

}  // namespace
}  // namespace fluxion
