// Running a reader of untrusted files in a child process, so that a crash or a hang inside a
// third-party library (libhdf5 1.10 crashes on some corrupt files: docs/fuzzing.md, "Known
// findings") is one reason in a message, not the end of the run.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace fluxion::internal {

/// What a contained reader gives back: its text, or its reason (one phrase).
using ReaderFunction = std::function<std::optional<std::string>(std::string& why)>;

/// Calls `read` in a forked child and returns its text, or nullopt with `why`: the child's own
/// reason, or what happened to it — killed by a signal (a crash in `library`), more than
/// `max_bytes` of text, or still running after `timeout_seconds` (then it is killed). The child
/// never returns into the caller's code: it leaves with _exit, without running destructors or
/// flushing the parent's buffers.
std::optional<std::string> ReadInChildProcess(const ReaderFunction& read, const char* library,
                                              std::size_t max_bytes, int timeout_seconds,
                                              std::string& why);

}  // namespace fluxion::internal
