// tools/common: the command-line parsing, validators and exception report every tool shares.
// Each case states the exact line a user sees and the exit status the README documents.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_line.h"
#include "exit_status_common.h"
#include "failure_report.h"
#include "fluxion/errors.h"

namespace fluxion::tools {
namespace {

struct Parsed {
  std::optional<int> status;
  std::string errors;
};

Parsed Parse(CLI::App& app, std::vector<std::string> words, std::string_view expected = {}) {
  words.insert(words.begin(), "tool");
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  testing::internal::CaptureStderr();
  Parsed parsed;
  parsed.status =
      ParseCommandLine(app, static_cast<int>(argv.size()), argv.data(), "tool", expected);
  parsed.errors = testing::internal::GetCapturedStderr();
  return parsed;
}

TEST(ToolCommandLine, ValidatorsSayWhatWasExpected) {
  CLI::App app;
  double dt = 0;
  long steps = 0;
  std::string level;
  app.add_option("--dt", dt)->transform(FiniteIn(1e-300, 1e300, "> 0"));
  app.add_option("--steps", steps)->transform(WholeIn(1, 100, "from 1 to 100"));
  app.add_option("--log-level", level)->transform(OneOf("a log level", {"info", "warn"}));
  EXPECT_EQ(Parse(app, {"--dt", "nan"}).errors,
            "error: --dt: 'nan' is not a finite number (expected a finite number > 0)\n");
  EXPECT_EQ(Parse(app, {"--dt", "-1"}).errors,
            "error: --dt: '-1' is out of range (expected a number > 0)\n");
  EXPECT_EQ(
      Parse(app, {"--steps", "1e3"}).errors,
      "error: --steps: '1e3' is not a whole number (expected a whole number from 1 to 100)\n");
  EXPECT_EQ(Parse(app, {"--steps", "101"}).errors,
            "error: --steps: '101' is out of range (expected a whole number from 1 to 100)\n");
  EXPECT_EQ(Parse(app, {"--log-level", "loud"}).errors,
            "error: --log-level: 'loud' is not a log level (expected one of info, warn)\n");
  const Parsed good = Parse(app, {"--dt", "0.25", "--steps", "7", "--log-level", "warn"});
  EXPECT_FALSE(good.status.has_value());
  EXPECT_EQ(good.errors, "");
  EXPECT_EQ(dt, 0.25);
  EXPECT_EQ(steps, 7);
  EXPECT_EQ(level, "warn");
}

TEST(ToolCommandLine, MistakesAreOneLineAndStatusTwo) {
  CLI::App app;
  long steps = 0;
  std::string scene;
  app.add_option("scene", scene)->required();
  app.add_option("--steps", steps);
  app.allow_extras();
  Parsed missing_value = Parse(app, {"a.scn", "--steps"}, "one scene file");
  EXPECT_EQ(missing_value.status, kExitInvalidInput);
  EXPECT_EQ(missing_value.errors, "error: --steps: a value is missing (expected INT)\n");

  CLI::App second;
  second.add_option("scene", scene)->required();
  second.add_option("--steps", steps);
  second.allow_extras();
  const Parsed typo = Parse(second, {"a.scn", "--stpes", "3"}, "one scene file");
  EXPECT_EQ(typo.status, kExitInvalidInput);
  EXPECT_EQ(typo.errors,
            "error: unknown option '--stpes' (did you mean '--steps'? see tool --help)\n");

  CLI::App third;
  third.add_option("scene", scene)->required();
  third.allow_extras();
  const Parsed two = Parse(third, {"a.scn", "b.scn"}, "one scene file");
  EXPECT_EQ(two.errors,
            "error: unexpected argument 'b.scn' (expected one scene file; options begin with --, "
            "see tool --help)\n");
  CLI::App fourth;
  fourth.add_option("scene", scene)->required();
  const Parsed none = Parse(fourth, {});
  EXPECT_EQ(none.status, kExitInvalidInput);
  EXPECT_EQ(none.errors, "error: scene is missing (see tool --help)\n");
}

TEST(ToolCommandLine, HelpReturnsSuccess) {
  CLI::App app{"a tool"};
  testing::internal::CaptureStdout();
  const Parsed help = Parse(app, {"--help"});
  testing::internal::GetCapturedStdout();
  EXPECT_EQ(help.status, kExitSuccess);
}

// What ReportCurrentException prints and returns for an exception thrown as `thrown` does.
template <typename Throw>
std::pair<int, std::string> Report(Throw thrown, std::string_view scene = "s.scn") {
  testing::internal::CaptureStderr();
  int status = -1;
  try {
    thrown();
  } catch (...) {
    status = ReportCurrentException(scene);
  }
  return {status, testing::internal::GetCapturedStderr()};
}

TEST(ToolFailureReport, EachFailureHasItsDocumentedStatus) {
  EXPECT_EQ(Report([] {
              throw SceneError({{"a.scn", 3, "x: bad (expected y)"}, {"a.scn", 5, "z: bad"}});
            }),
            std::make_pair(2, std::string("error: a.scn:3: x: bad (expected y)\n"
                                          "error: a.scn:5: z: bad\n")));
  const ConfigError bad_value("dt", "is negative");
  EXPECT_EQ(Report([&] { throw bad_value; }),
            std::make_pair(2, "error: s.scn: " + std::string(bad_value.what()) + "\n"));
  EXPECT_EQ(Report([] { throw UsageError("run: give steps"); }),
            std::make_pair(2, std::string("error: run: give steps\n")));
  EXPECT_EQ(Report([] { throw PluginError("plugin x.so was refused"); }),
            std::make_pair(3, std::string("error: plugin x.so was refused\n")));
  const NumericalError diverged(4, 0.4, "the state is not finite");
  EXPECT_EQ(
      Report([&] { throw diverged; }),
      std::make_pair(4, "error: numerical failure at " + std::string(diverged.what()) + "\n"));
  EXPECT_EQ(Report([] { throw std::bad_alloc(); }).first, 2);
  EXPECT_EQ(Report([] { throw std::logic_error("oops"); }),
            std::make_pair(70, std::string("error: internal error: oops\n")));
  EXPECT_EQ(Report([] { throw 7; }).first, 70);
}

}  // namespace
}  // namespace fluxion::tools
