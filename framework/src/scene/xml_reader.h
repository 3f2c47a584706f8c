// Reads a SOFA-style XML scene into a SceneDescription. The only file that includes tinyxml2.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "scene/scene_description.h"

namespace fluxion::internal {

/// A file brought in by <include href="…">: where it was found and its content.
struct IncludedText {
  std::string path;
  std::string bytes;
};
/// Finds and reads the file an <include> names (`href`, seen from `including_file`), under the
/// input policy; nothing (with `why`) when it may not or cannot be read.
using IncludeReader = std::function<std::optional<IncludedText>(
    const std::string& href, const std::string& including_file, std::string& why)>;

/// Parses the scene file at `path` ("-": standard input), with the files its <include> elements
/// name (read through `includes`; without one, an <include> is an error). Throws SceneError for
/// a missing or unreadable file, anything but a regular file (a FIFO or a device is never opened
/// for reading in a way that could block or read without end), a file over `max_bytes`,
/// malformed XML (two root elements included), or a root element that is not <Node>.
SceneDescription ReadSceneFile(const std::string& path, std::size_t max_bytes,
                               const IncludeReader& includes = {});

/// Same, from text in memory; `file_name` is used in messages.
SceneDescription ReadSceneText(const std::string& text, const std::string& file_name,
                               const IncludeReader& includes = {});

}  // namespace fluxion::internal
