// Conformance check 6, "no heap allocation in a steady-state step", for every registered solver:
// the damped nonlinear chain (stiffness and damping assembly, velocity-dependent forces) is
// stepped a few times, then ten steps must not call malloc or its siblings once (the executable
// counts them, allocation_counter.cpp). Solvers that declare SOFA's Rayleigh damping attributes
// run with them switched on, so that their damping code paths run too; solvers that need a linear
// solver run with each: CGLinearSolver and SparseLDLSolver. Skipped under AddressSanitizer, which
// owns malloc.
#include <gtest/gtest.h>

#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

#include "conformance/allocation_counter.h"
#include "conformance/conformance_scenes.h"
#include "conformance/solver_catalog.h"
#include "fluxion/threads.h"
#include "support/test_support.h"

namespace fluxion::conformance {
namespace {

/// One solver with one of the linear solvers it can use.
struct SolverSetup {
  SolverDescription solver;
  LinearSolver linear = LinearSolver::kNone;
};

void PrintTo(const SolverSetup& setup, std::ostream* out) {
  *out << setup.solver.name;
  if (setup.linear != LinearSolver::kNone) *out << " + " << LinearSolverName(setup.linear);
}

std::string TestName(const ::testing::TestParamInfo<SolverSetup>& info) {
  std::string name;
  for (char ch : info.param.solver.name)
    name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  if (info.param.linear != LinearSolver::kNone)
    name += std::string("_") + LinearSolverName(info.param.linear);
  return name;
}

std::vector<SolverSetup> AllSetups() {
  std::vector<SolverSetup> setups;
  for (const SolverDescription& solver : AllSolvers()) {
    if (!WantsLinearSolver(solver)) {
      setups.push_back({solver, LinearSolver::kNone});
      continue;
    }
    setups.push_back({solver, LinearSolver::kCg});
    setups.push_back({solver, LinearSolver::kSparseLdl});
  }
  return setups;
}

// The Rayleigh coefficients of SOFA's solvers, when the solver declares them: small enough to
// leave the chain's motion alone, non-zero so that the mass and stiffness damping terms run.
std::string DampingAttributes(const SolverDescription& solver) {
  std::string attributes;
  if (solver.declares("rayleighMass")) attributes += R"( rayleighMass="0.1")";
  if (solver.declares("rayleighStiffness")) attributes += R"( rayleighStiffness="0.01")";
  return attributes;
}

// Past any start-up: the first steps may size lazily-built workspaces or start a multistep
// method's history with a one-step method.
constexpr int kWarmUpSteps = 3;
constexpr int kMeasuredSteps = 10;

// Heap allocations during kMeasuredSteps steps, after kWarmUpSteps.
long SteadyStateAllocations(Simulation& simulation) {
  for (int n = 0; n < kWarmUpSteps; ++n) simulation.Step();
  const long before = AllocationCount();
  for (int n = 0; n < kMeasuredSteps; ++n) simulation.Step();
  return AllocationCount() - before;
}

// The benchmark's cloth of n × n points (two corners fixed, springs on the grid's edges) under
// `solvers`: the ODE solver and its linear solver.
std::string ClothScene(int n, const std::string& dt, const std::string& solvers) {
  return Fill(R"(<Node name="root" gravity="0 -9.81 0" dt="{dt}">
  {solvers}
  <Node name="cloth">
    <RegularGridTopology n="{n} 1 {n}" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 {last}"/>
    <MeshSpringForceField linesStiffness="100" linesDamping="0.1"/>
  </Node>
</Node>)",
              {{"dt", dt},
               {"solvers", solvers},
               {"n", std::to_string(n)},
               {"last", std::to_string(n - 1)}});
}

class SolverStepAllocation : public testing::QuietTest,
                             public ::testing::WithParamInterface<SolverSetup> {};

TEST_P(SolverStepAllocation, SteadyStateStepsDoNotAllocate) {
  if (!CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer: nothing to count";
  const SolverSetup& setup = GetParam();
  const std::string attributes = DampingAttributes(setup.solver);
  Simulation simulation =
      LoadScene(DampedChainScene(SolverXml(setup.solver, setup.linear, attributes)));
  const long allocations = SteadyStateAllocations(simulation);
  EXPECT_EQ(allocations, 0) << ::testing::PrintToString(setup) << attributes << ": " << allocations
                            << " allocations in " << kMeasuredSteps << " steps";
}

INSTANTIATE_TEST_SUITE_P(Registered, SolverStepAllocation, ::testing::ValuesIn(AllSetups()),
                         TestName);

// A mapped object's forces, stiffness and state are evaluated through its mapping in scratch
// buffers sized when the scene is built: steps stay allocation-free with mappings too, linear
// (barycentric, subset) and nonlinear (the grid's edge lengths, with geometric stiffness).
std::string MappedScene(const std::string& solver) {
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  )" + solver +
         R"(
  <Node name="grid">
    <RegularGridTopology n="3 2 2" min="0 0 0" max="2 1 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="0.5"/>
    <RegularGridSpringForceField stiffness="200" damping="1"/>
    <FixedProjectiveConstraint indices="0 3"/>
    <Node name="points">
      <MechanicalObject name="dofs" position="0.25 0.5 0.5  1.75 0.25 0.6  1 0.8 0.2"/>
      <UniformMass vertexMass="0.3"/>
      <SpringForceField spring="0 1 40 0.5 1  1 2 25 0.5 1"/>
      <BarycentricMapping/>
    </Node>
    <Node name="corner">
      <MechanicalObject name="dofs"/>
      <SubsetMapping indices="5 11"/>
      <ConstantForceField indices="0" forces="0 1 0"/>
    </Node>
    <Node name="lengths">
      <MechanicalObject name="dofs" template="Vec1"/>
      <DistanceMapping geometricStiffness="Exact"/>
      <RestShapeSpringsForceField template="Vec1" stiffness="50"/>
    </Node>
  </Node>
</Node>)";
}

TEST(MappedSceneStepAllocation, SteadyStateStepsDoNotAllocate) {
  if (!CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer: nothing to count";
  for (const char* solver :
       {R"(<EulerImplicitSolver rayleighStiffness="0.01" rayleighMass="0.1"/><CGLinearSolver/>)",
        R"(<EulerImplicitSolver/><SparseLDLSolver/>)",
        R"(<EulerExplicitSolver symplectic="1"/><SparseLDLSolver/>)"}) {
    Simulation simulation = LoadScene(MappedScene(solver));
    EXPECT_EQ(SteadyStateAllocations(simulation), 0) << solver;
  }
}

// PCGLinearSolver with each preconditioner (the exact AsyncSparseLDLSolver, refreshed every step;
// Jacobi; block Jacobi; at assemblingRate 1 each is rebuilt in every step) and without one
// (matrix-free): its work vectors and the preconditioner's are sized in the first step.
TEST(PcgStepAllocation, SteadyStateStepsDoNotAllocate) {
  if (!CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer: nothing to count";
  for (
      const char* linear :
      {R"(<PCGLinearSolver preconditioner="@p"/><AsyncSparseLDLSolver name="p"/>)",
       R"(<PCGLinearSolver iterations="200" preconditioner="@p"/><JacobiPreconditioner name="p"/>)",
       R"(<PCGLinearSolver iterations="200" preconditioner="@p"/>
           <BlockJacobiPreconditioner name="p"/>)",
       R"(<PCGLinearSolver iterations="200"/>)"}) {
    Simulation simulation = LoadScene(ClothScene(
        12, "0.01",
        std::string(R"(<EulerImplicitSolver rayleighStiffness="0.01" rayleighMass="0.1"/>)") +
            linear));
    EXPECT_EQ(SteadyStateAllocations(simulation), 0) << linear;
  }
}

// SparseLDLSolver on a cloth large enough for CHOLMOD's supernodal factorisation (60 × 60 points,
// 10 800 DOFs: BLAS kernels on supernodes), whose numeric phase allocates temporaries in every
// call: they are recycled (linear/cholmod_cholesky.h), so steady-state steps do not allocate.
TEST(SupernodalStepAllocation, SteadyStateStepsDoNotAllocate) {
  if (!CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer: nothing to count";
  Simulation simulation = LoadScene(ClothScene(
      60, "0.001",
      R"(<EulerImplicitSolver rayleighStiffness="0.01" rayleighMass="0.1"/><SparseLDLSolver/>)"));
  EXPECT_EQ(SteadyStateAllocations(simulation), 0);
}

// With two threads the parallel paths run (springs over a point partition, vector passes split):
// a cloth above the parallel thresholds (fluxion/threads.h) steps without allocating either, once
// the partition exists (it is built on the first step after the thread count changed).
TEST(ThreadedStepAllocation, SteadyStateStepsDoNotAllocate) {
  if (!CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer: nothing to count";
  SetThreadCount(2);
  for (const char* solver : {"<EulerExplicitSolver/>", "<RungeKutta4Solver/>",
                             "<EulerImplicitSolver/><CGLinearSolver iterations=\"5\"/>"}) {
    Simulation simulation = LoadScene(ClothScene(110, "1e-6", solver));
    EXPECT_EQ(SteadyStateAllocations(simulation), 0) << solver;
  }
  SetThreadCount(0);
}

// The counter itself, so that "0 allocations" above cannot be vacuous: it sees a malloc of this
// executable, and the allocations made inside the framework library while a scene is loaded
// (the executable's malloc interposes for the shared libraries).
TEST(AllocationCounter, CountsMallocHereAndInSharedLibraries) {
  if (!CountsAllocations()) GTEST_SKIP() << "malloc belongs to AddressSanitizer: nothing to count";
  void* (*volatile allocate)(std::size_t) = &std::malloc;  // volatile: not optimised away
  const long before_malloc = AllocationCount();
  void* block = allocate(64);
  EXPECT_EQ(AllocationCount() - before_malloc, 1);
  std::free(block);

  const long before_load = AllocationCount();
  const std::vector<SolverDescription> solvers = AllSolvers();
  ASSERT_FALSE(solvers.empty());
  (void)LoadScene(DampedChainScene(SolverXml(solvers.front())));
  EXPECT_GT(AllocationCount() - before_load, 0);
}

}  // namespace
}  // namespace fluxion::conformance
