// The trajectory comparison on hand-made CSVs: exact match, a change in the 5th significant digit
// located by step and column, missing/extra columns and rows, the atol/rtol rule, NaN.
#include "trajectory_compare.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fluxion::regress {
namespace {

// Two objects (a 1-D point and a 2-D point), three recorded steps.
constexpr const char* kReference =
    R"(step,time,root/a/p0.x,root/a/v0.x,root/b/dofs/p0.x,root/b/dofs/p0.y,root/b/dofs/v0.x,root/b/dofs/v0.y
0,0,1.5,0,0,1,0,0
10,0.1,1.4975020826390129,-0.04991670832341408,0.1,0.99,1,-0.2
20,0.2,1.4900332889206208,-0.09933466539753061,0.2,0.96,1,-0.4
)";

// The default tolerances, named so each test states what it relies on.
constexpr Tolerances kTight{.rtol = 1e-9, .atol = 1e-12};

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(TrajectoryCompare, IdenticalFilesMatch) {
  const ComparisonReport report = CompareTrajectories(kReference, kReference, kTight);
  EXPECT_TRUE(report.match);
  EXPECT_EQ(report.compared_rows, 3u);
  EXPECT_EQ(report.compared_columns, 7u);  // time + 6 state columns
  EXPECT_EQ(report.compared_values, 21u);
  EXPECT_EQ(report.mismatched_values, 0u);
  EXPECT_FALSE(report.first_mismatch);
  EXPECT_EQ(FirstFailure(report), "match");
  EXPECT_EQ(FormatReport(report).rfind("MATCH: 21 values", 0), 0u) << FormatReport(report);
}

TEST(TrajectoryCompare, ObjectsAreColumnNamesUpToTheLastSlash) {
  const ComparisonReport report = CompareTrajectories(kReference, kReference, kTight);
  ASSERT_EQ(report.objects.size(), 3u);
  EXPECT_EQ(report.objects[0].object, "time");
  EXPECT_EQ(report.objects[1].object, "root/a");
  EXPECT_EQ(report.objects[2].object, "root/b/dofs");
  EXPECT_EQ(report.objects[2].columns, 4u);
}

TEST(TrajectoryCompare, ColumnOrderDoesNotMatterOnlyNames) {
  const std::string reordered =
      R"(step,root/b/dofs/v0.y,time,root/a/v0.x,root/a/p0.x,root/b/dofs/p0.x,root/b/dofs/p0.y,root/b/dofs/v0.x
20,-0.4,0.2,-0.09933466539753061,1.4900332889206208,0.2,0.96,1
0,0,0,0,1.5,0,1,0
10,-0.2,0.1,-0.04991670832341408,1.4975020826390129,0.1,0.99,1
)";
  EXPECT_TRUE(CompareTrajectories(kReference, reordered, kTight).match);
}

TEST(TrajectoryCompare, FifthSignificantDigitChangeIsCaughtAtItsStepAndColumn) {
  // 1.4975020826390129 -> 1.4975120826390129: relative change 6.7e-6, far above rtol = 1e-9.
  const std::string candidate = Replace(kReference, "1.4975020826390129", "1.4975120826390129");
  const ComparisonReport report = CompareTrajectories(kReference, candidate, kTight);
  EXPECT_FALSE(report.match);
  EXPECT_EQ(report.mismatched_values, 1u);
  ASSERT_TRUE(report.first_mismatch);
  EXPECT_EQ(report.first_mismatch->step, 10);
  EXPECT_EQ(report.first_mismatch->column, "root/a/p0.x");
  EXPECT_DOUBLE_EQ(report.first_mismatch->reference, 1.4975020826390129);
  EXPECT_DOUBLE_EQ(report.first_mismatch->candidate, 1.4975120826390129);
  EXPECT_NEAR(report.first_mismatch->abs_error, 1e-5, 1e-15);
  EXPECT_NEAR(report.first_mismatch->rel_error, 1e-5 / 1.4975020826390129, 1e-15);
  // Per object: only root/a is off, and its worst error is at that value.
  EXPECT_EQ(report.objects[1].mismatches, 1u);
  EXPECT_EQ(report.objects[1].max_abs_step, 10);
  EXPECT_EQ(report.objects[1].max_abs_column, "root/a/p0.x");
  EXPECT_EQ(report.objects[2].mismatches, 0u);
  EXPECT_EQ(report.objects[2].max_abs_error, 0.0);
  const std::string text = FormatReport(report);
  EXPECT_NE(text.find("MISMATCH: 1 of 21 values"), std::string::npos) << text;
  EXPECT_NE(text.find("first failure: step 10, column root/a/p0.x"), std::string::npos) << text;
  EXPECT_EQ(FirstFailure(report).rfind(
                "step 10, root/a/p0.x: reference 1.4975020826390129, got 1.49751", 0),
            0u);
}

TEST(TrajectoryCompare, FirstMismatchIsTheEarliestStepThenTheReferenceColumnOrder) {
  std::string candidate =
      Replace(kReference, "0.2,0.96,1,-0.4", "0.2,0.96,1,-0.5");         // step 20, v0.y
  candidate = Replace(candidate, "0.1,0.99,1,-0.2", "0.1,0.99,2,-0.3");  // step 10, v0.x and v0.y
  const ComparisonReport report = CompareTrajectories(kReference, candidate, kTight);
  ASSERT_TRUE(report.first_mismatch);
  EXPECT_EQ(report.first_mismatch->step, 10);
  EXPECT_EQ(report.first_mismatch->column, "root/b/dofs/v0.x");
  EXPECT_EQ(report.mismatched_values, 3u);
}

TEST(TrajectoryCompare, MissingColumnIsAMismatch) {
  // The renamed-object pitfall of SOFA's Regression (PR #5873): root/a becomes root/A.
  const std::string candidate =
      Replace(Replace(kReference, "root/a/p0.x", "root/A/p0.x"), "root/a/v0.x", "root/A/v0.x");
  const ComparisonReport report = CompareTrajectories(kReference, candidate, kTight);
  EXPECT_FALSE(report.match);
  EXPECT_EQ(report.mismatched_values, 0u);  // every value that was compared agrees
  EXPECT_EQ(report.missing_columns, (std::vector<std::string>{"root/a/p0.x", "root/a/v0.x"}));
  EXPECT_EQ(report.extra_columns, (std::vector<std::string>{"root/A/p0.x", "root/A/v0.x"}));
  EXPECT_EQ(FirstFailure(report), "missing column root/a/p0.x");
  const std::string text = FormatReport(report);
  EXPECT_NE(text.find("missing columns (2, in the reference only): root/a/p0.x, root/a/v0.x"),
            std::string::npos)
      << text;
}

TEST(TrajectoryCompare, DroppedColumnIsAMismatch) {
  const std::string reference = "step,time,o/p0.x,o/v0.x\n0,0,1,2\n1,0.1,1.5,2.5\n";
  const std::string candidate = "step,time,o/p0.x\n0,0,1\n1,0.1,1.5\n";
  const ComparisonReport report = CompareTrajectories(reference, candidate, kTight);
  EXPECT_FALSE(report.match);
  EXPECT_EQ(report.missing_columns, std::vector<std::string>{"o/v0.x"});
  EXPECT_TRUE(report.extra_columns.empty());
}

TEST(TrajectoryCompare, MissingRowIsAMismatch) {
  const std::string candidate =
      Replace(kReference, "10,0.1,1.4975020826390129,-0.04991670832341408,0.1,0.99,1,-0.2\n", "");
  const ComparisonReport report = CompareTrajectories(kReference, candidate, kTight);
  EXPECT_FALSE(report.match);
  EXPECT_EQ(report.missing_steps, std::vector<long>{10});
  EXPECT_TRUE(report.extra_steps.empty());
  EXPECT_EQ(report.compared_rows, 2u);
  EXPECT_EQ(FirstFailure(report), "missing step 10");
}

TEST(TrajectoryCompare, ExtraRowIsAMismatch) {
  const std::string candidate = std::string(kReference) + "30,0.3,1.47,-0.1,0.3,0.91,1,-0.6\n";
  const ComparisonReport report = CompareTrajectories(kReference, candidate, kTight);
  EXPECT_FALSE(report.match);
  EXPECT_EQ(report.extra_steps, std::vector<long>{30});
  EXPECT_EQ(FirstFailure(report), "extra step 30");
  EXPECT_NE(FormatReport(report).find("extra steps (1, not in the reference): 30"),
            std::string::npos);
}

TEST(TrajectoryCompare, ToleranceIsAtolPlusRtolTimesTheReference) {
  // reference 100, rtol 1e-3, atol 0.5: allowed |a - b| <= 0.5 + 0.1 = 0.6.
  const Tolerances tolerances{.rtol = 1e-3, .atol = 0.5};
  const auto compare = [&](const std::string& reference_value, const std::string& candidate_value) {
    return CompareTrajectories("step,x\n0," + reference_value + "\n",
                               "step,x\n0," + candidate_value + "\n", tolerances);
  };
  EXPECT_TRUE(compare("100", "100.59").match);
  EXPECT_TRUE(compare("100", "99.41").match);
  EXPECT_FALSE(compare("100", "100.61").match);
  EXPECT_FALSE(compare("100", "99.39").match);
  // Asymmetric: the reference sets the scale. With rtol 1e-3 only: 999 against a reference of 1000
  // is allowed 1 (passes); 1000 against a reference of 999 is allowed 0.999 (fails).
  const Tolerances relative{.rtol = 1e-3, .atol = 0};
  EXPECT_TRUE(CompareTrajectories("step,x\n0,1000\n", "step,x\n0,999\n", relative).match);
  EXPECT_FALSE(CompareTrajectories("step,x\n0,999\n", "step,x\n0,1000\n", relative).match);
  // Near zero only atol counts.
  EXPECT_TRUE(compare("0", "0.5").match);
  EXPECT_FALSE(compare("0", "0.50001").match);
  // Zero tolerances: only identical values pass.
  EXPECT_TRUE(
      CompareTrajectories("step,x\n0,0.1\n", "step,x\n0,0.1\n", Tolerances{.rtol = 0, .atol = 0})
          .match);
  EXPECT_FALSE(CompareTrajectories("step,x\n0,0.1\n", "step,x\n0,0.10000000000000002\n",
                                   Tolerances{.rtol = 0, .atol = 0})
                   .match);
}

TEST(TrajectoryCompare, RelativeErrorIsReportedAgainstTheReference) {
  const ComparisonReport report =
      CompareTrajectories("step,o/x\n0,2\n1,0\n", "step,o/x\n0,2.002\n1,1e-20\n",
                          Tolerances{.rtol = 1e-2, .atol = 1e-12});
  EXPECT_TRUE(report.match);
  ASSERT_EQ(report.objects.size(), 1u);
  EXPECT_NEAR(report.objects[0].max_rel_error, 1e-3, 1e-12);  // the zero reference is left out
  EXPECT_NEAR(report.objects[0].max_abs_error, 2e-3, 1e-12);
  EXPECT_EQ(report.objects[0].max_abs_step, 0);
}

TEST(TrajectoryCompare, NanInACellIsAMismatch) {
  const std::string candidate = Replace(kReference, "0.2,0.96,1,-0.4", "0.2,nan,1,-0.4");
  const ComparisonReport report = CompareTrajectories(kReference, candidate, kTight);
  EXPECT_FALSE(report.match);
  ASSERT_TRUE(report.first_mismatch);
  EXPECT_EQ(report.first_mismatch->step, 20);
  EXPECT_EQ(report.first_mismatch->column, "root/b/dofs/p0.y");
  EXPECT_TRUE(std::isnan(report.first_mismatch->candidate));
  EXPECT_TRUE(report.objects[2].has_nan);
  EXPECT_NE(FormatReport(report).find("nan"), std::string::npos);
  // NaN in the reference too, and NaN against NaN: never a match.
  EXPECT_FALSE(CompareTrajectories(candidate, kReference, kTight).match);
  EXPECT_FALSE(CompareTrajectories(candidate, candidate, kTight).match);
}

TEST(TrajectoryCompare, MalformedCsvIsAFormatErrorWithItsLine) {
  const auto error_of = [](const std::string& text) {
    try {
      ParseTrajectory(text, "ref.csv");
    } catch (const TrajectoryFormatError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(""), "ref.csv:1: empty file (expected a header step,time,…)");
  EXPECT_EQ(error_of("time,x\n0,1\n").rfind("ref.csv:1: header starts with 'time'", 0), 0u);
  EXPECT_EQ(error_of("step,x,x\n").rfind("ref.csv:1: duplicate column 'x'", 0), 0u);
  EXPECT_EQ(error_of("step,x\n0,1,2\n").rfind("ref.csv:2: 3 fields (expected 2", 0), 0u);
  EXPECT_EQ(error_of("step,x\n0,abc\n").rfind("ref.csv:2: column x: 'abc' (expected a number)", 0),
            0u);
  EXPECT_EQ(error_of("step,x\n-1,0\n").rfind("ref.csv:2: step '-1'", 0), 0u);
  EXPECT_EQ(error_of("step,x\n0,1\n0,2\n").rfind("ref.csv:3: step 0 repeats line 2", 0), 0u);
  EXPECT_EQ(error_of("step,x\n0,1\n\n1,2\n").rfind("ref.csv:3: empty line", 0), 0u);
  // Accepted: CRLF line ends and no final newline.
  EXPECT_EQ(ParseTrajectory("step,x\r\n0,1\r\n1,2", "ref.csv").rows.size(), 2u);
}

// #27 item 15: beside a reference at 0 a relative error is meaningless (scene-regress printed
// "PASS, worst rel err 317" for sofa_beam_grid.trapezoidal): the value that came closest to its
// tolerance is reported with the error that decided it. Reference 1e-14 and candidate 3.18e-12:
// rel error 317, abs error 3.17e-12, allowance 1e-11 + 1e-9·1e-14 ≈ 1e-11: the absolute tolerance
// decides and 0.317 of it is used. Beside it, 1 against 1 + 2e-10 uses 2e-10/(1e-11 + 1e-9) =
// 0.198.
TEST(TrajectoryCompare, DecidingErrorIsAbsoluteWhereTheReferenceIsNearZero) {
  const std::string reference = "step,time,a,b\n0,0,1e-14,1\n";
  const std::string candidate = "step,time,a,b\n0,0,3.18e-12,1.0000000002\n";
  const ComparisonReport report =
      CompareTrajectories(reference, candidate, Tolerances{.rtol = 1e-9, .atol = 1e-11});
  EXPECT_TRUE(report.match);
  EXPECT_NEAR(report.max_rel_error, 317, 1);  // the old summary's number
  ASSERT_TRUE(report.deciding);
  EXPECT_EQ(report.deciding->column, "a");
  EXPECT_EQ(report.deciding->at, "step 0");
  EXPECT_TRUE(report.deciding->absolute);
  EXPECT_NEAR(report.deciding->abs_error, 3.17e-12, 1e-24);
  EXPECT_NEAR(report.deciding->tolerance_ratio, 0.317, 1e-6);
  EXPECT_EQ(FormatDecidingError(report.deciding), "abs 3.17e-12");
  EXPECT_NE(FormatReport(report).find("closest to the tolerance: step 0, column a"),
            std::string::npos)
      << FormatReport(report);

  // Only b differs: the relative error decides.
  const ComparisonReport relative =
      CompareTrajectories(reference, "step,time,a,b\n0,0,1e-14,1.0000000002\n",
                          Tolerances{.rtol = 1e-9, .atol = 1e-11});
  ASSERT_TRUE(relative.deciding);
  EXPECT_FALSE(relative.deciding->absolute);
  EXPECT_EQ(FormatDecidingError(relative.deciding), "rel 2e-10");
  EXPECT_NEAR(relative.deciding->tolerance_ratio, 2e-10 / (1e-11 + 1e-9), 1e-6);
  // Equal files: nothing decided.
  EXPECT_EQ(FormatDecidingError(CompareTrajectories(reference, reference, kTight).deciding), "0");
}

TEST(TrajectoryCompare, ValuesRoundTripExactly) {
  for (const double value : {0.1, 1.0 / 3.0, -2.5e-300, 6.02214076e23}) {
    const Trajectory t = ParseTrajectory("step,x\n0," + FormatExact(value) + "\n");
    EXPECT_EQ(t.rows[0][0], value);
  }
}

}  // namespace
}  // namespace fluxion::regress
