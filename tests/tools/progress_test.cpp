// scene-runner's progress report (tools/scene_runner/progress.h): the text of a report for known
// numbers, the reporter's styles with a fast ticker writing into a file, and scene-runner end to
// end: lines on a non-terminal stderr only with --progress, never on stdout.
#include <gmock/gmock.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "progress.h"
#include "runner_test_helpers.h"

namespace fluxion {
namespace {

using runner::FormatProgress;
using runner::ProgressReporter;
using runner::ProgressStyle;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(ProgressText, ShowsStepsTimeSpeedAndTimeLeft) {
  // 250 of 1000 steps in 5 s: 50 steps/s, 750 steps left → 15 s.
  EXPECT_EQ(FormatProgress(250, 1000, 0.25, 5.0, 0),
            "progress:  25%  step 250/1000  t = 0.25 s  50 steps/s  ETA 0:15");
  // A bar of 20 columns, a quarter full; 100 steps/s and more are whole numbers.
  EXPECT_EQ(FormatProgress(500, 2000, 1.5, 2.0, 20),
            "[#####...............]  25%  step 500/2000  t = 1.5 s  250 steps/s  ETA 0:06");
  // An hour and more: h:mm:ss.
  EXPECT_EQ(FormatProgress(1, 10001, 0.001, 1.0, 0),
            "progress:   0%  step 1/10001  t = 0.001 s  1 steps/s  ETA 2:46:40");
  // Done: the elapsed time instead of an ETA.
  EXPECT_EQ(FormatProgress(10, 10, 0.1, 65.0, 0),
            "progress: 100%  step 10/10  t = 0.1 s  0.154 steps/s  in 1:05");
  // Nothing measured yet.
  EXPECT_EQ(FormatProgress(0, 10, 0.0, 0.0, 0),
            "progress:   0%  step 0/10  t = 0 s  - steps/s  ETA -");
}

// What a reporter wrote into a temporary file.
class ReporterOutput {
 public:
  ReporterOutput() : file_(std::tmpfile()) {}
  ~ReporterOutput() { std::fclose(file_); }
  std::FILE* file() const { return file_; }
  std::string Text() const {
    std::fflush(file_);
    std::rewind(file_);
    std::string text;
    for (int c; (c = std::fgetc(file_)) != EOF;) text += static_cast<char>(c);
    return text;
  }

 private:
  std::FILE* file_;
};

// Steps for `duration`, as a run would, calling AfterStep after each.
void Step(ProgressReporter& reporter, std::chrono::milliseconds duration, long& steps) {
  const auto end = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < end) {
    ++steps;
    reporter.AfterStep(steps, 0.001 * static_cast<double>(steps));
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

TEST(ProgressReporter, LinesStyleReportsEveryPeriodAndAtTheEnd) {
  ReporterOutput out;
  long steps = 0;
  {
    ProgressReporter reporter(ProgressStyle::kLines, 1000000, out.file(),
                              std::chrono::milliseconds(20));
    Step(reporter, std::chrono::milliseconds(300), steps);
    reporter.Finish(steps, 0.001 * static_cast<double>(steps));
  }
  const std::string text = out.Text();
  // About 15 ticks in 300 ms; a loaded machine may delay many, so at least 2, plus the last line.
  std::size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  EXPECT_GE(lines, 3U) << text;
  EXPECT_THAT(text, StartsWith("progress: "));
  EXPECT_THAT(text, HasSubstr("step " + std::to_string(steps) + "/1000000"));
}

TEST(ProgressReporter, TerminalStyleRedrawsOneLineAndEndsIt) {
  ReporterOutput out;
  long steps = 0;
  {
    ProgressReporter reporter(ProgressStyle::kTerminal, 1000000, out.file(),
                              std::chrono::milliseconds(20));
    Step(reporter, std::chrono::milliseconds(300), steps);  // about 15 ticks, at least one
    reporter.Finish(steps, 0.001 * static_cast<double>(steps));
  }
  const std::string text = out.Text();
  // Each report returns to the line's start and clears what is left of it; one newline at the
  // end keeps the last bar.
  EXPECT_THAT(text, StartsWith("\r["));
  EXPECT_THAT(text, HasSubstr("\x1b[K"));
  EXPECT_EQ(text.find('\n'), text.size() - 1);
}

TEST(ProgressReporter, ShortRunsAndTheOffStyleWriteNothing) {
  ReporterOutput out;
  {
    // A terminal run that ends before the first tick shows nothing.
    ProgressReporter terminal(ProgressStyle::kTerminal, 10, out.file());
    terminal.AfterStep(10, 0.1);
    terminal.Finish(10, 0.1);
    ProgressReporter off(ProgressStyle::kOff, 10, out.file(), std::chrono::milliseconds(1));
    long steps = 0;
    Step(off, std::chrono::milliseconds(20), steps);
    off.Finish(steps, 1.0);
  }
  EXPECT_EQ(out.Text(), "");
}

const char* kScene = R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerExplicitSolver/>
  <MechanicalObject name="ball" position="0 0 0"/>
  <UniformMass vertexMass="1"/>
</Node>)";

TEST(SceneRunnerProgress, OnlyWhenAskedOffATerminalAndNeverOnStdout) {
  const testing::ScratchFolder folder;
  const std::string scene = folder.Write("ball.scn", kScene);
  // stderr is a pipe here: no progress unless asked for.
  const testing::CommandResult quiet =
      testing::RunSceneRunner(testing::ShellQuote(scene) + " --steps 10");
  EXPECT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  // --progress: the last report on stderr; stdout has the CSV rows only.
  const testing::CommandResult asked =
      testing::RunSceneRunner(testing::ShellQuote(scene) + " --steps 10 --progress");
  EXPECT_EQ(asked.status, 0) << asked.err;
  EXPECT_THAT(asked.err, StartsWith("progress: 100%  step 10/10  t = 0.1 s"));
  EXPECT_EQ(asked.out, quiet.out);
  EXPECT_THAT(asked.out, ::testing::Not(HasSubstr("progress")));
  // --quiet and --progress contradict each other.
  const testing::CommandResult both =
      testing::RunSceneRunner(testing::ShellQuote(scene) + " --progress --quiet");
  EXPECT_EQ(both.status, 2);
  EXPECT_THAT(both.err, StartsWith("error: "));
}

}  // namespace
}  // namespace fluxion
