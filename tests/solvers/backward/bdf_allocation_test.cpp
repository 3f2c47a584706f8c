// No heap allocation in BDFOdeSolver's steady-state step at every order: the conformance suite's
// allocation check runs the solver with its defaults (order 1, no history), so the history code
// of orders 2–6 is checked here, with Rayleigh damping on, both linear solvers and a Newton solver
// that iterates, on the conformance suite's damped nonlinear chain.
#include <gtest/gtest.h>

#include <string>

#include "backward_test_scenes.h"
#include "conformance/allocation_counter.h"

namespace fluxion {
namespace {

using fluxion::conformance::AllocationCount;
using fluxion::conformance::CountsAllocations;

class BdfAllocationTest : public fluxion::testing::QuietTest {};

std::string Chain(int order, const std::string& linear) {
  return R"(<Node name="root" gravity="0 -10 0" dt="0.005">
  <BDFOdeSolver order=")" +
         std::to_string(order) + R"(" rayleighMass="0.1" rayleighStiffness="0.01"/>
  <NewtonRaphsonSolver maxNbIterationsNewton="10" warnWhenLineSearchFails="0"/>
  )" + linear +
         R"(
  <Node name="chain">
    <MechanicalObject template="Vec3d" position="0 0 0  1 0 0  2 0 0"/>
    <DiagonalMass vertexMass="1 1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 150 1 0.5  1 2 150 1 0.5" exactDampingJacobian="1"/>
    <UniformVelocityDampingForceField dampingCoefficient="0.1" implicit="1"/>
  </Node>
</Node>)";
}

TEST_F(BdfAllocationTest, SteadyStateStepsDoNotAllocateAtAnyOrder) {
  if (!CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer: nothing to count";
  for (
      const char* linear :
      {"<SparseLDLSolver/>",
       R"(<CGLinearSolver iterations="3000" tolerance="1e-12" threshold="1e-12"/>)",
       R"(<PCGLinearSolver iterations="1000" preconditioner="@p"/><AsyncSparseLDLSolver name="p"/>)"}) {
    for (int order = 1; order <= 6; ++order) {
      const long before_load = AllocationCount();
      Simulation simulation = fluxion::testing::LoadScene(Chain(order, linear));
      ASSERT_GT(AllocationCount(), before_load);      // the counter counts: loading allocates
      for (int n = 0; n < 8; ++n) simulation.Step();  // past the start-up (order − 1 ≤ 5 steps)
      const long before = AllocationCount();
      for (int n = 0; n < 10; ++n) simulation.Step();
      EXPECT_EQ(AllocationCount() - before, 0) << "BDF" << order << " with " << linear;
    }
  }
}

}  // namespace
}  // namespace fluxion
