// Runs a program as a child process with its output redirected to files (POSIX).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace fluxion::regress {

/// How a child process ended.
struct ProcessResult {
  bool started = false;  ///< false when the program could not be executed (see `error`)
  int exit_code = -1;    ///< the exit status when it exited normally, else -1
  int signal = 0;        ///< the signal that killed it, else 0
  std::string error;     ///< why it could not be started
};

/// Runs `program` with `arguments` (argv[1…]), stdout and stderr written to the given files
/// (truncated; an empty path means /dev/null; a stderr_file of "-" keeps ours), and waits for it.
/// Safe to call from several threads.
ProcessResult RunProcess(const std::filesystem::path& program,
                         const std::vector<std::string>& arguments,
                         const std::filesystem::path& stdout_file,
                         const std::filesystem::path& stderr_file);

}  // namespace fluxion::regress
