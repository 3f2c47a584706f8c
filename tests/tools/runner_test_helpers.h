// Helpers for end-to-end tests of scene-runner: per-test scratch folders, scene files, running the
// executable with a clean environment, and reading its CSV and stderr back.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace fluxion::testing {

/// A scratch folder unique to the running test (and process), emptied when created and removed
/// when the test passes: <TempDir>/fluxion_<suite>_<test>_<pid>/.
class ScratchFolder {
 public:
  ScratchFolder() {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("fluxion_") + info->test_suite_name() + "_" + info->name() +
                       "_" + std::to_string(::getpid());
    for (char& c : name)
      if (c == '/') c = '_';  // parameterised test names
    path_ = std::filesystem::path(::testing::TempDir()) / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// `relative` inside the folder, as a string.
  std::string operator/(const std::string& relative) const { return (path_ / relative).string(); }

  /// Writes `text` to `relative` (creating sub-folders) and returns its full path.
  std::string Write(const std::string& relative, const std::string& text) const {
    const std::filesystem::path file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

/// Quotes `text` for /bin/sh.
inline std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// Runs `runner` (default: the scene-runner under test) with `arguments` (already quoted where
/// needed), with FLUXION_PLUGIN_PATH unset unless `environment` sets it ("NAME=value ..."), and
/// started through `wrapper` if given (e.g. "setpriv ..."). A run longer than two minutes is
/// killed and reported as status 124: a hang fails instead of blocking.
inline CommandResult RunSceneRunner(const std::string& arguments,
                                    const std::string& environment = "",
                                    const std::string& runner = SceneRunner(),
                                    const std::string& wrapper = "") {
  return RunCommand("timeout 120 env -u FLUXION_PLUGIN_PATH " + environment + " " + wrapper +
                    ShellQuote(runner) + " " + arguments);
}

/// Runs scene-runner with stdout on a pseudo-terminal (util-linux script), as in a shell.
inline CommandResult RunOnTerminal(const std::string& arguments) {
  return RunCommand("timeout 120 env -u FLUXION_PLUGIN_PATH script -q -e -c " +
                    ShellQuote(ShellQuote(SceneRunner()) + " " + arguments) + " /dev/null");
}

/// The whole content of a file ("" if it cannot be read).
inline std::string ReadFile(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

/// Splits text into lines (without the '\n'); a final line without '\n' is kept.
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

/// Terminal lines without the carriage returns the terminal adds.
inline std::vector<std::string> TerminalLines(const std::string& text) {
  std::vector<std::string> lines = Lines(text);
  for (std::string& line : lines)
    if (!line.empty() && line.back() == '\r') line.pop_back();
  return lines;
}

/// Splits one CSV row at commas (the trajectory CSV has no quoting).
inline std::vector<std::string> Fields(const std::string& row) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = row.find(',', start);
    fields.push_back(row.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return fields;
    start = end + 1;
  }
}

/// Parses a whole field as a double; fails the test (and returns NaN) if it is not one.
inline double ParseDouble(const std::string& text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  EXPECT_TRUE(error == std::errc() && end == text.data() + text.size()) << "not a number: " << text;
  return error == std::errc() ? value : std::nan("");
}

/// The lines of a program's stderr that start with "error: "; every error must be exactly one.
inline std::vector<std::string> ErrorLines(const CommandResult& result) {
  std::vector<std::string> errors;
  for (const std::string& line : Lines(result.err))
    if (line.rfind("error: ", 0) == 0) errors.push_back(line);
  return errors;
}

/// Runs scene-runner with `arguments` through /usr/bin/time, and puts the peak resident memory
/// of the run [MiB] in `peak_mib` (+∞ when /usr/bin/time did not report it).
inline CommandResult RunSceneRunnerMeasured(const std::string& arguments, double& peak_mib) {
  CommandResult result =
      RunSceneRunner(arguments, "", SceneRunner(), "/usr/bin/time -f 'peak_rss_kib=%M' ");
  const std::size_t at = result.err.rfind("peak_rss_kib=");
  peak_mib = at == std::string::npos ? std::numeric_limits<double>::infinity()
                                     : ParseDouble(Lines(result.err.substr(at + 13)).at(0)) / 1024;
  return result;
}

/// A hanging cloth (the trial of #27): n × n points of 1 kg in all over 1 m², held at two
/// corners, springs on the grid's edges (MeshSpringForceField: ks = stiffness/L0, kd =
/// damping/L0, so kd/ks = damping/stiffness on every spring), with the ODE solver `solver` at
/// line 4 and a SparseLDLSolver; `spring_extra` adds attributes to the springs (line 11).
inline std::string HangingCloth(const std::string& solver, int n, const std::string& dt,
                                const std::string& stiffness, const std::string& damping,
                                const std::string& spring_extra = "") {
  const std::string size = std::to_string(n);
  return R"(<?xml version="1.0"?>
<Node name="root" gravity="0 -9.81 0" dt=")" +
         dt + R"(">
  <DefaultAnimationLoop/>
  )" + solver +
         R"(
  <SparseLDLSolver/>
  <Node name="cloth">
    <RegularGridTopology name="grid" n=")" +
         size + " 1 " + size + R"(" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs" template="Vec3d"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 )" +
         std::to_string(n - 1) + R"("/>
    <MeshSpringForceField linesStiffness=")" +
         stiffness + R"(" linesDamping=")" + damping + R"(" )" + spring_extra + R"(/>
  </Node>
</Node>
)";
}

/// Signs of a crash or an escaped exception in a program's stderr.
inline bool LooksLikeCrash(const std::string& err) {
  for (const char* sign : {"terminate", "Aborted", "internal error", "Segmentation", "what():"})
    if (err.find(sign) != std::string::npos) return true;
  return false;
}

}  // namespace fluxion::testing
