#include "python_scene.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace fluxion::runner {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void Fail(const std::string& scene, const std::string& message) {
  throw SceneError({SceneDiagnostic{scene, 0, message}});
}

// scene_graph.py beside this scene-runner: the build tree keeps the package in python/, an
// installed tree in FLUXION_PYTHON_INSTALL_DIR (both relative to the executable's parent).
fs::path SceneGraphScript() {
  std::error_code error;
  const fs::path prefix = fs::read_symlink("/proc/self/exe", error).parent_path().parent_path();
  for (const char* folder : {"python", FLUXION_PYTHON_INSTALL_DIR}) {
    const fs::path script = prefix / folder / "fluxion" / "scene_graph.py";
    if (fs::is_regular_file(script, error)) return script;
  }
  return {};
}

// The XML line `line` (1-based) of `xml`, or empty.
std::string_view LineOf(const std::string& xml, int line) {
  std::size_t start = 0;
  for (int k = 1; k < line; ++k) {
    start = xml.find('\n', start);
    if (start == std::string::npos) return {};
    ++start;
  }
  const std::size_t end = std::min(xml.find('\n', start), xml.size());
  return std::string_view(xml).substr(start, end - start);
}

}  // namespace

bool IsPythonScene(const std::string& path) { return path.ends_with(".py"); }

PythonScene::PythonScene(const std::string& scene) : scene_(scene) {
  const std::string python = std::getenv("FLUXION_PYTHON") != nullptr
                                 ? std::getenv("FLUXION_PYTHON")
                                 : std::string(FLUXION_PYTHON_EXECUTABLE);
  if (python.empty())
    Fail(scene,
         "Python scenes need Python (expected a scene-runner built with FLUXION_PYTHON, "
         "or FLUXION_PYTHON naming a python3)");
  const fs::path script = SceneGraphScript();
  if (script.empty())
    Fail(scene,
         "Python scenes need Fluxion's Python package (expected fluxion/scene_graph.py "
         "beside scene-runner; built with FLUXION_PYTHON)");

  // The package's folder first on PYTHONPATH, so that a scene may `import fluxion` too.
  std::string path = script.parent_path().parent_path().string();
  if (const char* given = std::getenv("PYTHONPATH"); given != nullptr && *given != '\0')
    path += ":" + std::string(given);
  std::vector<std::string> environment = {"PYTHONPATH=" + path};
  for (char** entry = environ; *entry != nullptr; ++entry)
    if (std::strncmp(*entry, "PYTHONPATH=", 11) != 0) environment.emplace_back(*entry);
  std::vector<char*> envp;
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::string script_text = script.string(), scene_text = scene;
  std::string program = python;
  char* argv[] = {program.data(), script_text.data(), scene_text.data(), nullptr};

  // The child's stdout into a pipe; its stderr stays ours (a traceback reaches the user as is).
  int pipe_ends[2];
  if (::pipe(pipe_ends) != 0) Fail(scene, std::string("cannot run Python: ") + strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[1]);
  pid_t child = 0;
  const int spawned = posix_spawnp(&child, argv[0], &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_ends[1]);
  if (spawned != 0) {
    ::close(pipe_ends[0]);
    Fail(scene, "cannot run " + python + ": " + strerror(spawned) +
                    " (expected python3; FLUXION_PYTHON names another)");
  }
  char buffer[65536];
  for (ssize_t got; (got = ::read(pipe_ends[0], buffer, sizeof buffer)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    xml_.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_ends[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    Fail(scene, "the Python scene failed (" + python + " " +
                    (WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                       : std::string("was killed")) +
                    "; its message is above)");
}

Simulation PythonScene::Load(const Host& host, const LoadOptions& options) const {
  try {
    return host.LoadString(xml_, scene_, options);
  } catch (const SceneError& error) {
    // Each problem at the Python call that made its element.
    std::vector<SceneDiagnostic> located;
    for (SceneDiagnostic diagnostic : error.diagnostics()) {
      if (diagnostic.file == scene_ && diagnostic.line > 0) {
        const std::string where = Where(diagnostic.line);
        const std::size_t colon = where.rfind(':');
        diagnostic.file = where.substr(0, colon);
        diagnostic.line = std::atoi(where.c_str() + colon + 1);
      }
      located.push_back(std::move(diagnostic));
    }
    throw SceneError(std::move(located));
  }
}

std::string PythonScene::Where(int line) const {
  // scene_graph.py ends each element's line with <!--python FILE:LINE-->.
  constexpr std::string_view kOpen = "<!--python ", kClose = "-->";
  const std::string_view text = LineOf(xml_, line);
  const std::size_t open = text.rfind(kOpen);
  if (open != std::string_view::npos && text.ends_with(kClose)) {
    const std::string_view origin =
        text.substr(open + kOpen.size(), text.size() - open - kOpen.size() - kClose.size());
    const std::size_t colon = origin.rfind(':');
    if (colon != std::string_view::npos && colon + 1 < origin.size() &&
        origin.find_first_not_of("0123456789", colon + 1) == std::string_view::npos)
      return std::string(origin);
  }
  return scene_ + ":" + std::to_string(line);
}

}  // namespace fluxion::runner
