// The history contract of the solvers that keep state between steps (AB-2, Howe's modified Euler
// with each velocity estimate, Newmark's stored acceleration, the variational momentum), stepped
// directly on the oscillator:
//  - after the host sets the state and calls Solver::InvalidateHistory, the next step is bit for
//    bit the first step of a fresh solver started from that state (and without the call it is
//    not: the base does not compare states);
//  - a rejected step leaves the history as it was: good, rejected, good = good, good.
#include <limits>

#include "oscillator.h"

namespace fluxion {
namespace {

using papers::OscillatorScene;
using papers::SolverUnderTest;

constexpr double kH = 0.1;
constexpr double kDamping = 0.1;  // velocity-dependent force, so every velocity estimate matters

// Steps the first solver node of `simulation` directly (Simulation::Step would throw on failure).
StepResult StepDirectly(const Simulation& simulation, double h, State& state) {
  const SolverNode& node = simulation.solver_nodes()[0];
  return node.solver->Step(*node.system, h, state);
}

// Runs three steps from (1, 0.5), then sets the state to (0.75, −0.25) as a script would between
// two steps, calls InvalidateHistory if `invalidate`, and takes one more step. Returns the state
// the host set (at t_3) and the state after that step.
struct Restart {
  State set, stepped;
};
Restart StepAfterSettingTheState(const SolverUnderTest& solver, bool invalidate) {
  Simulation simulation = testing::LoadScene(OscillatorScene(solver, kH, 1.0, 0.5, kDamping));
  Restart run;
  State& state = run.stepped;
  state = simulation.solver_nodes()[0].state;
  for (int n = 0; n < 3; ++n) EXPECT_TRUE(StepDirectly(simulation, kH, state).accepted());
  state.x[1] = 0.75;
  state.v[1] = -0.25;
  run.set = state;
  if (invalidate) simulation.solver_nodes()[0].solver->InvalidateHistory();
  EXPECT_TRUE(StepDirectly(simulation, kH, state).accepted());
  return run;
}

class SolverHistory : public testing::QuietTest,
                      public ::testing::WithParamInterface<SolverUnderTest> {};

TEST_P(SolverHistory, InvalidateHistoryRestartsFromTheStateTheHostSet) {
  const Restart restarted = StepAfterSettingTheState(GetParam(), true);

  // A fresh solver given the same state at the same time takes the same first step.
  Simulation fresh = testing::LoadScene(OscillatorScene(GetParam(), kH, 0.75, -0.25, kDamping));
  State state = fresh.solver_nodes()[0].state;
  ASSERT_EQ(state.x, restarted.set.x);
  ASSERT_EQ(state.v, restarted.set.v);
  state.time = restarted.set.time;
  ASSERT_TRUE(StepDirectly(fresh, kH, state).accepted());
  EXPECT_EQ(state.time, restarted.stepped.time);
  EXPECT_EQ(state.x, restarted.stepped.x);
  EXPECT_EQ(state.v, restarted.stepped.v);

  // Without the call the solver continues with the history of the old trajectory.
  const Restart continued = StepAfterSettingTheState(GetParam(), false);
  EXPECT_TRUE(continued.stepped.x != restarted.stepped.x ||
              continued.stepped.v != restarted.stepped.v);
}

INSTANTIATE_TEST_SUITE_P(
    HistorySolvers, SolverHistory,
    ::testing::Values(SolverUnderTest{"<AdamsBashforth2Solver/>"},
                      SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="euler"/>)"},
                      SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="ab2"/>)"},
                      SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="predictor"/>)"},
                      SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="trapezoidal"/>)"},
                      SolverUnderTest{"<NewmarkImplicitSolver/>", true},
                      SolverUnderTest{"<VariationalSymplecticSolver/>", true},
                      SolverUnderTest{R"(<VariationalSymplecticSolver explicitIntegration="1"/>)",
                                      true}),
    [](const ::testing::TestParamInfo<SolverUnderTest>& case_info) {
      return papers::TestName(case_info.param);
    });

// A step with h = DBL_MAX overflows (|a|·h > DBL_MAX from x = 2): the base rejects it and restores
// the state. The history must not have moved: the next step with the old h continues the
// recurrence exactly as if the rejected step had not been tried. (The implicit solvers' rejected
// steps are tested with their own scenes in tests/solvers/implicit/.)
class ExplicitSolverHistory : public testing::QuietTest,
                              public ::testing::WithParamInterface<SolverUnderTest> {};

TEST_P(ExplicitSolverHistory, RejectedStepKeepsTheHistory) {
  const std::string scene = OscillatorScene(GetParam(), kH, 2.0, 0.5, kDamping);
  Simulation interrupted = testing::LoadScene(scene);
  Simulation reference = testing::LoadScene(scene);
  State a = interrupted.solver_nodes()[0].state, b = reference.solver_nodes()[0].state;
  for (int n = 0; n < 3; ++n) {
    ASSERT_TRUE(StepDirectly(interrupted, kH, a).accepted());
    ASSERT_TRUE(StepDirectly(reference, kH, b).accepted());
  }
  const State before = a;
  ASSERT_FALSE(StepDirectly(interrupted, std::numeric_limits<double>::max(), a).accepted());
  ASSERT_EQ(a.x, before.x);
  ASSERT_EQ(a.v, before.v);
  for (int n = 0; n < 2; ++n) {
    ASSERT_TRUE(StepDirectly(interrupted, kH, a).accepted());
    ASSERT_TRUE(StepDirectly(reference, kH, b).accepted());
  }
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.v, b.v);
}

INSTANTIATE_TEST_SUITE_P(
    HistorySolvers, ExplicitSolverHistory,
    ::testing::Values(SolverUnderTest{"<AdamsBashforth2Solver/>"},
                      SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="euler"/>)"},
                      SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="ab2"/>)"},
                      SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="predictor"/>)"},
                      SolverUnderTest{R"(<ModifiedEulerSolver velocityEstimate="trapezoidal"/>)"}),
    [](const ::testing::TestParamInfo<SolverUnderTest>& case_info) {
      return papers::TestName(case_info.param);
    });

}  // namespace
}  // namespace fluxion
