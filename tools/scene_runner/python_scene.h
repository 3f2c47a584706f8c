// Python scenes (SofaPython3 style, `createScene(root)`) for scene-runner: the scene runs in its
// own `python3` process, which prints the XML scene it builds (python/fluxion/scene_graph.py);
// scene-runner loads that XML. No interpreter is embedded: docs/python.md says why.
#pragma once

#include <string>

#include "fluxion/errors.h"
#include "fluxion/host.h"

namespace fluxion::runner {

/// True for a scene file scene-runner hands to Python (`.py`).
bool IsPythonScene(const std::string& path);

/// The XML text a Python scene builds, with each element's Python origin in a trailing comment.
class PythonScene {
 public:
  /// Runs `python3 scene_graph.py SCENE` (the interpreter the module was built for, or
  /// $FLUXION_PYTHON) with the user's rights and environment, the package's folder first on
  /// PYTHONPATH. Its stderr (a traceback) goes to ours. Throws SceneError when Python is not
  /// available, scene_graph.py is not found, or the scene fails.
  explicit PythonScene(const std::string& scene);

  /// Loads the XML with `host`; problems are reported at the Python lines that made them.
  Simulation Load(const Host& host, const LoadOptions& options) const;

  /// "FILE:LINE" of the Python call that made XML line `line`, or "SCENE:LINE" when unknown.
  std::string Where(int line) const;

 private:
  std::string scene_;
  std::string xml_;
};

}  // namespace fluxion::runner
