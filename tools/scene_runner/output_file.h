// scene-runner's trajectory file: written as NAME.partial (locked, so that two runs cannot write
// one output at once) and renamed to NAME only when the run ends well; a run that fails or is
// killed leaves NAME.partial with every row written so far, and never a half-written NAME. A device
// or a pipe (/dev/null, a FIFO) is written directly.
#pragma once

#include <cstdio>
#include <string>

#include "fluxion/output_files.h"

namespace fluxion::runner {

class TrajectoryFile {
 public:
  TrajectoryFile() = default;
  TrajectoryFile(const TrajectoryFile&) = delete;
  TrajectoryFile& operator=(const TrajectoryFile&) = delete;
  ~TrajectoryFile();

  /// Opens the claimed `path`.partial for writing, locked, as a new file (an existing one is
  /// replaced, never written through); with no claim, `path` itself (a device or a pipe). False
  /// (with `why`, one line) when another run holds the lock or the file cannot be created.
  bool Open(const std::string& path, const OutputClaim* partial, std::string& why);
  std::FILE* stream() const { return stream_; }
  const std::string& partial_path() const { return partial_; }

  /// Flushes and renames NAME.partial to NAME. False (with `why`) when that fails.
  bool Commit(std::string& why);
  /// Flushes and closes, leaving NAME.partial in place (a failed run).
  void Keep();

 private:
  std::string path_, partial_;
  std::FILE* stream_ = nullptr;
  bool direct_ = false;  ///< a device or pipe, written directly (no NAME.partial)
};

}  // namespace fluxion::runner
