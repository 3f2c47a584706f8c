// scene-runner --compare: the run's trajectory (CSV text kept in memory) against the reference,
// by step number or, with --align time, at common times (the comparison library of
// tools/scene_regress: trajectory_compare.h, trajectory_alignment.h).
#include <cstdio>
#include <string>

#include "run.h"
#include "trajectory_alignment.h"
#include "trajectory_compare.h"

namespace fluxion::runner {

int CompareWithReference(const RunOptions& options, const std::string& reference,
                         const std::string& candidate) {
  namespace rg = fluxion::regress;
  // The candidate is this run, named as such in messages (never as the scene file).
  const std::string candidate_name = "the run of " + options.scene;
  const rg::Tolerances tolerances{.rtol = options.rtol, .atol = options.atol};
  try {
    if (options.align == rg::Alignment::kTime) {
      const rg::TimeAlignedReport report =
          rg::CompareAtCommonTimes(rg::ParseTrajectory(reference, options.compare),
                                   rg::ParseTrajectory(candidate, candidate_name), tolerances,
                                   options.compare, candidate_name);
      std::fputs(rg::FormatTimeAlignedReport(report).c_str(), stdout);
      return report.match ? kExitSuccess : kExitMismatch;
    }
    const rg::ComparisonReport report =
        rg::CompareTrajectories(reference, candidate, tolerances, options.compare, candidate_name);
    std::fputs(rg::FormatReport(report).c_str(), stdout);
    // Steps at different times: another dt, which step alignment cannot compare.
    if (report.first_mismatch && report.first_mismatch->column == "time")
      std::fputs(
          "  the runs are at different times at the same step (another dt?): --align time "
          "compares them where both are at the same time\n",
          stdout);
    return report.match ? kExitSuccess : kExitMismatch;
  } catch (const rg::TrajectoryFormatError& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return kExitInvalidInput;
  }
}

}  // namespace fluxion::runner
