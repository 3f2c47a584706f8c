// Every registered solver's trajectory is the same, to the bit, with one and with two threads
// (fluxion/threads.h): force evaluation splits the springs over a fixed partition of the points
// (each point adds its terms in spring order whatever the split), and the vector passes write
// each entry from one thread. The cloth is large enough for every parallel path to be taken
// (more than 2 × kSpringGrain springs, 2 × kVectorGrain DOFs); implicit solvers run with
// CGLinearSolver (SparseLDLSolver's factorisation is serial and would only slow the test down).
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/conformance_scenes.h"
#include "conformance/solver_catalog.h"
#include "fluxion/errors.h"
#include "fluxion/threads.h"
#include "support/test_support.h"

namespace fluxion::conformance {
namespace {

constexpr int kClothSize = 110;  // 110² points: 36 300 DOFs, ≈ 36 000 springs
constexpr int kSteps = 3;

std::string ClothScene(const std::string& solver_xml) {
  const std::string n = std::to_string(kClothSize);
  return Fill(R"(<Node name="root" gravity="0 -9.81 0" dt="1e-5">
  {solver}
  <Node name="cloth">
    <RegularGridTopology n="{n} 1 {n}" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs" rotation="20 0 10"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 {last}"/>
    <MeshSpringForceField linesStiffness="100" linesDamping="0.1"/>
  </Node>
</Node>)",
              {{"solver", solver_xml}, {"n", n}, {"last", std::to_string(kClothSize - 1)}});
}

void ReplaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// The solver's XML with the iterations capped: the test compares bits, not convergence, and both
// thread counts do the same capped work. Uncapped, StaticSolver's Newton iterations run CG to its
// 3000 iterations on this ill-conditioned cloth (2.5 minutes of the suite's 5 on two cores).
std::string CappedSolverXml(const SolverDescription& solver) {
  const LinearSolver linear = WantsLinearSolver(solver) ? LinearSolver::kCg : LinearSolver::kNone;
  std::string xml = SolverXml(solver, linear);
  ReplaceAll(xml, R"(iterations="3000")", R"(iterations="100")");
  ReplaceAll(xml, R"(maxNbIterationsNewton="10")", R"(maxNbIterationsNewton="2")");
  return xml;
}

// Positions and velocities after kSteps steps with `threads` threads.
std::vector<double> Trajectory(const SolverDescription& solver, int threads) {
  SetThreadCount(threads);
  Simulation simulation = LoadScene(ClothScene(CappedSolverXml(solver)));
  std::vector<double> values;
  for (int k = 0; k < kSteps; ++k) {
    simulation.Step();
    const State& state = simulation.solver_nodes().front().state;
    values.insert(values.end(), state.x.data(), state.x.data() + state.x.size());
    values.insert(values.end(), state.v.data(), state.v.data() + state.v.size());
  }
  return values;
}

class ThreadDeterminism : public testing::QuietTest,
                          public ::testing::WithParamInterface<SolverDescription> {
 protected:
  void TearDown() override { SetThreadCount(0); }
};

TEST_P(ThreadDeterminism, OneAndTwoThreadsGiveTheSameBits) {
  if (!ThreadsAvailable()) GTEST_SKIP() << "built without OpenMP: one thread only";
  const std::vector<double> one = Trajectory(GetParam(), 1);
  const std::vector<double> two = Trajectory(GetParam(), 2);
  ASSERT_EQ(one.size(), two.size());
  std::size_t first_difference = one.size();
  for (std::size_t i = 0; i < one.size() && first_difference == one.size(); ++i)
    if (std::memcmp(&one[i], &two[i], sizeof(double)) != 0) first_difference = i;
  EXPECT_EQ(first_difference, one.size())
      << "value " << first_difference << ": " << one[first_difference] << " with one thread, "
      << two[first_difference] << " with two";
}

std::string SolverName(const ::testing::TestParamInfo<SolverDescription>& info) {
  std::string name;
  for (char ch : info.param.name) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Registered, ThreadDeterminism, ::testing::ValuesIn(AllSolvers()),
                         SolverName);

TEST(ThreadCount, SetAndRestoreTheDefault) {
  SetThreadCount(3);
  EXPECT_EQ(ThreadCount(), ThreadsAvailable() ? 3 : 1);
  SetThreadCount(0);
  EXPECT_GE(ThreadCount(), 1);
  EXPECT_THROW(SetThreadCount(-1), UsageError);
}

TEST(ThreadCount, SmallLoopsStayOnOneThread) {
  SetThreadCount(2);
  EXPECT_EQ(ParallelTaskCount(kVectorGrain, kVectorGrain), 1);
  EXPECT_EQ(ParallelTaskCount(2 * kVectorGrain, kVectorGrain), ThreadsAvailable() ? 2 : 1);
  // ParallelFor covers [0, n) exactly once, in contiguous ranges.
  std::vector<int> hits(static_cast<std::size_t>(5 * kVectorGrain + 3), 0);
  ParallelFor(static_cast<Index>(hits.size()), kVectorGrain, [&](Index begin, Index end) {
    for (Index i = begin; i < end; ++i) ++hits[static_cast<std::size_t>(i)];
  });
  for (const int h : hits) ASSERT_EQ(h, 1);
  SetThreadCount(0);
}

}  // namespace
}  // namespace fluxion::conformance
