// scene-runner's progress report on stderr: a bar redrawn in place on a terminal, or one line per
// report when asked for elsewhere (--progress), never on stdout, which carries data only.
//
// Reports are time-based: a ticker thread raises a flag about once a second, and the stepping
// loop only reads that flag after each step (one relaxed atomic load: nothing measurable next to
// a step, however small the scene), so a slow run and a fast one both refresh every second.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace fluxion::runner {

enum class ProgressStyle {
  kOff,       ///< nothing (stderr is not a terminal and --progress was not given, or --quiet)
  kTerminal,  ///< a bar redrawn in place ("\r"), from the first second on
  kLines,     ///< one "progress: …" line per report, and always a last one (--progress)
};

/// What one report shows: done steps out of `total`, simulated time, speed and time left.
/// `elapsed` is the wall time since the first step [s]; `width` the bar's width in characters
/// (0: no bar, the line form). Pure, for tests.
std::string FormatProgress(long steps, long total, double sim_time, double elapsed, int width);

/// The progress of one run.
class ProgressReporter {
 public:
  /// `stream` is stderr in scene-runner; `total` the number of steps the run will do.
  ProgressReporter(ProgressStyle style, long total, std::FILE* stream,
                   std::chrono::milliseconds period = std::chrono::seconds(1));
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  /// Called after every step: draws only when the ticker says a report is due.
  void AfterStep(long steps, double sim_time) {
    if (due_.load(std::memory_order_relaxed)) Report(steps, sim_time);
  }
  /// The last report when the run ends: a terminal keeps the final bar (if one was drawn) on its
  /// line; the line style always prints one.
  void Finish(long steps, double sim_time);
  /// Erases a bar drawn on a terminal, so that an error message gets a line of its own.
  void Clear();

 private:
  void Report(long steps, double sim_time);
  double Elapsed() const;

  ProgressStyle style_;
  long total_;
  std::FILE* stream_;
  std::chrono::steady_clock::time_point start_;
  bool drawn_ = false;
  std::atomic<bool> due_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread ticker_;  // last: started once everything it uses exists
};

}  // namespace fluxion::runner
