#include "output_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace fluxion::runner {

TrajectoryFile::~TrajectoryFile() { Keep(); }

bool TrajectoryFile::Open(const std::string& path, std::string& why) {
  path_ = path;
  // A device or a pipe (-o /dev/null, a FIFO) is written directly: it has no NAME.partial to
  // rename (and creating /dev/null.partial would be a file in /dev).
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) &&
      !S_ISDIR(existing.st_mode)) {
    partial_ = path;
    direct_ = true;
    stream_ = std::fopen(path.c_str(), "wb");
    if (stream_ == nullptr) {
      why = path + ": cannot open the output for writing (" + std::strerror(errno) + ")";
      return false;
    }
    return true;
  }
  partial_ = path + ".partial";
  // Not truncated before the lock is ours: a second run must not destroy the first one's rows.
  const int fd = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) {
    why = path + ": cannot open the output file for writing (" + std::strerror(errno) +
          "; check the folder exists and is writable)";
    return false;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    why = path + ": another run is writing this output (" + partial_ +
          " is locked; expected one run per output file)";
    return false;
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || ::ftruncate(fd, 0) != 0) {
    ::close(fd);
    why = partial_ + ": is not a regular file that can be written (expected a plain file)";
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

bool SameFile(const std::string& a, const std::string& b) {
  struct stat first {
  }, second{};
  return ::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0 &&
         first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

}  // namespace fluxion::runner
