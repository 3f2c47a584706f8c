// Simulation::StepsUntil: the step count of scene-runner --end-time, Python's run(end_time=…) and
// fluxion-sweep. The expected counts are worked by hand from TimeAt's decimal rule (t₀ + n·h with
// t₀ and h read as their shortest decimals: TimeAt(n) is the double nearest n × 0.3 exactly).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "fluxion/host.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

Simulation PointWithStep(const std::string& dt) {
  return testing::TestHost().LoadString(R"(<Node name="root" gravity="0 0 0" dt=")" + dt + R"(">
  <Node name="point"><EulerExplicitSolver/><MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass totalMass="1"/></Node>
</Node>)",
                                        "point.scn");
}

TEST(StepsUntil, ReachesTheEndTimeExactlyOnADecimalGrid) {
  const Simulation simulation = PointWithStep("0.01");
  EXPECT_EQ(simulation.StepsUntil(2.0), 200);  // the last state at t = 2, not one step more
  EXPECT_EQ(simulation.TimeAt(200), 2.0);
  EXPECT_EQ(simulation.StepsUntil(0.0), 0);
  EXPECT_EQ(simulation.StepsUntil(-1.0), 0);
  EXPECT_EQ(simulation.StepsUntil(0.015), 2);          // between grid times: the first one past it
  EXPECT_EQ(simulation.StepsUntil(2.0 - 1e-12), 200);  // within 1e-9 steps of t = 2
}

// 29 999 999.1 = 99 999 997 × 0.3 exactly: 99 999 997 steps. The quotient T/h in doubles is a
// step off here (ceil(29999999.1 / 0.3 − 1e-9) = 99 999 998, what Python's run(end_time=…)
// counted before it used StepsUntil): the count is settled on the times themselves.
TEST(StepsUntil, SettlesALongCountOnTheTimesNotOnTheQuotient) {
  const Simulation simulation = PointWithStep("0.3");
  ASSERT_EQ(std::ceil(29999999.1 / 0.3 - 1e-9), 99999998.0);
  EXPECT_EQ(simulation.StepsUntil(29999999.1), 99999997);
  EXPECT_EQ(simulation.TimeAt(99999997), 29999999.1);
}

TEST(StepsUntil, CountsFromTheCurrentStep) {
  Simulation simulation = PointWithStep("0.1");
  EXPECT_EQ(simulation.StepsUntil(1.0), 10);
  simulation.Step();
  simulation.Step();
  simulation.Step();
  EXPECT_EQ(simulation.StepsUntil(1.0), 7);
  EXPECT_EQ(simulation.StepsUntil(0.3), 0);
}

TEST(StepsUntil, RefusesCountsItCannotRun) {
  const Simulation simulation = PointWithStep("1e-300");
  EXPECT_FALSE(simulation.StepsUntil(1.0).has_value());
  EXPECT_FALSE(simulation.StepsUntil(std::numeric_limits<double>::quiet_NaN()).has_value());
}

}  // namespace
}  // namespace fluxion
