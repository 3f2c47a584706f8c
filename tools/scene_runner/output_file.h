// scene-runner's trajectory file: written as NAME.partial (locked, so that two runs cannot write
// one output at once) and renamed to NAME only when the run ends well; a run that fails or is
// killed leaves NAME.partial with every row written so far, and never a half-written NAME. A device
// or a pipe (/dev/null, a FIFO) is written directly.
#pragma once

#include <cstdio>
#include <string>

namespace fluxion::runner {

class TrajectoryFile {
 public:
  TrajectoryFile() = default;
  TrajectoryFile(const TrajectoryFile&) = delete;
  TrajectoryFile& operator=(const TrajectoryFile&) = delete;
  ~TrajectoryFile();

  /// Opens `path`.partial for writing, locked. False (with `why`, one line) when another run
  /// holds the lock or the file cannot be created.
  bool Open(const std::string& path, std::string& why);
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

/// True if `a` and `b` name the same existing file (same device and inode).
bool SameFile(const std::string& a, const std::string& b);

}  // namespace fluxion::runner
