// The contacts of a run with a collision pipeline, step by step, for the --log-level info summary.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "fluxion/log.h"
#include "fluxion/simulation.h"
#include "fluxion/text.h"

namespace fluxion::runner {

/// Counts each step's contacts (Simulation::contacts: detected at the step's start); logs each
/// step's count at debug level and, at the end, their range at info level.
class ContactTally {
 public:
  void AfterStep(const Simulation& simulation) {
    if (simulation.collision_models().empty()) return;
    const std::size_t count = simulation.contacts().size();
    if (steps_ == 0) least_ = count;
    least_ = std::min(least_, count);
    most_ = std::max(most_, count);
    total_ += count;
    last_ = count;
    ++steps_;
    if (ShouldLog(LogLevel::kDebug))
      LogDebug("step " + std::to_string(simulation.step_count()) + ": " + std::to_string(count) +
               " contacts");
  }
  /// "contacts per step: min …, mean …, max … (last step …)" at info level, for a run that
  /// detected.
  void Log(const std::string& scene) const {
    if (steps_ == 0) return;
    LogInfo(scene + ": contacts per step: min " + std::to_string(least_) + ", mean " +
            FormatReal(static_cast<double>(total_) / static_cast<double>(steps_)) + ", max " +
            std::to_string(most_) + " (last step " + std::to_string(last_) + ")");
  }

 private:
  std::size_t steps_ = 0, least_ = 0, most_ = 0, total_ = 0, last_ = 0;
};

}  // namespace fluxion::runner
