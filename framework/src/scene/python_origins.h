// The Python lines of a scene generated from a Python scene (fluxion/scene_graph.py's to_xml
// ends each element's line with <!--python FILE:LINE-->), so that every message — errors,
// warnings and the lines they refer to — names the Python call that made the element.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace fluxion::internal {

/// XML line (1-based) → (Python file, line) for each line of `xml` that ends with a well-formed
/// origin comment. The text is trusted only as far as it parses: a file name with a control byte
/// (which would reach a terminal), or a line number that is not a positive int, is skipped and the
/// element keeps its XML line.
std::unordered_map<int, std::pair<std::string, int>> PythonOrigins(std::string_view xml);

}  // namespace fluxion::internal
