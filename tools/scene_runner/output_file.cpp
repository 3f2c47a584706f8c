#include "output_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace fluxion::runner {

TrajectoryFile::~TrajectoryFile() { Keep(); }

bool TrajectoryFile::Open(const std::string& path, const OutputClaim* partial, std::string& why) {
  path_ = path;
  // A device or a pipe (-o /dev/null, a FIFO) is written directly: it has no NAME.partial to
  // rename (and creating /dev/null.partial would be a file in /dev).
  if (partial == nullptr) {
    partial_ = path;
    direct_ = true;
    stream_ = std::fopen(path.c_str(), "wb");
    if (stream_ == nullptr) {
      why = path + ": cannot open the output for writing (" + std::strerror(errno) + ")";
      return false;
    }
    return true;
  }
  partial_ = path + ".partial";  // as the user spells it, for messages (claimed as partial->path)
  // Another run writing this output holds the lock of the NAME.partial it writes: an existing
  // one is locked first (opened to read only, never written), then replaced by a new file.
  const int previous = ::open(partial_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (previous >= 0 && ::flock(previous, LOCK_EX | LOCK_NB) != 0) {
    ::close(previous);
    why = path + ": another run is writing this output (" + partial_ +
          " is locked; expected one run per output file)";
    return false;
  }
  std::string reason;
  const int fd = OpenClaimedOutputDescriptor(*partial, &reason);
  if (previous >= 0) ::close(previous);
  if (fd < 0) {
    why = "--output: " + reason;
    return false;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    why = path + ": another run is writing this output (" + partial_ +
          " is locked; expected one run per output file)";
    return false;
  }
  stream_ = ::fdopen(fd, "wb");
  if (stream_ == nullptr) {
    ::close(fd);
    why = partial_ + ": cannot open the output file for writing";
    return false;
  }
  return true;
}

bool TrajectoryFile::Commit(std::string& why) {
  if (stream_ == nullptr) return false;
  if (direct_) {
    const bool flushed = std::fflush(stream_) == 0;
    std::fclose(stream_);
    stream_ = nullptr;
    if (!flushed) why = path_ + ": could not be written (" + std::strerror(errno) + ")";
    return flushed;
  }
  // Renamed while still open and locked: a run waiting for the lock never sees a moved file.
  const bool flushed = std::fflush(stream_) == 0;
  if (!flushed || std::rename(partial_.c_str(), path_.c_str()) != 0) {
    why = path_ + ": could not be written (" + std::strerror(errno) + "); the rows are in " +
          partial_;
    Keep();
    return false;
  }
  std::fclose(stream_);
  stream_ = nullptr;
  return true;
}

void TrajectoryFile::Keep() {
  if (stream_ == nullptr) return;
  std::fclose(stream_);
  stream_ = nullptr;
}

}  // namespace fluxion::runner
