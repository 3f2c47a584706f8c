// Python scenes (SofaPython3 style, `createScene(root)`) for scene-runner: the XML scene a
// Python scene built (python_process.h runs it), loaded with each problem reported at the Python
// line that made its element. No interpreter is embedded: docs/python.md says why.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/host.h"

namespace fluxion::runner {

/// The XML text a Python scene builds, with each element's Python origin in a trailing comment
/// (`<!--python FILE:LINE-->`, python/fluxion/scene_graph.py). The text came from a program: it
/// gets the XML loader's checks, and the origins are used only where they parse.
class PythonScene {
 public:
  static constexpr std::string_view kControllersMark = "#controllers ";

  /// `scene` names the Python file in messages; `xml` is what it built.
  PythonScene(std::string scene, std::string xml);

  /// True when the scene has Python controllers (Sofa.Core.Controller): the scene process
  /// then sends, instead of XML, `#controllers FILE:LINE: why` (scene_graph.py,
  /// CONTROLLERS_MARK), and the scene runs with `python3 -m fluxion run` (controller_run.h).
  bool has_controllers() const { return xml_.starts_with(kControllersMark); }
  /// "FILE:LINE: the scene has Python controllers …", for a scene that has them.
  std::string controllers_message() const;

  /// Loads the XML with `host`; problems are reported at the Python lines that made them
  /// (LoadOptions::python_origins).
  Simulation Load(const Host& host, const LoadOptions& options) const;

 private:
  std::string scene_;
  std::string xml_;
};

}  // namespace fluxion::runner
