#include "suite.h"

#include <chrono>
#include <fstream>
#include <sstream>
#include <system_error>

#include "fluxion/trajectory_writer.h"
#include "subprocess.h"

namespace fluxion::regress {

namespace {

namespace fs = std::filesystem;

std::optional<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The error lines of scene-runner's stderr (all of it if none starts with "error:").
std::string ErrorLines(const std::string& text) {
  std::string errors;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("error:", 0) == 0) errors += line + "\n";
  return errors.empty() ? text : errors;
}

std::string FirstLine(const std::string& text) {
  const std::size_t end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

// Writes `contents` to `path` through a temporary file and a rename, so that an interrupted update
// never leaves half a reference.
bool WriteAtomically(const fs::path& path, const std::string& contents, std::string& error) {
  std::error_code code;
  fs::create_directories(path.parent_path(), code);
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out) {
      error = temporary.string() + ": cannot write (check the folder is writable)";
      return false;
    }
  }
  fs::rename(temporary, path, code);
  if (code) {
    error = path.string() + ": cannot replace it (" + code.message() + ")";
    return false;
  }
  return true;
}

// A trajectory kept as HDF5, by its name (scene-runner writes one for such an --output).
bool IsHdf5(const fs::path& path) {
  const std::string name = path.string();
  return name.ends_with(".h5") || name.ends_with(".hdf5");
}

// A trajectory's CSV text: the file itself, or an HDF5 file read back as the CSV of the same run.
// Nullopt when it cannot be read.
std::optional<std::string> ReadTrajectory(const fs::path& path) {
  if (!IsHdf5(path)) return ReadFile(path);
  std::error_code code;
  if (!fs::is_regular_file(path, code)) return std::nullopt;
  std::string why;
  return fluxion::Hdf5TrajectoryToCsv(path.string(), why);
}

// Copies `from` over `to` through a temporary file, so that `to` is never half written.
bool CopyAtomically(const fs::path& from, const fs::path& to, std::string& error) {
  std::error_code code;
  fs::create_directories(to.parent_path(), code);
  const fs::path temporary = to.string() + ".tmp";
  fs::copy_file(from, temporary, fs::copy_options::overwrite_existing, code);
  if (!code) fs::rename(temporary, to, code);
  if (code) {
    error = to.string() + ": cannot replace it (" + code.message() + ")";
    return false;
  }
  return true;
}

// What --update changed, compared with the old reference (exact comparison: rtol = atol = 0).
std::string DescribeChange(const std::string& old_text, const std::string& new_text,
                           const std::string& name) {
  try {
    const ComparisonReport diff =
        CompareTrajectories(old_text, new_text, Tolerances{.rtol = 0, .atol = 0},
                            name + " (old reference)", name + " (new output)");
    std::string text = "max abs diff " + FormatExact(diff.max_abs_error) + ", max rel diff " +
                       FormatExact(diff.max_rel_error) + " vs the old reference";
    if (diff.first_mismatch)
      text += " (first at step " + std::to_string(diff.first_mismatch->step) + ", " +
              diff.first_mismatch->column + ")";
    if (!diff.missing_columns.empty() || !diff.extra_columns.empty())
      text += "; columns -" + std::to_string(diff.missing_columns.size()) + " +" +
              std::to_string(diff.extra_columns.size());
    if (!diff.missing_steps.empty() || !diff.extra_steps.empty())
      text += "; rows -" + std::to_string(diff.missing_steps.size()) + " +" +
              std::to_string(diff.extra_steps.size());
    if (diff.match) text += " (same values, different text)";
    return text;
  } catch (const TrajectoryFormatError&) {
    return "the old reference was not a trajectory CSV";
  }
}

}  // namespace

const char* StatusName(CaseStatus status) {
  switch (status) {
    case CaseStatus::kPass:
      return "PASS";
    case CaseStatus::kMismatch:
      return "MISMATCH";
    case CaseStatus::kMissingReference:
      return "NO-REFERENCE";
    case CaseStatus::kBadReference:
      return "BAD-REFERENCE";
    case CaseStatus::kSkipped:
      return "SKIPPED";
    case CaseStatus::kInvalidInput:
      return "INVALID";
    case CaseStatus::kPluginProblem:
      return "PLUGIN";
    case CaseStatus::kNumericalFailure:
      return "NUMERICAL";
    case CaseStatus::kRunnerFailed:
      return "ERROR";
    case CaseStatus::kNew:
      return "NEW";
    case CaseStatus::kUpdated:
      return "UPDATED";
    case CaseStatus::kUnchanged:
      return "UNCHANGED";
  }
  return "?";
}

int ExitStatusOf(CaseStatus status) {
  switch (status) {
    case CaseStatus::kMismatch:
    case CaseStatus::kMissingReference:
      return 1;
    case CaseStatus::kBadReference:
    case CaseStatus::kInvalidInput:
      return 2;
    case CaseStatus::kPluginProblem:
      return 3;
    case CaseStatus::kNumericalFailure:
      return 4;
    case CaseStatus::kRunnerFailed:
      return 5;
    default:
      return 0;
  }
}

bool IsFailure(CaseStatus status) { return ExitStatusOf(status) != 0; }

bool ProbeSolverOption(const fs::path& scene_runner, const fs::path& scratch_dir) {
  const fs::path help = scratch_dir / "scene-runner-help.txt";
  const ProcessResult result = RunProcess(scene_runner, {"--help"}, help, "");
  const std::optional<std::string> text = ReadFile(help);
  return result.exit_code == 0 && text && text->find("--solver") != std::string::npos;
}

std::optional<CaseResult> SkippedCase(const RegressionCase& c, const SuiteOptions& options) {
  // A solver override needs scene-runner --solver: without it the case is skipped, not failed.
  if (!c.solver || options.runner_has_solver_option) return std::nullopt;
  CaseResult result;
  result.status = CaseStatus::kSkipped;
  result.summary = "needs scene-runner --solver (solver " + *c.solver +
                   "; this scene-runner has no --solver option yet)";
  return result;
}

CaseCommand CommandOf(const RegressionCase& c, const SuiteOptions& options) {
  // An HDF5 reference (.h5) is compared, and recorded, as HDF5: the run writes one, and both are
  // read back as the CSV of the same run (Hdf5TrajectoryToCsv).
  CaseCommand command;
  command.output = options.output_dir / (c.name + (IsHdf5(c.reference) ? ".h5" : ".csv"));
  command.log = options.output_dir / (c.name + ".stderr");
  command.arguments = c.RunnerArguments();
  command.arguments.insert(command.arguments.end(),
                           {"--output", command.output.string(), "--quiet"});
  for (const std::string& dir : options.plugin_dirs)
    command.arguments.insert(command.arguments.end(), {"--plugin-dir", dir});
  return command;
}

CaseResult RunCase(const RegressionCase& c, const SuiteOptions& options) {
  if (std::optional<CaseResult> skipped = SkippedCase(c, options)) return *skipped;
  const auto started = std::chrono::steady_clock::now();
  const CaseCommand command = CommandOf(c, options);
  const ProcessResult process =
      RunProcess(options.scene_runner, command.arguments, "", command.log);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return CompleteCase(c, options, command, process, seconds);
}

CaseResult CompleteCase(const RegressionCase& c, const SuiteOptions& options,
                        const CaseCommand& command, const ProcessResult& process,
                        double run_seconds) {
  CaseResult result;
  const auto started = std::chrono::steady_clock::now();
  const auto finish = [&](CaseStatus status, std::string summary, std::string details = {}) {
    result.status = status;
    result.summary = std::move(summary);
    result.details = std::move(details);
    result.seconds =
        run_seconds +
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
  };
  const bool hdf5 = IsHdf5(c.reference);
  const fs::path& output = command.output;
  const fs::path& log = command.log;
  const std::string stderr_text = ReadFile(log).value_or("");
  if (!process.started) return finish(CaseStatus::kRunnerFailed, process.error);
  if (process.signal != 0)
    return finish(CaseStatus::kRunnerFailed,
                  "scene-runner was killed by signal " + std::to_string(process.signal),
                  stderr_text);
  if (process.exit_code != 0) {
    const std::string errors = ErrorLines(stderr_text);
    const std::string line =
        "scene-runner exit " + std::to_string(process.exit_code) + ": " + FirstLine(errors);
    switch (process.exit_code) {
      case 2:
        return finish(CaseStatus::kInvalidInput, line, errors);
      case 3:
        return finish(CaseStatus::kPluginProblem, line, errors);
      case 4:
        return finish(CaseStatus::kNumericalFailure, line, errors);
      default:
        return finish(CaseStatus::kRunnerFailed, line, errors);
    }
  }
  const std::optional<std::string> candidate = ReadTrajectory(output);
  if (!candidate)
    return finish(CaseStatus::kRunnerFailed,
                  "scene-runner wrote no trajectory to " + output.string());
  std::size_t rows = 0;
  try {
    rows = ParseTrajectory(*candidate, output.string()).steps.size();
  } catch (const TrajectoryFormatError& error) {
    return finish(CaseStatus::kRunnerFailed, error.what());
  }
  if (rows > kMaxReferenceRows)
    result.warnings.push_back(c.name + ": the trajectory has " + std::to_string(rows) +
                              " rows (keep references under ~200 rows: raise 'every')");

  const std::optional<std::string> reference = ReadTrajectory(c.reference);

  // --update: record the output as the new reference and say what changed.
  if (options.update) {
    std::string error;
    if (reference && *reference == *candidate)
      return finish(CaseStatus::kUnchanged, "unchanged (" + c.reference_as_written + ")");
    if (!(hdf5 ? CopyAtomically(output, c.reference, error)
               : WriteAtomically(c.reference, *candidate, error)))
      return finish(CaseStatus::kInvalidInput, error);
    if (!reference) {
      const Trajectory written = ParseTrajectory(*candidate, output.string());
      return finish(CaseStatus::kNew, "new " + c.reference_as_written + " (" +
                                          std::to_string(rows) + " rows x " +
                                          std::to_string(written.columns.size() + 1) + " columns)");
    }
    return finish(CaseStatus::kUpdated, DescribeChange(*reference, *candidate, c.name));
  }

  // Compare with the reference; a missing reference is a failure.
  if (!reference)
    return finish(CaseStatus::kMissingReference, "no reference " + c.reference_as_written +
                                                     " (record it with: scene-regress --update " +
                                                     c.name + ")");
  try {
    ComparisonReport report = CompareTrajectories(*reference, *candidate, c.tolerances,
                                                  c.reference.string(), output.string());
    const bool match = report.match;
    result.comparison = std::move(report);
    return finish(match ? CaseStatus::kPass : CaseStatus::kMismatch,
                  match ? std::string() : FirstFailure(*result.comparison),
                  FormatReport(*result.comparison));
  } catch (const TrajectoryFormatError& error) {
    return finish(CaseStatus::kBadReference, error.what());
  }
}

}  // namespace fluxion::regress
