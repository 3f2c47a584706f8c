#include "python_process.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "child_process.h"
#include "fluxion/text.h"

extern char** environ;

namespace fluxion::runner {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void Fail(const std::string& scene, const std::string& message) {
  throw SceneError({SceneDiagnostic{scene, 0, message}});
}

// The scene must be a regular file before python3 opens it: Python would wait forever on a FIFO,
// and print a traceback for a missing file.
void CheckSceneFile(const std::string& scene) {
  struct stat info {};
  if (::stat(scene.c_str(), &info) != 0) {
    if (errno == ENOENT)
      Fail(scene, "the scene file does not exist (expected a readable Python scene)");
    Fail(scene, std::string("the scene file cannot be read: ") + std::strerror(errno) +
                    " (expected a readable Python scene)");
  }
  if (S_ISDIR(info.st_mode)) Fail(scene, "is a directory (expected a scene file)");
  if (!S_ISREG(info.st_mode))
    Fail(scene, "is not a regular file (expected a scene file; a FIFO or device is never read)");
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

// Our environment, with the package's folder first on PYTHONPATH so that a scene may
// `import fluxion` too.
std::vector<std::string> ChildEnvironment(const fs::path& package_folder) {
  std::string path = package_folder.string();
  if (const char* given = std::getenv("PYTHONPATH"); given != nullptr && *given != '\0')
    path += ":" + std::string(given);
  std::vector<std::string> environment = {"PYTHONPATH=" + path};
  for (char** entry = environ; *entry != nullptr; ++entry)
    if (std::strncmp(*entry, "PYTHONPATH=", 11) != 0) environment.emplace_back(*entry);
  return environment;
}

std::string Seconds(std::chrono::milliseconds duration) {
  return FormatReal(static_cast<double>(duration.count()) / 1000.0) + " s";
}

// The interpreter the module was built for, or $FLUXION_PYTHON.
std::string PythonExecutable() {
  return std::getenv("FLUXION_PYTHON") != nullptr ? std::getenv("FLUXION_PYTHON")
                                                  : std::string(FLUXION_PYTHON_EXECUTABLE);
}

}  // namespace

bool IsPythonScene(const std::string& path) { return path.ends_with(".py"); }

void ExecFluxionRun(const std::string& scene, const std::vector<std::string>& arguments,
                    std::string& why) {
  const std::string python = PythonExecutable();
  const fs::path script = SceneGraphScript();
  if (python.empty() || script.empty()) {
    why = "Python scenes need Python and Fluxion's Python package";
    return;
  }
  std::vector<std::string> argv = {python, "-m", "fluxion", "run", scene};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const std::vector<std::string> environment = ChildEnvironment(script.parent_path().parent_path());
  std::vector<char*> argv_pointers, environment_pointers;
  for (const std::string& argument : argv)
    argv_pointers.push_back(const_cast<char*>(argument.c_str()));
  for (const std::string& entry : environment)
    environment_pointers.push_back(const_cast<char*>(entry.c_str()));
  argv_pointers.push_back(nullptr);
  environment_pointers.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  ::execvpe(python.c_str(), argv_pointers.data(), environment_pointers.data());
  why = "cannot run " + python + ": " + std::strerror(errno) +
        " (expected python3; FLUXION_PYTHON names another)";
}

PythonScene RunPythonScene(const std::string& scene, const PythonSceneLimits& limits) {
  CheckSceneFile(scene);
  const std::string python = PythonExecutable();
  if (python.empty())
    Fail(scene,
         "Python scenes need Python (expected a scene-runner built with FLUXION_PYTHON, "
         "or FLUXION_PYTHON naming a python3)");
  const fs::path script = SceneGraphScript();
  if (script.empty())
    Fail(scene,
         "Python scenes need Fluxion's Python package (expected fluxion/scene_graph.py "
         "beside scene-runner; built with FLUXION_PYTHON)");

  ChildResult child;
  try {
    child = RunWithResultChannel(
        {python, script.string(), "--result-fd", std::to_string(kResultChannelFd), scene},
        ChildEnvironment(script.parent_path().parent_path()),
        ChildLimits{.max_result_bytes = limits.max_scene_bytes, .timeout = limits.timeout});
  } catch (const std::system_error& error) {
    Fail(scene, "cannot run " + python + ": " + error.code().message() +
                    " (expected python3; FLUXION_PYTHON names another)");
  }
  switch (child.ending) {
    case ChildResult::Ending::kExited:
      if (child.code != 0)
        Fail(scene, "the Python scene failed (" + python + " exited with status " +
                        std::to_string(child.code) + "; its message is above)");
      break;
    case ChildResult::Ending::kSignalled:
      Fail(scene, "the Python scene failed (" + python + " was killed by signal " +
                      std::to_string(child.code) + ")");
    case ChildResult::Ending::kTimedOut:
      Fail(scene, "the Python scene did not build its scene within " + Seconds(limits.timeout) +
                      ": stopped (expected a faster createScene, or a longer --python-timeout "
                      "SECONDS; 0 for none)");
    case ChildResult::Ending::kTooLarge:
      Fail(scene, "the Python scene built more than " + std::to_string(limits.max_scene_bytes) +
                      " bytes of XML: stopped (expected a smaller scene, as for an XML scene)");
  }
  return PythonScene(scene, std::move(child.result));
}

}  // namespace fluxion::runner
