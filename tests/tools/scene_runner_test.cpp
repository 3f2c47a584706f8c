// scene-runner end to end: the trajectory CSV (header, rows, --every, --steps, --end-time,
// round-trip numbers, --output, streaming on failure), exit statuses, --help, --list-components
// and determinism.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/host.h"
#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// Three objects: a named Vec2d with two points, an unnamed Vec1, a named Vec3d; a damped spring
// in A so that every column moves.
constexpr const char* kThreeObjects = R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <Node name="A">
    <MechanicalObject name="dofs" template="Vec2d" position="0 0  1 0" velocity="0 1  0 0"/>
    <UniformMass vertexMass="1"/>
    <SpringForceField spring="0 1 30 0.5 0.7"/>
  </Node>
  <Node name="B">
    <MechanicalObject template="Vec1" position="3"/>
    <UniformMass vertexMass="2"/>
  </Node>
  <Node name="C">
    <MechanicalObject name="pts" position="0 0 0" velocity="0.25 0 -1"/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>
)";

// The step column of every data row.
std::vector<long> StepColumn(const std::string& csv) {
  std::vector<long> steps;
  const std::vector<std::string> lines = Lines(csv);
  for (std::size_t k = 1; k < lines.size(); ++k)
    steps.push_back(std::stol(Fields(lines[k]).front()));
  return steps;
}

TEST(SceneRunner, HeaderListsPositionsThenVelocitiesObjectByObject) {
  ScratchFolder scratch;
  const CommandResult result =
      RunSceneRunner(ShellQuote(scratch.Write("scene.scn", kThreeObjects)) + " --steps 1 -q");
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0],
            "step,time,"
            "root/A/dofs/p0.x,root/A/dofs/p0.y,root/A/dofs/p1.x,root/A/dofs/p1.y,"
            "root/A/dofs/v0.x,root/A/dofs/v0.y,root/A/dofs/v1.x,root/A/dofs/v1.y,"
            "root/B/MechanicalObject/p0.x,root/B/MechanicalObject/v0.x,"
            "root/C/pts/p0.x,root/C/pts/p0.y,root/C/pts/p0.z,"
            "root/C/pts/v0.x,root/C/pts/v0.y,root/C/pts/v0.z");
}

TEST(SceneRunner, InfoLevelReportsWallTimeAndStepsPerSecond) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("scene.scn", kThreeObjects);
  const CommandResult result = RunSceneRunner(
      ShellQuote(scene) + " --steps 7 --log-level info -o " + ShellQuote(scratch / "out.csv"));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("info: " + scene + ": 7 steps in "));
  EXPECT_THAT(result.err, HasSubstr(" s of wall time ("));
  EXPECT_THAT(result.err, HasSubstr(" steps/s)"));
  // Not at the default level (warnings only).
  const CommandResult quiet =
      RunSceneRunner(ShellQuote(scene) + " --steps 7 -o " + ShellQuote(scratch / "out2.csv"));
  EXPECT_THAT(quiet.err, Not(HasSubstr("steps/s")));
}

TEST(SceneRunner, ADeviceOutputIsWrittenDirectly) {
  // -o /dev/null: no /dev/null.partial created, locked and renamed (parallel runs collided on
  // it, and it left a file in /dev).
  ScratchFolder scratch;
  std::error_code ignored;
  fs::remove("/dev/null.partial", ignored);
  const CommandResult result = RunSceneRunner(
      ShellQuote(scratch.Write("scene.scn", kThreeObjects)) + " --steps 3 -q -o /dev/null");
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_FALSE(fs::exists("/dev/null.partial"));
}

TEST(SceneRunner, HeaderOfSofaTwoObjectScene) {
  ScratchFolder scratch;
  const std::string scene =
      scratch.Write("scene.scn", R"(<Node name="root" gravity="0 -10 0" dt="0.1">
  <EulerExplicitSolver/>
  <Node name="FixedPointNode">
    <MechanicalObject name="fixedPoint" position="0 2 0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="MassNode">
    <MechanicalObject name="massDof" position="0 1 0"/>
    <UniformMass totalMass="10"/>
  </Node>
  <SpringForceField spring="0 0 100 0 1" object1="@FixedPointNode/fixedPoint" object2="@MassNode/massDof"/>
</Node>
)");
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -q");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(Lines(result.out).at(0),
            "step,time,root/FixedPointNode/fixedPoint/p0.x,root/FixedPointNode/fixedPoint/p0.y,"
            "root/FixedPointNode/fixedPoint/p0.z,root/FixedPointNode/fixedPoint/v0.x,"
            "root/FixedPointNode/fixedPoint/v0.y,root/FixedPointNode/fixedPoint/v0.z,"
            "root/MassNode/massDof/p0.x,root/MassNode/massDof/p0.y,root/MassNode/massDof/p0.z,"
            "root/MassNode/massDof/v0.x,root/MassNode/massDof/v0.y,root/MassNode/massDof/v0.z");
  // SOFA's numbers for the first step (symplectic Euler: v = -1, y = 1 - 0.1).
  EXPECT_EQ(Lines(result.out).at(2), "1,0.1,0,2,0,0,0,0,0,0.9,0,0,-1,0");
}

TEST(SceneRunner, FirstRowIsTheInitialStateAtStepZeroTimeZero) {
  ScratchFolder scratch;
  const CommandResult result =
      RunSceneRunner(ShellQuote(scratch.Write("scene.scn", kThreeObjects)) + " --steps 3 -q");
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[1], "0,0,0,0,1,0,0,1,0,0,3,0,0,0,0,0.25,0,-1");
}

TEST(SceneRunner, EveryKRecordsMultiplesOfKAndTheLastStep) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kThreeObjects));
  const CommandResult seven = RunSceneRunner(scene + " --steps 7 --every 3 -q");
  ASSERT_EQ(seven.status, 0) << seven.err;
  EXPECT_EQ(StepColumn(seven.out), (std::vector<long>{0, 3, 6, 7}));
  const CommandResult six = RunSceneRunner(scene + " --steps 6 --every 3 -q");
  ASSERT_EQ(six.status, 0) << six.err;
  EXPECT_EQ(StepColumn(six.out), (std::vector<long>{0, 3, 6}));
  // The recorded rows are the same rows as with every step recorded.
  const CommandResult all = RunSceneRunner(scene + " --steps 7 -q");
  const std::vector<std::string> every = Lines(seven.out), each = Lines(all.out);
  ASSERT_EQ(each.size(), 9u);
  EXPECT_EQ(every[2], each[4]);
  EXPECT_EQ(every[4], each[8]);
}

TEST(SceneRunner, StepsSetsTheNumberOfStepsAndDefaultsTo100) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kThreeObjects));
  const CommandResult five = RunSceneRunner(scene + " --steps 5 -q");
  ASSERT_EQ(five.status, 0) << five.err;
  EXPECT_EQ(StepColumn(five.out), (std::vector<long>{0, 1, 2, 3, 4, 5}));
  const CommandResult zero = RunSceneRunner(scene + " --steps 0 -q");
  ASSERT_EQ(zero.status, 0) << zero.err;
  EXPECT_EQ(StepColumn(zero.out), (std::vector<long>{0}));
  const CommandResult defaults = RunSceneRunner(scene + " -q");
  ASSERT_EQ(defaults.status, 0) << defaults.err;
  EXPECT_EQ(StepColumn(defaults.out).back(), 100);
}

TEST(SceneRunner, EndTimeOneWithDtOneTenthRunsTenSteps) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kThreeObjects));
  const CommandResult result = RunSceneRunner(scene + " --end-time 1 -q");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(StepColumn(result.out).back(), 10);
  EXPECT_EQ(StepColumn(result.out).size(), 11u);
  // A time between two steps rounds up to the next step; --dt replaces the scene's step.
  EXPECT_EQ(StepColumn(RunSceneRunner(scene + " --end-time 0.95 -q").out).back(), 10);
  EXPECT_EQ(StepColumn(RunSceneRunner(scene + " --end-time 1 --dt 0.05 -q").out).back(), 20);
  // --steps and --end-time exclude each other.
  const CommandResult both = RunSceneRunner(scene + " --end-time 1 --steps 3 -q");
  EXPECT_EQ(both.status, 2);
  EXPECT_EQ(Lines(both.err).size(), 1u) << both.err;
}

// Time is t₀ + n·h, not a running sum (issue "The first hour": --end-time 2 ended at
// t = 1.9999999999998124). Each row's time is checked against the decimal n·h written as text
// (n/100 and 1.5 + n/10, which strtod turns into the nearest double), so the expected values do
// not come from the code under test.
TEST(SceneRunner, EndTimeLandsExactlyAndEveryTimeIsStartPlusNTimesH) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kThreeObjects));
  auto times = [](const std::string& csv) {
    std::vector<std::string> column;
    const std::vector<std::string> lines = Lines(csv);
    for (std::size_t k = 1; k < lines.size(); ++k) column.push_back(Fields(lines[k])[1]);
    return column;
  };
  // "2.07" for 207 hundredths.
  auto decimal = [](int hundredths) {
    return std::to_string(hundredths / 100) + "." + std::to_string(hundredths / 10 % 10) +
           std::to_string(hundredths % 10);
  };
  // 200 steps of 0.01: 200 additions of 0.01 give 2.0000000000000013.
  const CommandResult two = RunSceneRunner(scene + " --end-time 2 --dt 0.01 -q");
  ASSERT_EQ(two.status, 0) << two.err;
  const std::vector<std::string> two_times = times(two.out);
  ASSERT_EQ(two_times.size(), 201u);
  EXPECT_EQ(two_times.back(), "2");
  for (int n = 0; n <= 200; ++n)
    EXPECT_EQ(ParseDouble(two_times[static_cast<std::size_t>(n)]), ParseDouble(decimal(n)))
        << "step " << n;
  // 24 steps of 0.1 from t₀ = 1.5: the double product 24·0.1 is 2.4000000000000004; the decimal
  // t₀ + n·h lands on 3.9.
  std::string late_scene = kThreeObjects;
  late_scene.replace(0, std::string_view(R"(<Node name="root")").size(),
                     R"(<Node name="root" time="1.5")");
  const CommandResult late =
      RunSceneRunner(ShellQuote(scratch.Write("late.scn", late_scene)) + " --end-time 3.9 -q");
  ASSERT_EQ(late.status, 0) << late.err;
  const std::vector<std::string> late_times = times(late.out);
  ASSERT_EQ(late_times.size(), 25u);
  EXPECT_EQ(late_times.back(), "3.9");
  for (int n = 0; n <= 24; ++n)
    EXPECT_EQ(ParseDouble(late_times[static_cast<std::size_t>(n)]),
              ParseDouble(decimal(150 + 10 * n)))
        << "step " << n;
}

// Every printed number parses back to the very double the simulation holds: compared bit for bit
// with the same scene stepped in process.
TEST(SceneRunner, NumbersRoundTripToTheInProcessStateBitForBit) {
  ScratchFolder scratch;
  constexpr int kSteps = 60;
  const CommandResult result =
      RunSceneRunner(ShellQuote(scratch.Write("scene.scn", kThreeObjects)) + " -q --steps " +
                     std::to_string(kSteps));
  ASSERT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> lines = Lines(result.out);
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(kSteps) + 2);

  Simulation simulation = LoadScene(kThreeObjects);
  for (int step = 0; step <= kSteps; ++step) {
    if (step > 0) simulation.Step();
    std::vector<double> expected = {static_cast<double>(simulation.step_count()),
                                    simulation.time()};
    for (int k = 0; k < static_cast<int>(simulation.objects().size()); ++k) {
      for (const double value : simulation.position(k)) expected.push_back(value);
      for (const double value : simulation.velocity(k)) expected.push_back(value);
    }
    const std::vector<std::string> fields = Fields(lines[static_cast<std::size_t>(step) + 1]);
    ASSERT_EQ(fields.size(), expected.size());
    for (std::size_t c = 0; c < fields.size(); ++c)
      EXPECT_EQ(std::bit_cast<std::uint64_t>(ParseDouble(fields[c])),
                std::bit_cast<std::uint64_t>(expected[c]))
          << "step " << step << " column " << c << ": " << fields[c];
  }
}

TEST(SceneRunner, OutputFileGetsTheCsvAndStdoutStaysEmpty) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kThreeObjects));
  const std::string output = scratch / "out.csv";
  const CommandResult to_file =
      RunSceneRunner(scene + " --steps 8 -q --output " + ShellQuote(output));
  ASSERT_EQ(to_file.status, 0) << to_file.err;
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(to_file.err, "");
  const CommandResult to_stdout = RunSceneRunner(scene + " --steps 8 -q");
  EXPECT_EQ(ReadFile(output), to_stdout.out);
  EXPECT_EQ(RunSceneRunner(scene + " --steps 8 -q -o " + ShellQuote(output)).out, "");
}

TEST(SceneRunner, EnergyAddsThreeColumns) {
  ScratchFolder scratch;
  const CommandResult result = RunSceneRunner(
      ShellQuote(scratch.Write("scene.scn", kThreeObjects)) + " --steps 2 --energy -q");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_THAT(Lines(result.out).at(0), ::testing::EndsWith(",kinetic,potential,total"));
  EXPECT_EQ(Fields(Lines(result.out).at(1)).size(), Fields(Lines(result.out).at(0)).size());
}

// Output is streamed: a run that diverges stops with exit 4, one error line giving the step and
// the time, and OUT.partial holding every complete row before the failure (OUT itself is only
// written by a run that ends well).
TEST(SceneRunner, DivergingRunExits4AndKeepsTheRowsBeforeIt) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("stiff.scn", R"(<Node name="root" dt="1" gravity="0 0 0">
  <EulerExplicitSolver symplectic="0"/>
  <MechanicalObject name="dofs" position="0 0 0  1.5 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 1e6 0 1"/>
</Node>
)");
  const std::string output = scratch / "out.csv";
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 100000 -q -o " + ShellQuote(output));
  EXPECT_EQ(result.status, 4);
  EXPECT_EQ(result.out, "");
  const std::vector<std::string> errors = Lines(result.err);
  ASSERT_EQ(errors.size(), 1u) << result.err;
  EXPECT_THAT(errors[0],
              ::testing::StartsWith("error: " + scene + ":2: numerical failure at step "));
  EXPECT_THAT(errors[0], HasSubstr("t = "));
  const std::size_t at = errors[0].find("step ");
  ASSERT_NE(at, std::string::npos) << errors[0];
  const long failed_step = std::stol(errors[0].substr(at + 5));
  EXPECT_GT(failed_step, 1);

  EXPECT_THAT(errors[0], HasSubstr("the rows written so far are in " + output + ".partial"));
  EXPECT_FALSE(std::filesystem::exists(output));
  const std::string csv = ReadFile(output + ".partial");
  ASSERT_FALSE(csv.empty());
  EXPECT_EQ(csv.back(), '\n');  // no partial line
  const std::vector<std::string> lines = Lines(csv);
  const std::size_t columns = Fields(lines[0]).size();
  for (std::size_t k = 1; k < lines.size(); ++k)
    EXPECT_EQ(Fields(lines[k]).size(), columns) << lines[k];
  std::vector<long> expected_steps;
  for (long step = 0; step < failed_step; ++step) expected_steps.push_back(step);
  EXPECT_EQ(StepColumn(csv), expected_steps);
}

// The stability check (issue "The first hour"): a stiff cloth with EulerExplicitSolver at a dt
// beyond the symplectic limit ω_max·dt ≤ 2 gets a warning before the first step naming a dt that
// works; the run as written diverges, and the run at the advised dt completes.
TEST(SceneRunner, StiffClothWarnsBeforeTheFirstStepAndTheAdvisedDtCompletes) {
  ScratchFolder scratch;
  // 8 × 8 points, 1 kg: springs ks = 1000/L0 = 7000 N/m on 1/64 kg points, ω_max ≈ 2·10³ rad/s.
  const std::string scene =
      scratch.Write("cloth.scn", R"(<Node name="root" gravity="0 -9.81 0" dt="0.002">
  <EulerExplicitSolver/>
  <Node name="cloth">
    <RegularGridTopology name="grid" n="8 1 8" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs" template="Vec3d"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 7"/>
    <MeshSpringForceField linesStiffness="1000" linesDamping="0.5"/>
  </Node>
</Node>
)");
  const CommandResult diverging =
      RunSceneRunner(ShellQuote(scene) + " --steps 1000 -o " + ShellQuote(scratch / "a.csv"));
  EXPECT_EQ(diverging.status, 4) << diverging.err;
  const std::vector<std::string> lines = Lines(diverging.err);
  ASSERT_GE(lines.size(), 2u) << diverging.err;
  // First the warning (before any step), then the failure with the comparison and the stable dt.
  EXPECT_THAT(lines[0], ::testing::StartsWith("warning: " + scene +
                                              ":2: EulerExplicitSolver in "
                                              "node 'root': dt = 0.002 is too large"));
  // Symplectic Euler on q̈ + 2ζω·q̇ + ω²·q = 0 has the characteristic polynomial
  // z² − (2 − Φ² − 2ζΦ)·z + (1 − 2ζΦ); Jury's conditions give Φ < 2(√(1 + ζ²) − ζ) (and Φ < 1/ζ).
  // The dashpots (linesDamping scaled like the stiffness) make ζ ≈ 0.4 on the stiffest mode.
  const auto number_after = [&](const std::string& marker) {
    const std::size_t where = lines[0].find(marker);
    EXPECT_NE(where, std::string::npos) << marker << " in " << lines[0];
    return where == std::string::npos ? NAN : std::stod(lines[0].substr(where + marker.size()));
  };
  const double zeta = number_after("damping ratio ζ ≈ ");
  // ω_max·dt ≈ 3.16 converged, 3.12 after the check's 10 power iterations (from below).
  EXPECT_NEAR(number_after("ω_max·dt = "), 3.16, 0.05);
  const double limit = number_after(" > ");
  EXPECT_GT(zeta, 0.3);
  EXPECT_NEAR(limit, 2.0 * (std::sqrt(1.0 + zeta * zeta) - zeta), 0.01);
  EXPECT_THAT(lines[0], HasSubstr(", EulerExplicitSolver's stability limit on the stiffest mode"));
  EXPECT_THAT(diverging.err, HasSubstr("advice for EulerExplicitSolver"));
  EXPECT_THAT(diverging.err, HasSubstr("what keeps it bounded: dt ≤ "));
  EXPECT_THAT(diverging.err, HasSubstr("the position of point "));
  EXPECT_THAT(diverging.err, HasSubstr("of object 'root/cloth/dofs' is not finite"));
  const std::size_t at = lines[0].find("(e.g. --dt ");
  ASSERT_NE(at, std::string::npos) << lines[0];
  const std::string advised = lines[0].substr(at + 11, lines[0].find(')', at) - at - 11);
  const double advised_dt = std::stod(advised);
  EXPECT_LT(advised_dt, 0.002);
  EXPECT_GT(advised_dt, 0.0002);  // not absurdly small: ω_max·dt_advised ≈ 0.8·2

  // The same physical time (2 s) at the advised dt completes, with no warning and every value
  // finite: following the advice is enough.
  const CommandResult advised_run = RunSceneRunner(
      ShellQuote(scene) + " --dt " + advised + " --end-time 2 -o " + ShellQuote(scratch / "b.csv"));
  EXPECT_EQ(advised_run.status, 0) << advised_run.err;
  EXPECT_EQ(advised_run.err, "");
  const std::vector<std::string> rows = Lines(ReadFile(scratch / "b.csv"));
  ASSERT_GE(rows.size(), 2u);
  const std::vector<std::string> last = Fields(rows.back());
  EXPECT_EQ(std::stol(last[0]), static_cast<long>(std::ceil(2.0 / advised_dt - 1e-9)));
  EXPECT_GE(ParseDouble(last[1]), 2.0);
  for (std::size_t c = 2; c < last.size(); ++c)
    EXPECT_TRUE(std::isfinite(ParseDouble(last[c]))) << "column " << c << ": " << last[c];
}

// #27 item 16: the check's cost is bounded (10 power iterations, about one force evaluation
// each) and reported at info level, with what it measured. The gallery's hanging chain: 7 free
// beads of m = 0.1 kg on springs k = 500 N/m at rest, held at one end, whose stiffest
// (longitudinal) mode is λ_max = (4k/m)·sin²((2N − 1)π/(2(2N + 1))) with N = 7, ω_max = 138.33
// rad/s; the Rayleigh quotient approaches it from below, within 0.2% after 10 iterations here.
TEST(SceneRunner, StabilityCheckReportsWhatItMeasuredAndItsCost) {
  const CommandResult result = RunSceneRunner(
      ShellQuote(std::string(FLUXION_TEST_SOURCE_DIR) + "/scenes/hanging_chain.scn") +
      " --steps 1 -o /dev/null --log-level info");
  ASSERT_EQ(result.status, 0) << result.err;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(
      result.err, match,
      std::regex("info: root: stability check of EulerExplicitSolver with its defaults: ω_max ≈ "
                 "([0-9.]+) rad/s \\(([0-9]+) power iterations")))
      << result.err;
  const double n = 7.0;
  const double omega = std::sqrt(4.0 * 500.0 / 0.1) *
                       std::sin((2.0 * n - 1.0) * std::numbers::pi / (2.0 * (2.0 * n + 1.0)));
  EXPECT_NEAR(omega, 138.33, 0.01);
  EXPECT_LE(std::stod(match[1].str()), omega * (1.0 + 1e-3));  // printed with 3 digits
  EXPECT_GE(std::stod(match[1].str()), 0.99 * omega);
  EXPECT_LE(std::stoi(match[2].str()), 10);
  EXPECT_THAT(result.err, ::testing::MatchesRegex(
                              "(.|\n)*stable over 1 step; it took [0-9.e+-]+ s \\(≈ [0-9.e+]+ "
                              "force evaluations, the time of ≈ [0-9.e+]+ steps\\)(.|\n)*"));
}

TEST(SceneRunner, BadSceneExits2AndCreatesNoOutputFile) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("bad.scn", R"(<Node name="root">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass totalMass="-1"/>
</Node>
)");
  const std::string output = scratch / "out.csv";
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q -o " + ShellQuote(output));
  EXPECT_EQ(result.status, 2);
  EXPECT_FALSE(fs::exists(output));
  // Nor does a plugin problem (exit 3) leave a file.
  const std::string missing = scratch.Write("missing.scn", R"(<Node name="root">
  <RequiredPlugin pluginName="no_such_plugin"/>
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass totalMass="1"/>
</Node>
)");
  EXPECT_EQ(RunSceneRunner(ShellQuote(missing) + " -q -o " + ShellQuote(output)).status, 3);
  EXPECT_FALSE(fs::exists(output));
}

TEST(SceneRunner, UnwritableOutputPathExits2) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kThreeObjects));
  std::vector<std::string> unwritable = {scratch / "no/such/folder/out.csv",
                                         scratch.path().string()};
  if (::geteuid() != 0) {  // root may write into a read-only folder
    fs::create_directories(scratch.path() / "read_only");
    fs::permissions(scratch.path() / "read_only", fs::perms::owner_read | fs::perms::owner_exec);
    unwritable.push_back(scratch / "read_only/out.csv");
  }
  for (const std::string& output : unwritable) {
    const CommandResult result = RunSceneRunner(scene + " --steps 2 -q -o " + ShellQuote(output));
    EXPECT_EQ(result.status, 2) << output;
    EXPECT_EQ(result.out, "");
    ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
    EXPECT_THAT(result.err, ::testing::StartsWith("error: " + output + ": "));
  }
}

TEST(SceneRunner, HelpDocumentsEveryOption) {
  const CommandResult result = RunSceneRunner("--help");
  ASSERT_EQ(result.status, 0) << result.err;
  for (const char* option : {"--help",
                             "--version",
                             "--steps",
                             "--end-time",
                             "--dt",
                             "--output",
                             "--every",
                             "--energy",
                             "--plugin-dir",
                             "--list-plugins",
                             "--json",
                             "--list-solvers",
                             "--list-components",
                             "--markdown",
                             "--ignore-plugin-errors",
                             "--log-level",
                             "--quiet",
                             "--no-stability-check",
                             "FLUXION_PLUGIN_PATH",
                             "Exit status"})
    EXPECT_THAT(result.out, HasSubstr(option));
}

TEST(SceneRunner, ListComponentsListsEveryBuiltinAndThePluginSolvers) {
  const CommandResult result = RunSceneRunner("--list-components");
  ASSERT_EQ(result.status, 0) << result.err;
  const std::string listing = "\n" + result.out;
  // A host with no plugin folder holds the built-in components only.
  HostOptions no_plugins;
  no_plugins.default_plugin_directories = false;
  const Host builtins(no_plugins);
  ASSERT_GT(builtins.components().size(), 10u);
  for (const ComponentInfo* entry : builtins.components())
    EXPECT_THAT(listing, HasSubstr("\n" + entry->spec.name + " ")) << entry->spec.name;
  EXPECT_THAT(listing, HasSubstr("\nEulerExplicitSolver "));
}

TEST(SceneRunner, ListComponentsDescribesUniformMassFields) {
  const CommandResult result = RunSceneRunner("--list-components UniformMass");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_THAT(result.out, ::testing::StartsWith("UniformMass"));
  const ComponentInfo* entry = TestHost().FindComponent("UniformMass");
  ASSERT_NE(entry, nullptr);
  for (const FieldSpec& field : entry->spec.fields) {
    EXPECT_THAT(result.out, HasSubstr(field.name + " (" + std::string(FieldTypeName(field.type))));
    EXPECT_THAT(result.out, HasSubstr(field.help));
  }
  // A misspelling no name contains (a substring would list the components holding it).
  const CommandResult unknown = RunSceneRunner("--list-components UniformMasz");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(Lines(unknown.err).size(), 1u) << unknown.err;
}

TEST(SceneRunner, CommandLineErrorsExit2WithOneErrorLine) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("scene.scn", kThreeObjects));
  for (const std::string& arguments :
       {std::string("--bogus"), scene + " --bogus", scene + " --steps -1", scene + " --steps many",
        scene + " --every 0", scene + " --end-time -1", scene + " --dt 0",
        scene + " --log-level loud", std::string("")}) {
    const CommandResult result = RunSceneRunner(arguments);
    EXPECT_EQ(result.status, 2) << arguments;
    EXPECT_EQ(result.out, "") << arguments;
    ASSERT_EQ(Lines(result.err).size(), 1u) << arguments << ": " << result.err;
    EXPECT_THAT(result.err, ::testing::StartsWith("error: ")) << arguments;
  }
}

TEST(SceneRunner, TwoRunsAreByteIdentical) {
  ScratchFolder scratch;
  const std::string scene =
      ShellQuote(scratch.Write("cloth.scn", R"(<Node name="root" dt="0.005" gravity="0 -9.81 0">
  <EulerExplicitSolver/>
  <Node name="cloth">
    <RegularGridTopology n="6 6 1" min="0 0 0" max="1 1 0"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="1"/>
    <MeshSpringForceField linesStiffness="20" linesDamping="0.05" quadsStiffness="5"/>
    <FixedProjectiveConstraint indices="30 35"/>
  </Node>
</Node>
)"));
  const CommandResult first = RunSceneRunner(scene + " --steps 200 -q");
  const CommandResult second = RunSceneRunner(scene + " --steps 200 -q");
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(Lines(first.out).size(), 202u);
  EXPECT_EQ(first.out, second.out);
}

}  // namespace
}  // namespace fluxion::testing
