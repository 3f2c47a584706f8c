#include "output/contained_reader.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace fluxion::internal {

namespace {

// Writes all of `data` to `fd` (the child's side of the pipe); false when the parent went away.
bool WriteAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

// The child: one status byte ('T' text follows, 'W' a reason follows), then the bytes.
[[noreturn]] void RunChild(const ReaderFunction& read, int fd) {
  int status = 0;
  try {
    std::string why;
    const std::optional<std::string> text = read(why);
    const char tag = text ? 'T' : 'W';
    const std::string& body = text ? *text : why;
    if (!WriteAll(fd, &tag, 1) || !WriteAll(fd, body.data(), body.size())) status = 1;
  } catch (...) {  // reported by the parent as "no answer": the message cannot cross the fork
    status = 2;
  }
  ::_exit(status);
}

}  // namespace

std::optional<std::string> ReadInChildProcess(const ReaderFunction& read, const char* library,
                                              std::size_t max_bytes, int timeout_seconds,
                                              std::string& why) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    why = std::string("cannot start its reader (pipe: ") + std::strerror(errno) + ")";
    return std::nullopt;
  }
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    why = std::string("cannot start its reader (fork: ") + std::strerror(errno) + ")";
    return std::nullopt;
  }
  if (child == 0) {
    ::close(pipe_fds[0]);
    RunChild(read, pipe_fds[1]);
  }
  ::close(pipe_fds[1]);

  // Read until the child closes its end, within the size cap and the deadline.
  std::string received;
  bool too_large = false, timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  char buffer[1 << 16];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd waiting{pipe_fds[0], POLLIN, 0};
    const int ready = ::poll(&waiting, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (received.size() + static_cast<std::size_t>(got) > max_bytes + 1) {
      too_large = true;
      break;
    }
    received.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  if (timed_out || too_large) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }

  if (timed_out) {
    why = std::string(library) + " did not finish reading it within " +
          std::to_string(timeout_seconds) + " s (expected a well-formed file)";
    return std::nullopt;
  }
  if (too_large) {
    why = "its text would exceed the memory budget (" + std::to_string(max_bytes) + " bytes)";
    return std::nullopt;
  }
  if (WIFSIGNALED(status)) {
    why = std::string(library) + " crashed on it (signal " + std::to_string(WTERMSIG(status)) +
          ": a corrupt file; expected a well-formed one)";
    return std::nullopt;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || received.empty()) {
    why = "its reader gave no answer (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
    return std::nullopt;
  }
  if (received[0] == 'W') {
    why = received.substr(1);
    return std::nullopt;
  }
  return received.substr(1);
}

}  // namespace fluxion::internal
