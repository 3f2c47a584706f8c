// scene-runner --compare REF.csv [--rtol R] [--atol A]: exit 0 on match, 1 on mismatch with a
// report naming the first step and column that left the tolerance, 2 for an unusable reference.
#include <gmock/gmock.h>

#include <charconv>

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

}  // namespace
}  // namespace fluxion::testing
