#include "browser.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <thread>

extern char** environ;

namespace fluxion::view {

bool OpenBrowser(const std::string& url, std::string& why) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((display == nullptr || *display == '\0') && (wayland == nullptr || *wayland == '\0')) {
    why = "no display (DISPLAY and WAYLAND_DISPLAY are unset)";
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::string program = "xdg-open";
  char* arguments[] = {program.data(), const_cast<char*>(url.c_str()), nullptr};
  pid_t child = 0;
  const int status = posix_spawnp(&child, "xdg-open", &actions, nullptr, arguments, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (status != 0) {
    why = "cannot start xdg-open (install xdg-utils)";
    return false;
  }
  // xdg-open hands the URL to the browser and exits: reaped here, so that no zombie is left.
  std::thread([child] {
    int ignored = 0;
    ::waitpid(child, &ignored, 0);
  }).detach();
  return true;
}

}  // namespace fluxion::view
