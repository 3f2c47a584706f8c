// Reads a SOFA-style XML scene into a SceneDescription. The only file that includes tinyxml2.
#pragma once

#include <cstddef>
#include <string>

#include "scene/scene_description.h"

namespace fluxion::internal {

/// Parses the scene file at `path` ("-": standard input). Throws SceneError for a missing or
/// unreadable file, anything but a regular file (a FIFO or a device is never opened for reading
/// in a way that could block or read without end), a file over `max_bytes`, malformed XML (two
/// root elements included), a root element that is not <Node>, or an unsupported construct
/// (<include>).
SceneDescription ReadSceneFile(const std::string& path, std::size_t max_bytes);

/// Same, from text in memory; `file_name` is used in messages.
SceneDescription ReadSceneText(const std::string& text, const std::string& file_name);

}  // namespace fluxion::internal
