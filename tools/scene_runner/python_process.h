// Running a Python scene (SofaPython3 style, `createScene(root)`) in its own `python3` process,
// which hands the XML scene it builds back on a channel of its own (child_process.h): what the
// script prints goes to stderr, never into the scene. No interpreter is embedded: docs/python.md
// says why.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "python_scene.h"

namespace fluxion::runner {

/// True for a scene file scene-runner hands to Python (`.py`).
bool IsPythonScene(const std::string& path);

/// What a Python scene may take before it is stopped.
struct PythonSceneLimits {
  std::size_t max_scene_bytes = 0;  ///< its XML, as LoadOptions::max_scene_bytes for an XML scene
  std::chrono::milliseconds timeout{0};  ///< 0: none (scene-runner --python-timeout)
};

/// scene-runner's default time limit of a Python scene (--python-timeout).
inline constexpr std::chrono::seconds kDefaultPythonSceneTimeout{60};

/// Runs `python3 scene_graph.py --result-fd 3 SCENE` (the interpreter the module was built for,
/// or $FLUXION_PYTHON) with the user's rights and environment, the package's folder first on
/// PYTHONPATH, and returns the XML it built. The scene must be a regular file (a FIFO is refused
/// without being opened). The child is killed when it exceeds `limits` or scene-runner ends.
/// Throws SceneError (one line) when the scene is not a regular file, Python or scene_graph.py
/// is not available, or the scene fails (its traceback is on stderr), is too slow or too large.
PythonScene RunPythonScene(const std::string& scene, const PythonSceneLimits& limits);

/// Replaces this process by `python3 -m fluxion run SCENE ARGUMENTS…` (the same interpreter and
/// PYTHONPATH as RunPythonScene), which runs the scene through Sofa.Simulation, controllers
/// included. Returns only when that cannot start, with why in `why`.
void ExecFluxionRun(const std::string& scene, const std::vector<std::string>& arguments,
                    std::string& why);

}  // namespace fluxion::runner
