// Simulation::ComponentMatrix and Simulation::LastLinearSystem (fluxion/simulation.h), the host
// API behind SofaPython3's assembleMMatrix/assembleKMatrix and MatrixLinearSystem.A(): a
// consistent tetrahedron mass against its closed form, a force field coupling two objects
// refused, and the recorded system of an implicit step against M + h²K.
#include <string>

#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion::internal {
namespace {

using fluxion::testing::LoadScene;

class ComponentMatrices : public fluxion::testing::QuietTest {};

// One tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1) of volume 1/6 and density ρ = 120: SOFA's
// MeshMatrixMass (lumping=0) gives the consistent linear-element mass ρV/20·(1 + δij) per axis
// (Zienkiewicz, The Finite Element Method, linear tetrahedron): 2 on the diagonal, 1 elsewhere.
TEST_F(ComponentMatrices, ConsistentMassOfOneTetrahedronIsTheClosedForm) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="tet">
    <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0  0 0 1"/>
    <TetrahedronSetTopologyContainer tetrahedra="0 1 2 3"/>
    <MeshMatrixMass name="mass" massDensity="120" lumping="0"/>
  </Node>
</Node>)");
  const SparseMatrix M = simulation.ComponentMatrix("root/tet/mass", ComponentMatrixKind::kMass);
  ASSERT_EQ(M.rows(), 12);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          EXPECT_NEAR(M.coeff(3 * i + a, 3 * j + b), a != b ? 0.0 : (i == j ? 2.0 : 1.0), 1e-13)
              << i << " " << j << " " << a << " " << b;
  // The mass adds no stiffness; the object has no stiffness of its own.
  EXPECT_THROW(simulation.ComponentMatrix("root/tet/mass", ComponentMatrixKind::kStiffness),
               UsageError);
  EXPECT_THROW(simulation.ComponentMatrix("root/tet/nothing", ComponentMatrixKind::kMass),
               UsageError);
}

// A spring between two MechanicalObjects has no matrix over one object's DOFs.
TEST_F(ComponentMatrices, ForceFieldCouplingTwoObjectsIsRefused) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="a"><MechanicalObject name="dofs" position="0 0 0"/><UniformMass vertexMass="1"/></Node>
  <Node name="b"><MechanicalObject name="dofs" position="2 0 0"/><UniformMass vertexMass="1"/></Node>
  <SpringForceField name="link" object1="@a/dofs" object2="@b/dofs" spring="0 0 10 0 1"/>
</Node>)");
  try {
    simulation.ComponentMatrix("root/link", ComponentMatrixKind::kStiffness);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("couples 'root/a/dofs' with another object"));
  }
}

// One point of mass 2 on a spring k = 50 (rest length 1, stretched to 1.5) to a fixed point, one
// backward Euler step h = 0.1 from rest: A = M + h²K (K: k along the spring, k(1 − L0/l) across),
// the fixed point's rows the identity; b = h·f.
TEST_F(ComponentMatrices, RecordedSystemOfAnImplicitStep) {
  const std::string scene = R"(<Node name="root" gravity="0 0 0" dt="0.1">
  <Node name="s">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    <SparseLDLSolver/>
    <MatrixLinearSystem/>
    <MechanicalObject name="dofs" position="0 0 0  1.5 0 0"/>
    <UniformMass vertexMass="2"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 50 0 1"/>
  </Node>
</Node>)";
  Simulation simulation = LoadScene(scene);
  EXPECT_EQ(simulation.LastLinearSystem("root/s").solves, 0);
  simulation.Step();
  const LinearSystemRecord record = simulation.LastLinearSystem("root/s");
  EXPECT_EQ(record.solves, 1);
  const double h2 = 0.01, k = 50.0, across = 50.0 * (1.0 - 1.0 / 1.5);
  for (int i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(record.matrix.coeff(i, i), 1.0);
    EXPECT_DOUBLE_EQ(record.matrix.coeff(i, 3 + i), 0.0);
  }
  EXPECT_NEAR(record.matrix.coeff(3, 3), 2.0 + h2 * k, 1e-14);
  EXPECT_NEAR(record.matrix.coeff(4, 4), 2.0 + h2 * across, 1e-14);
  EXPECT_NEAR(record.matrix.coeff(5, 5), 2.0 + h2 * across, 1e-14);
  EXPECT_NEAR(record.rhs[3], 0.1 * -k * 0.5, 1e-15);
  EXPECT_NEAR(record.solution[3], 0.1 * -k * 0.5 / (2.0 + h2 * k), 1e-15);
  EXPECT_THROW(simulation.LastLinearSystem("root"), UsageError);  // no solver node there
}

}  // namespace
}  // namespace fluxion::internal
