// Runs the cases of a regression manifest through scene-runner and compares or records them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "manifest.h"
#include "subprocess.h"
#include "trajectory_compare.h"

namespace fluxion::regress {

/// How one case ended. Every status maps to scene-regress's exit status (ExitStatusOf).
enum class CaseStatus {
  kPass,              ///< matches its reference
  kMismatch,          ///< differs from its reference (values, columns or steps)
  kMissingReference,  ///< no reference file: a failure, never a silent pass
  kBadReference,      ///< the reference is not a trajectory CSV
  kSkipped,           ///< needs a scene-runner feature this scene-runner lacks (--solver)
  kInvalidInput,      ///< scene-runner exit 2 (scene or arguments)
  kPluginProblem,     ///< scene-runner exit 3
  kNumericalFailure,  ///< scene-runner exit 4
  kRunnerFailed,      ///< scene-runner crashed, could not start or wrote no trajectory
  kNew,               ///< --update: the reference was created
  kUpdated,           ///< --update: the reference was rewritten with different contents
  kUnchanged,         ///< --update: the new output is byte-identical to the reference
};

/// "PASS", "MISMATCH", … as printed in the summary and the JUnit report.
const char* StatusName(CaseStatus status);
/// 0 pass/skip/update, 1 mismatch or missing reference, 2 invalid input, 3 plugin problem,
/// 4 numerical failure, 5 scene-runner failed otherwise.
int ExitStatusOf(CaseStatus status);
/// True for the statuses that fail the case.
bool IsFailure(CaseStatus status);

/// The outcome of one case.
struct CaseResult {
  CaseStatus status = CaseStatus::kRunnerFailed;
  std::string summary;  ///< one line: the first failure, the error, what changed
  std::string details;  ///< several lines: the comparison report or scene-runner's stderr
  std::optional<ComparisonReport> comparison;
  std::vector<std::string> warnings;  ///< e.g. a reference with too many rows
  double seconds = 0;
};

/// Where and how cases run.
struct SuiteOptions {
  std::filesystem::path scene_runner;     ///< the executable
  std::vector<std::string> plugin_dirs;   ///< passed as --plugin-dir
  std::filesystem::path output_dir;       ///< candidate CSVs and stderr logs go here
  bool runner_has_solver_option = false;  ///< from ProbeSolverOption
  bool update = false;                    ///< record references instead of comparing
};

/// Asks `scene_runner --help` whether it knows --solver.
bool ProbeSolverOption(const std::filesystem::path& scene_runner,
                       const std::filesystem::path& scratch_dir);

/// Runs one case (and, with options.update, rewrites its reference): SkippedCase, or
/// CommandOf run here and CompleteCase.
CaseResult RunCase(const RegressionCase& c, const SuiteOptions& options);

/// The scene-runner run of a case: its arguments, the trajectory it writes, its stderr's file.
/// What RunCase runs here, and what a Dask cluster runs for scene-regress --cluster.
struct CaseCommand {
  std::vector<std::string> arguments;
  std::filesystem::path output;
  std::filesystem::path log;
};

/// The result of a case that is not run (it needs a scene-runner option this one lacks).
std::optional<CaseResult> SkippedCase(const RegressionCase& c, const SuiteOptions& options);
/// The scene-runner command of a case.
CaseCommand CommandOf(const RegressionCase& c, const SuiteOptions& options);
/// The case's result once `command` ran (here or elsewhere) and ended as `process` after
/// `run_seconds`: its output compared with the reference (or recorded, with options.update).
CaseResult CompleteCase(const RegressionCase& c, const SuiteOptions& options,
                        const CaseCommand& command, const ProcessResult& process,
                        double run_seconds);

/// References with more rows than this get a warning on --update (keep them small: raise every).
inline constexpr std::size_t kMaxReferenceRows = 201;

}  // namespace fluxion::regress
