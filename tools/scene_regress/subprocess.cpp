#include "subprocess.h"

#include <spawn.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace fluxion::regress {

ProcessResult RunProcess(const std::filesystem::path& program,
                         const std::vector<std::string>& arguments,
                         const std::filesystem::path& stdout_file,
                         const std::filesystem::path& stderr_file) {
  ProcessResult result;
  const std::string program_text = program.string();
  std::vector<std::string> strings;
  strings.reserve(arguments.size() + 1);
  strings.push_back(program_text);
  strings.insert(strings.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  // The child's stdin is /dev/null; stdout and stderr go to the files (opened in the child).
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string out = stdout_file.empty() ? "/dev/null" : stdout_file.string();
  const std::string err = stderr_file.empty() ? "/dev/null" : stderr_file.string();
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (stderr_file != "-")
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);

  pid_t pid = 0;
  const int spawn_error =
      posix_spawn(&pid, program_text.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) {
    result.error = program_text + ": cannot run it (" + std::strerror(spawn_error) + ")";
    return result;
  }
  result.started = true;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.error = std::string("waitpid failed: ") + std::strerror(errno);
      return result;
    }
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace fluxion::regress
