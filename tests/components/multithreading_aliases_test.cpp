// SOFA components Fluxion reads as their twins. MultiThreading's plugin components
// (ParallelMeshSpringForceField, ParallelSpringForceField and its old name
// ParallelStiffSpringForceField, ParallelCGLinearSolver): the same scene written either way gives
// the same trajectory, bit for bit, since the same code runs; RequiredPlugin MultiThreading is
// accepted like SOFA's module names. And SOFA's linear-system storage (MatrixLinearSystem, linked
// from a linear solver's `linearSystem`): ignored, the same run as without it.
#include <gmock/gmock.h>

#include <string>

#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

// A 3×3×2 grid hanging from its z = 0 face, implicit Euler with CG, springs on the grid's
// elements and one extra spring; `spring`, `mesh_springs` and `cg` name the components.
std::string Scene(const std::string& plugin, const std::string& mesh_springs,
                  const std::string& spring, const std::string& cg) {
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  )" + plugin +
         R"(
  <EulerImplicitSolver/>
  <)" + cg +
         R"( iterations="25" tolerance="1e-9" threshold="1e-9"/>
  <MechanicalObject name="dofs"/>
  <RegularGridTopology n="3 3 2" min="0 0 0" max="1 1 1"/>
  <UniformMass totalMass="2"/>
  <BoxROI name="box" box="-0.1 -0.1 -0.1 1.1 1.1 0.1"/>
  <FixedProjectiveConstraint indices="@box.indices"/>
  <)" + mesh_springs +
         R"( stiffness="300" damping="1"/>
  <)" + spring +
         R"( spring="0 17 50 0.5 1.2"/>
</Node>)";
}

Vector FinalPositions(const std::string& xml) {
  Simulation simulation = LoadScene(xml);
  for (int step = 0; step < 20; ++step) simulation.Step();
  return simulation.position(0);
}

class MultiThreadingAliases : public testing::QuietTest {};

TEST_F(MultiThreadingAliases, ParallelComponentsComputeWhatTheirTwinsCompute) {
  const Vector sequential =
      FinalPositions(Scene("", "MeshSpringForceField", "SpringForceField", "CGLinearSolver"));
  const Vector parallel = FinalPositions(
      Scene(R"(<RequiredPlugin pluginName="MultiThreading"/>)", "ParallelMeshSpringForceField",
            "ParallelSpringForceField", "ParallelCGLinearSolver"));
  const Vector renamed = FinalPositions(
      Scene(R"(<RequiredPlugin name="MultiThreading"/>)", "ParallelMeshSpringForceField",
            "ParallelStiffSpringForceField", "ParallelCGLinearSolver"));
  // The grid moved (the comparison is not between two untouched states).
  Simulation start =
      LoadScene(Scene("", "MeshSpringForceField", "SpringForceField", "CGLinearSolver"));
  EXPECT_GT((sequential - start.position(0)).norm(), 1e-3);
  EXPECT_EQ(parallel, sequential);
  EXPECT_EQ(renamed, sequential);
}

TEST_F(MultiThreadingAliases, SofaLinearSystemStorageChangesNothing) {
  std::string direct = Scene("", "MeshSpringForceField", "SpringForceField", "SparseLDLSolver");
  const std::string cg_attributes = R"( iterations="25" tolerance="1e-9" threshold="1e-9")";
  direct.erase(direct.find(cg_attributes), cg_attributes.size());
  std::string stored = direct;
  stored.replace(stored.find("<SparseLDLSolver"), std::string("<SparseLDLSolver").size(),
                 R"(<MatrixLinearSystem template="CompressedRowSparseMatrixd" name="system"/>
  <EigenSimplicialLDLT template="CompressedRowSparseMatrixd" linearSystem="@system")");
  EXPECT_EQ(FinalPositions(stored), FinalPositions(direct));
}

}  // namespace
}  // namespace fluxion
