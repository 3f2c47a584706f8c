// IdentityMultiMapping (SOFA's multi-mapping that concatenates its inputs): the output's state is
// the inputs' states one after another; its forces act on the inputs as Jᵀ·f, its stiffness as
// Jᵀ·K·J (checked against finite differences of the pulled-back forces), its mass as Jᵀ·M·J.
// Independent numbers: the concatenation written by hand, one explicit step's velocity F·h/m,
// central differences, unit masses.
#include <gmock/gmock.h>

#include <cmath>
#include <string>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

class IdentityMultiMapping : public testing::QuietTest {};

// SOFA's example (examples/Component/Mapping/Linear/IdentityMultiMapping.scn) in miniature: two
// objects without mass, the second in a child node of the first, concatenated in a node below
// them that holds the mass, a load on its point 4 (the second input's point 1) and `mechanics`.
std::string Concatenation(const std::string& solver, const std::string& mechanics) {
  return R"(<Node name="root" dt="0.02" gravity="0 0 0">
  )" + solver +
         R"(
  <Node name="object1">
    <MechanicalObject name="dof1" position="0 0 0  1 0 0  0 1 0" velocity="0 0 0  0.5 0 0  0 0 0"/>
    <Node name="object2">
      <MechanicalObject name="dof2" position="2 0 0  3 0.5 0"/>
      <Node name="concatenation">
        <MechanicalObject name="dofall"/>
        <IdentityMultiMapping template="Vec3,Vec3" input="@../../dof1 @../dof2"
                              output="@./dofall"/>
        <UniformMass vertexMass="1"/>
        <ConstantForceField indices="4" forces="2 0 0"/>
        )" +
         mechanics + R"(
      </Node>
    </Node>
  </Node>
</Node>)";
}

constexpr const char* kImplicit =
    R"(<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/><SparseLDLSolver/>)";
constexpr const char* kSprings =
    R"(<SpringForceField spring="0 3 40 0 0.5  1 4 25 0 1.5  2 4 30 0 0.7"/>)";

TEST_F(IdentityMultiMapping, OutputIsTheInputsOneAfterAnother) {
  Simulation simulation = LoadScene(Concatenation(kImplicit, kSprings));
  const int dof1 = simulation.FindObject("root/object1/dof1");
  const int dof2 = simulation.FindObject("root/object1/object2/dof2");
  const int all = simulation.FindObject("root/object1/object2/concatenation/dofall");
  ASSERT_GE(all, 0);
  ASSERT_EQ(simulation.solver_nodes().size(), 1u);
  EXPECT_EQ(simulation.solver_nodes()[0].system->num_dofs(), 15);  // the inputs' DOFs only
  const Vector start = simulation.position(all);
  const Vector written = (Vector(15) << 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, 3, 0.5, 0).finished();
  EXPECT_EQ(start, written);
  EXPECT_EQ(simulation.velocity(all)[3], 0.5);
  for (int step = 0; step < 20; ++step) simulation.Step();
  const Vector a = simulation.position(dof1), b = simulation.position(dof2);
  const Vector x = simulation.position(all), v = simulation.velocity(all);
  ASSERT_EQ(x.size(), 15);
  for (Index i = 0; i < 9; ++i) {
    EXPECT_EQ(x[i], a[i]) << i;
    EXPECT_EQ(v[i], simulation.velocity(dof1)[i]) << i;
  }
  for (Index i = 0; i < 6; ++i) {
    EXPECT_EQ(x[9 + i], b[i]) << i;
    EXPECT_EQ(v[9 + i], simulation.velocity(dof2)[i]) << i;
  }
  EXPECT_GT((x - start).norm(), 0.1);  // it moved
}

TEST_F(IdentityMultiMapping, ForceOnTheOutputReachesTheInputPoint) {
  // One explicit Euler step from rest: only the second input's point 1 gains velocity F·h/m,
  // m = 1 from the output's mass through Jᵀ·M·J.
  Simulation simulation = LoadScene(Concatenation(R"(<EulerExplicitSolver symplectic="1"/>)", ""));
  const int dof1 = simulation.FindObject("root/object1/dof1");
  const int dof2 = simulation.FindObject("root/object1/object2/dof2");
  Vector still = Vector::Zero(9);
  simulation.SetVelocity(dof1, still);
  simulation.Step();
  EXPECT_EQ(simulation.velocity(dof1), still);
  const Vector expected = (Vector(6) << 0, 0, 0, 2 * 0.02, 0, 0).finished();
  EXPECT_NEAR((simulation.velocity(dof2) - expected).norm(), 0.0, 1e-15);
  const MechanicalSystem& system = *simulation.solver_nodes()[0].system;
  EXPECT_TRUE(system.is_mass_diagonal());
  EXPECT_EQ(Vector(system.mass().diagonal()), Vector::Ones(15));
}

TEST_F(IdentityMultiMapping, StiffnessIsTheDerivativeOfThePulledBackForces) {
  // Springs between points of both inputs: K = −∂f/∂x of the system's force (central
  // differences, h = 1e-6), and f = −∂V/∂x.
  Simulation simulation = LoadScene(Concatenation(kImplicit, kSprings));
  const SolverNode& node = simulation.solver_nodes()[0];
  const MechanicalSystem& system = *node.system;
  State state = node.state;
  for (Index i = 0; i < state.x.size(); ++i)
    state.x[i] += 0.1 * std::sin(1.3 * static_cast<double>(i) + 0.2);
  SparseMatrix assembled = system.CreateMatrix();
  system.AssembleStiffness(state, assembled);
  const Eigen::MatrixXd K(assembled);
  const double h = 1e-6;
  const Index n = system.num_dofs();
  Vector plus_f(n), minus_f(n), f(n);
  system.ComputeForce(state, f);
  for (Index j = 0; j < n; ++j) {
    State plus = state, minus = state;
    plus.x[j] += h;
    minus.x[j] -= h;
    system.ComputeForce(plus, plus_f);
    system.ComputeForce(minus, minus_f);
    const Vector column = -(plus_f - minus_f) / (2 * h);
    for (Index i = 0; i < n; ++i) EXPECT_NEAR(K(i, j), column[i], 1e-6) << i << ", " << j;
    const double gradient =
        (system.PotentialEnergy(plus) - system.PotentialEnergy(minus)) / (2 * h);
    EXPECT_NEAR(f[j], -gradient, 1e-6) << j;
  }
  // The springs couple the two inputs: point 0 of dof1 (DOF 0) with point 0 of dof2 (DOF 9).
  EXPECT_NE(K(0, 9), 0.0);
}

TEST_F(IdentityMultiMapping, RefusesInputsUnderTwoSolversAndRepeatedOrMissingInputs) {
  const auto errors = [](const std::string& xml) {
    try {
      LoadScene(xml);
    } catch (const SceneError& error) {
      return std::string(error.what());
    }
    return std::string("(loaded)");
  };
  EXPECT_THAT(errors(R"(<Node name="root">
    <Node name="a"><EulerImplicitSolver/><CGLinearSolver/>
      <MechanicalObject name="dof1" position="0 0 0"/><UniformMass vertexMass="1"/></Node>
    <Node name="b"><EulerImplicitSolver/><CGLinearSolver/>
      <MechanicalObject name="dof2" position="1 0 0"/><UniformMass vertexMass="1"/></Node>
    <Node name="c"><MechanicalObject name="all"/>
      <IdentityMultiMapping input="@../a/dof1 @../b/dof2" output="@all"/></Node></Node>)"),
              HasSubstr("which different solvers integrate"));
  EXPECT_THAT(errors(Concatenation(kImplicit, "")).find("(loaded)"), 0u);
  std::string twice = Concatenation(kImplicit, "");
  twice.replace(twice.find("@../dof2"), 8, "@../../dof1");
  EXPECT_THAT(errors(twice), HasSubstr("twice among its inputs"));
  std::string none = Concatenation(kImplicit, "");
  none.replace(none.find(R"(input="@../../dof1 @../dof2")"), 28, "");
  EXPECT_THAT(errors(none), HasSubstr("needs 'input'"));
}

}  // namespace
}  // namespace fluxion
