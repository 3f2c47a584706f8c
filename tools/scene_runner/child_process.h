// Running a helper program whose result comes back on a channel of its own (file descriptor 3),
// bounded in size and time, and never outliving scene-runner: how Python scenes are run
// (python_scene.h). The child's standard output is joined to our standard error, so whatever the
// program prints is shown to the user and never taken for its result (nor mixed into the
// trajectory scene-runner writes on its own standard output).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace fluxion::runner {

/// The file descriptor the child writes its result on.
inline constexpr int kResultChannelFd = 3;

/// What a child may take before it is killed.
struct ChildLimits {
  std::size_t max_result_bytes = 0;      ///< more on the channel: killed (kTooLarge)
  std::chrono::milliseconds timeout{0};  ///< 0: none; longer: killed (kTimedOut)
};

/// How a child ended, and what it wrote on its channel.
struct ChildResult {
  enum class Ending { kExited, kSignalled, kTimedOut, kTooLarge };
  Ending ending = Ending::kExited;
  int code = 0;        ///< exit status (kExited) or signal number (kSignalled)
  std::string result;  ///< what it wrote on kResultChannelFd (up to the limit)
};

/// Runs `argv` (argv[0] looked up on PATH) with `environment`, its standard output joined to our
/// standard error and kResultChannelFd the write end of a pipe read here, in a process group of
/// its own. The child is killed (SIGKILL) if scene-runner dies first (PR_SET_PDEATHSIG: a SIGTERM
/// or SIGINT to scene-runner leaves no orphan), and its whole group when it exceeds `limits`.
/// Throws std::system_error when it cannot be started (errno of the failed fork or exec).
ChildResult RunWithResultChannel(const std::vector<std::string>& argv,
                                 const std::vector<std::string>& environment,
                                 const ChildLimits& limits);

}  // namespace fluxion::runner
