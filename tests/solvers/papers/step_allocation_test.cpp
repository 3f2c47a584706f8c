// "No heap allocation in DoStep": every paper solver is stepped on a damped, nonlinear chain with
// Rayleigh damping switched on (so that every code path runs: stiffness and damping assembly,
// trapezoidal damping, history), and every malloc during ten steps is counted. malloc itself is
// replaced (forwarding to glibc's __libc_* entry points), not only operator new, because Eigen
// allocates its vectors with malloc; the executable's definitions interpose for the plugins too.
// Under AddressSanitizer, which owns malloc, the test is skipped. The implicit solvers (the
// trapezoidal rule and SOFA's three) run with each linear solver: CGLinearSolver, and
// SparseLDLSolver, whose numeric factorisation and solves reuse the workspaces of its analysis.
#include <cerrno>
#include <cstddef>
#include <string>

#include "oscillator.h"

#if defined(__SANITIZE_ADDRESS__)
#define FLUXION_COUNT_MALLOC 0
#else
#define FLUXION_COUNT_MALLOC 1
#endif

namespace {
long allocations = 0;  // the tests are single-threaded
}  // namespace

#if FLUXION_COUNT_MALLOC
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);

void* malloc(std::size_t size) noexcept {
  ++allocations;
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  ++allocations;
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) noexcept {
  ++allocations;
  return __libc_realloc(pointer, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  ++allocations;
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** result, std::size_t alignment, std::size_t size) noexcept {
  ++allocations;
  *result = __libc_memalign(alignment, size);
  return *result == nullptr ? ENOMEM : 0;
}
}  // extern "C"
#endif

namespace fluxion {
namespace {

using papers::SolverUnderTest;

std::string DampedChain(const SolverUnderTest& solver) {
  return R"(<Node name="root" gravity="0 -10 0" dt="0.005">
  )" + solver.element +
         (solver.linear_solver ? "<CGLinearSolver/>" : "") +
         R"(
  <Node name="chain">
    <MechanicalObject template="Vec3d" position="0 0 0  1 0 0  2 0 0"/>
    <DiagonalMass vertexMass="1 1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 150 0.5 1  1 2 150 0.5 1" exactDampingJacobian="1"/>
    <UniformVelocityDampingForceField dampingCoefficient="0.1" implicit="1"/>
  </Node>
</Node>)";
}

class PapersStepAllocation : public testing::QuietTest,
                             public ::testing::WithParamInterface<SolverUnderTest> {};

TEST_P(PapersStepAllocation, StepsWithoutAllocating) {
  if (!FLUXION_COUNT_MALLOC) GTEST_SKIP() << "malloc belongs to the sanitizer";
  Simulation simulation = testing::LoadScene(DampedChain(GetParam()));
  for (int n = 0; n < 3; ++n) simulation.Step();  // past any start-up
  const long before = allocations;
  for (int n = 0; n < 10; ++n) simulation.Step();
  EXPECT_EQ(allocations - before, 0) << GetParam().element;
}

INSTANTIATE_TEST_SUITE_P(
    PaperSolvers, PapersStepAllocation,
    ::testing::Values(
        SolverUnderTest{"<SymplecticEulerSolver/>"},
        SolverUnderTest{R"(<StandardHeunSolver rayleighMass="0.1" rayleighStiffness="0.01"/>)"},
        SolverUnderTest{R"(<FalseHeunSolver rayleighMass="0.1" rayleighStiffness="0.01"/>)"},
        SolverUnderTest{R"(<SemiFalseHeunSolver rayleighMass="0.1" rayleighStiffness="0.01"/>)"},
        SolverUnderTest{R"(<MidpointSolver rayleighMass="0.1" rayleighStiffness="0.01"/>)"},
        SolverUnderTest{"<VelocityVerletSolver/>"}, SolverUnderTest{"<PositionVerletSolver/>"},
        SolverUnderTest{"<ForestRuthSolver/>"},
        SolverUnderTest{R"(<AdamsBashforth2Solver rayleighMass="0.1" rayleighStiffness="0.01"/>)"},
        SolverUnderTest{R"(<ModifiedEulerSolver rayleighMass="0.1" rayleighStiffness="0.01"/>)"},
        SolverUnderTest{
            R"(<ModifiedEulerSolver velocityEstimate="trapezoidal" rayleighMass="0.1" rayleighStiffness="0.01"/>)"},
        SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="ab2"/>)"},
        SolverUnderTest{R"(<TrapezoidalSolver rayleighMass="0.1" rayleighStiffness="0.01"/>)",
                        true},
        SolverUnderTest{
            R"(<TrapezoidalSolver rayleighMass="0.1" rayleighStiffness="0.01"/><SparseLDLSolver/>)"},
        SolverUnderTest{
            R"(<EulerImplicitSolver rayleighMass="0.1" rayleighStiffness="0.01"/><SparseLDLSolver/>)"},
        SolverUnderTest{R"(<EulerImplicitSolver rayleighMass="0.1" rayleighStiffness="0.01"/>)",
                        true},
        SolverUnderTest{R"(<NewmarkImplicitSolver rayleighMass="0.1"/><SparseLDLSolver/>)"},
        SolverUnderTest{R"(<NewmarkImplicitSolver rayleighMass="0.1"/>)", true},
        SolverUnderTest{
            R"(<VariationalSymplecticSolver rayleighMass="0.1" explicitIntegration="0"/><SparseLDLSolver/>)"},
        SolverUnderTest{R"(<VariationalSymplecticSolver rayleighMass="0.1"/>)", true}),
    [](const ::testing::TestParamInfo<SolverUnderTest>& case_info) {
      return papers::TestName(case_info.param);
    });

}  // namespace
}  // namespace fluxion
