// Python scenes (SofaPython3 style, `createScene(root)`) for scene-runner: the XML scene a
// Python scene built (python_process.h runs it), loaded with each problem reported at the Python
// line that made its element. No interpreter is embedded: docs/python.md says why.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/host.h"

namespace fluxion::runner {

/// The XML text a Python scene builds, with each element's Python origin in a trailing comment
/// (`<!--python FILE:LINE-->`, python/fluxion/scene_graph.py). The text came from a program: it
/// gets the XML loader's checks, and the origins are used only where they parse.
class PythonScene {
 public:
  /// `scene` names the Python file in messages; `xml` is what it built.
  PythonScene(std::string scene, std::string xml);

  /// Loads the XML with `host`; problems are reported at the Python lines that made them.
  Simulation Load(const Host& host, const LoadOptions& options) const;

  /// "FILE:LINE" of the Python call that made XML line `line`, or "SCENE:LINE" when unknown.
  std::string Where(int line) const;

 private:
  struct Origin {
    std::string file;
    int line = 0;
  };
  std::optional<Origin> OriginOf(int line) const;

  std::string scene_;
  std::string xml_;
  std::vector<std::size_t> line_starts_;  ///< offset of each line of xml_
};

}  // namespace fluxion::runner
