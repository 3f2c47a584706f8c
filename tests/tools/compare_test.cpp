// scene-runner --compare REF.csv [--rtol R] [--atol A]: exit 0 on match, 1 on mismatch with a
// report naming the first step and column that left the tolerance, 2 for an unusable reference.
#include <gmock/gmock.h>

#include <charconv>
#include <sstream>

#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

constexpr const char* kChain = R"(<Node name="root" gravity="0 -9.81 0" dt="0.002">
  <EulerExplicitSolver/>
  <MechanicalObject name="beads" position="0 0 0  0.1 0 0  0.2 0 0"/>
  <UniformMass vertexMass="0.1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 500 0.5 0.1  1 2 500 0.5 0.1"/>
</Node>)";

std::string FormatShortest(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

// Replaces field `column` of data row `row` (0 = step 0) of a CSV text by `value`.
std::string Perturb(const std::string& csv, std::size_t row, std::size_t column,
                    const std::string& value) {
  std::vector<std::string> lines = Lines(csv);
  std::vector<std::string> fields = Fields(lines.at(row + 1));
  fields.at(column) = value;
  std::string joined;
  for (std::size_t i = 0; i < fields.size(); ++i) joined += (i ? "," : "") + fields[i];
  lines.at(row + 1) = joined;
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(Compare, SameRunMatchesAndAFifthDigitChangeIsReportedWithStepAndColumn) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("chain.scn", kChain));
  const std::string reference = scratch / "ref.csv";
  ASSERT_EQ(RunSceneRunner(scene + " --steps 50 --every 10 -q -o " + ShellQuote(reference)).status,
            0);

  const auto same =
      RunSceneRunner(scene + " --steps 50 --every 10 -q --compare " + ShellQuote(reference));
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  EXPECT_THAT(same.out, ::testing::StartsWith("MATCH"));

  // Data row 3 is step 30; column 6 is the beads' p1.y (step, time, p0.x, p0.y, p0.z, p1.x, p1.y).
  const std::vector<std::string> header = Fields(Lines(ReadFile(reference)).at(0));
  ASSERT_EQ(header.at(6), "root/beads/p1.y");
  const double original = ParseDouble(Fields(Lines(ReadFile(reference)).at(4)).at(6));
  const std::string perturbed = scratch.Write(
      "perturbed.csv", Perturb(ReadFile(reference), 3, 6, FormatShortest(original * (1 + 2e-5))));
  const auto mismatch =
      RunSceneRunner(scene + " --steps 50 --every 10 -q --compare " + ShellQuote(perturbed));
  EXPECT_EQ(mismatch.status, 1);
  EXPECT_THAT(mismatch.out, ::testing::HasSubstr("MISMATCH"));
  EXPECT_THAT(mismatch.out, ::testing::HasSubstr("step 30, column root/beads/p1.y"));
  // A 2e-5 relative change passes a 1e-4 relative tolerance.
  EXPECT_EQ(RunSceneRunner(scene + " --steps 50 --every 10 -q --rtol 1e-4 --compare " +
                           ShellQuote(perturbed))
                .status,
            0);
}

TEST(Compare, MissingOrMalformedReferenceIsInvalidInput) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("chain.scn", kChain));
  EXPECT_EQ(
      RunSceneRunner(scene + " --steps 5 -q --compare " + ShellQuote(scratch / "none.csv")).status,
      2);
  const std::string garbage = scratch.Write("garbage.csv", "step,time\n0,zero\n");
  EXPECT_EQ(RunSceneRunner(scene + " --steps 5 -q --compare " + ShellQuote(garbage)).status, 2);
  EXPECT_EQ(RunSceneRunner(scene + " --steps 5 -q --rtol 1e-3").status,
            2);  // --rtol needs --compare
}

// #27 item 4: the run is compared from memory, never read back from --output. A device
// (-o /dev/null) used to be read back as an empty file ("S:1: empty file", exit 2); an HDF5
// output as CSV text.
TEST(Compare, ComparesTheRunItselfWhateverTheOutputIs) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("chain.scn", kChain));
  const std::string reference = ShellQuote(scratch / "ref.csv");
  ASSERT_EQ(RunSceneRunner(scene + " --steps 20 -q -o " + reference).status, 0);
  for (const std::string& output :
       {std::string("/dev/null"), scratch / "again.csv", scratch / "again.h5"}) {
    const auto result = RunSceneRunner(scene + " --steps 20 -q -o " + ShellQuote(output) +
                                       " --compare " + reference);
    if (output.ends_with(".h5") && result.err.find("without HDF5") != std::string::npos) continue;
    EXPECT_EQ(result.status, 0) << output << ": " << result.out << result.err;
    // 21 steps x 19 columns (time, 3 beads x 3 axes x position and velocity).
    EXPECT_THAT(result.out, ::testing::StartsWith("MATCH: 399 values (21 steps x 19 columns)"))
        << output;
  }
  // A broken reference still names the reference, and a mismatch is still one.
  const std::string shorter = ShellQuote(scratch / "shorter.csv");
  ASSERT_EQ(RunSceneRunner(scene + " --steps 10 -q -o " + shorter).status, 0);
  const auto mismatch = RunSceneRunner(scene + " --steps 20 -q -o /dev/null --compare " + shorter);
  EXPECT_EQ(mismatch.status, 1) << mismatch.err;
  EXPECT_THAT(mismatch.out, ::testing::HasSubstr("extra steps (10, not in the reference)"));
}

// A stiff-ish pendulum: a 1 kg bob on a spring (k = 400 N/m, ω = 20 rad/s, rest length 1 m)
// from a fixed anchor, released 5 cm stretched and horizontal under gravity: the swing and the
// spring's fast mode, nonlinearly coupled.
constexpr const char* kStiffPendulum = R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <RungeKutta4Solver/>
  <MechanicalObject name="bob" position="0 0 0  1.05 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 400 0 1"/>
</Node>)";

// The "max, at t, RMS, at end" numbers of one object's row in the --align time table.
std::vector<double> ErrorRow(const std::string& report, const std::string& object,
                             const std::string& quantity) {
  for (const std::string& line : Lines(report)) {
    std::istringstream words(line);
    std::string name, kind;
    words >> name >> kind;
    if (name != object || kind != quantity) continue;
    std::vector<double> numbers;
    for (std::string word; words >> word;) numbers.push_back(ParseDouble(word));
    return numbers;
  }
  ADD_FAILURE() << "no row " << object << " " << quantity << " in\n" << report;
  return {0, 0, 0, 0};
}

// #27 item 7: --align time compares runs at different dt where they are at the same time, and its
// table is a convergence study. RK4 at h = 0.01, h/2, h/4 to t = 1 s against RK4 at h/64: the
// global error of a fourth-order method falls 2⁴ = 16-fold per halving. Why the measure cannot
// spoil it: the compared times are the coarse runs' (the sparser ones), and the reference has
// rows there (recorded every step: nothing interpolated; recorded every 3rd step: Hermite at
// spacing 3h/64, ωh' ≈ 0.009, error ≈ (ωh')⁴/384·0.05 m ≈ 1e-12 m), while RK4's error at h/4
// is about ωt(ωh/4)⁴/120·0.05 m ≈ 2e-8 m, and the reference's own error 64⁴/4⁴ = 65536 times
// less. ωh = 0.2 at the coarsest run leaves the next term of the error expansion at a few
// percent: ratios within [13, 19].
TEST(Compare, AlignByTimeShowsRungeKutta4sFourthOrder) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("pendulum.scn", kStiffPendulum));
  for (const int every : {1, 3}) {
    const std::string reference = ShellQuote(scratch / ("ref" + std::to_string(every) + ".csv"));
    ASSERT_EQ(
        RunSceneRunner(scene + " --dt " + FormatShortest(0.01 / 64) + " --end-time 1 -q --every " +
                       std::to_string(every) + " -o " + reference)
            .status,
        0);
    std::vector<std::vector<double>> rows;
    for (const double h : {0.01, 0.005, 0.0025}) {
      // Loose tolerances: the run is a different discretisation, and passes within 1 mm.
      const auto result =
          RunSceneRunner(scene + " --dt " + FormatShortest(h) + " --end-time 1 -q --compare " +
                         reference + " --align time --atol 1e-3 --rtol 0");
      ASSERT_EQ(result.status, 0) << result.out << result.err;
      EXPECT_THAT(result.out, ::testing::HasSubstr("at the candidate's"));
      EXPECT_THAT(result.out,
                  ::testing::HasSubstr(every == 1 ? "nothing interpolated" : "cubic Hermite on 6"));
      rows.push_back(ErrorRow(result.out, "root/bob", "position"));
      // By step (the default) the same runs are at different times: the report says so.
      const auto by_step = RunSceneRunner(scene + " --dt " + FormatShortest(h) +
                                          " --end-time 1 -q --compare " + reference);
      EXPECT_EQ(by_step.status, 1);
      EXPECT_THAT(by_step.out, ::testing::HasSubstr("column time:"));
      EXPECT_THAT(by_step.out, ::testing::HasSubstr("--align time compares them"));
      ASSERT_EQ(rows.back().size(), 4u) << result.out;
    }
    for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
      for (const std::size_t measure : {0u, 2u, 3u}) {  // max, RMS, at the end
        const double ratio = rows[k][measure] / rows[k + 1][measure];
        EXPECT_GE(ratio, 13.0) << "every " << every << ", run " << k << ", measure " << measure;
        EXPECT_LE(ratio, 19.0) << "every " << every << ", run " << k << ", measure " << measure;
      }
    }
  }
}

}  // namespace
}  // namespace fluxion::testing
