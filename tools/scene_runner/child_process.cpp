#include "child_process.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <optional>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fluxion::runner {

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void ThrowErrno(int error, const char* what) {
  throw std::system_error(error, std::generic_category(), what);
}

// Both ends of a pipe, closed when they go out of scope (O_CLOEXEC: a child started by another
// thread never inherits them).
struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) ThrowErrno(errno, "pipe");
    read = ends[0];
    write = ends[1];
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    CloseRead();
    CloseWrite();
  }
  void CloseRead() {
    if (read >= 0) ::close(read);
    read = -1;
  }
  void CloseWrite() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

// The child's side of the fork: only async-signal-safe calls until exec. Never returns.
[[noreturn]] void StartChild(pid_t parent, char* const argv[], char* const envp[], int channel,
                             int exec_status) {
  ::setpgid(0, 0);
  // Killed with scene-runner, however it ends; if it already ended, do not start at all.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  // The exec-failure pipe above the descriptors set up below, so that placing the channel on
  // kResultChannelFd cannot clobber it.
  exec_status = ::fcntl(exec_status, F_DUPFD_CLOEXEC, 10);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  if (channel == kResultChannelFd)
    ::fcntl(channel, F_SETFD, 0);  // keep it across exec
  else
    ::dup2(channel, kResultChannelFd);  // dup2 clears O_CLOEXEC on the copy
  ::execvpe(argv[0], argv, envp);
  const int error = errno;
  if (exec_status >= 0) (void)!::write(exec_status, &error, sizeof error);
  ::_exit(127);
}

// A started child: killed with its process group and reaped when it goes out of scope unless it
// was reaped before (an exception while reading must not leave it running).
class Child {
 public:
  explicit Child(pid_t pid) : pid_(pid) {}
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (!reaped_) Kill();
  }
  void Kill() {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);  // in case setpgid had not run yet
    Reap(0);
  }
  // Waits for the child; false when it is still running (options = WNOHANG).
  bool Reap(int options) {
    for (;;) {
      const pid_t got = ::waitpid(pid_, &status_, options);
      if (got == pid_) return reaped_ = true;
      if (got == 0) return false;
      if (errno != EINTR) return reaped_ = true;  // ECHILD: nothing left to wait for
    }
  }
  int status() const { return status_; }

 private:
  pid_t pid_;
  int status_ = 0;
  bool reaped_ = false;
};

int MillisecondsLeft(std::optional<Clock::time_point> deadline) {
  if (!deadline) return -1;  // poll: no timeout
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(std::min<long>(left.count(), 1 << 30)) : 0;
}

}  // namespace

ChildResult RunWithResultChannel(const std::vector<std::string>& argv,
                                 const std::vector<std::string>& environment,
                                 const ChildLimits& limits) {
  // Everything the child needs is made before the fork: it may only call async-signal-safe
  // functions until exec.
  std::vector<char*> arguments, variables;
  for (const std::string& argument : argv) arguments.push_back(const_cast<char*>(argument.c_str()));
  arguments.push_back(nullptr);
  for (const std::string& variable : environment)
    variables.push_back(const_cast<char*>(variable.c_str()));
  variables.push_back(nullptr);
  Pipe channel, exec_status;
  const pid_t parent = ::getpid();

  const pid_t pid = ::fork();
  if (pid < 0) ThrowErrno(errno, "fork");
  if (pid == 0)
    StartChild(parent, arguments.data(), variables.data(), channel.write, exec_status.write);
  Child child(pid);
  ::setpgid(pid, pid);  // also here: the group must exist before we may have to kill it
  channel.CloseWrite();
  exec_status.CloseWrite();
  int exec_error = 0;
  ssize_t got = 0;
  while ((got = ::read(exec_status.read, &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    child.Reap(0);
    ThrowErrno(exec_error, "exec");
  }

  ChildResult outcome;
  std::optional<Clock::time_point> deadline;
  if (limits.timeout.count() > 0) deadline = Clock::now() + limits.timeout;
  const auto stop = [&](ChildResult::Ending ending) {
    child.Kill();
    outcome.ending = ending;
    return outcome;
  };
  // The channel, until the child closes it, within the size and time limits.
  char buffer[1 << 16];
  for (;;) {
    pollfd readable{channel.read, POLLIN, 0};
    const int ready = ::poll(&readable, 1, MillisecondsLeft(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) ThrowErrno(errno, "poll");
    if (ready == 0) return stop(ChildResult::Ending::kTimedOut);
    got = ::read(channel.read, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // end of the channel (or a read error: the result ends there)
    if (outcome.result.size() + static_cast<std::size_t>(got) > limits.max_result_bytes)
      return stop(ChildResult::Ending::kTooLarge);
    outcome.result.append(buffer, static_cast<std::size_t>(got));
  }
  // Then its end, within the same time limit.
  while (!child.Reap(WNOHANG)) {
    if (deadline && Clock::now() >= *deadline) return stop(ChildResult::Ending::kTimedOut);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const int status = child.status();
  outcome.ending =
      WIFSIGNALED(status) ? ChildResult::Ending::kSignalled : ChildResult::Ending::kExited;
  outcome.code = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
  return outcome;
}

}  // namespace fluxion::runner
