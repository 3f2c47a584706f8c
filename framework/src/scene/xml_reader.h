// Reads a SOFA-style XML scene into a SceneDescription. The only file that includes tinyxml2.
#pragma once

#include <string>

#include "fluxion/export.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

/// Parses the scene file at `path`. Throws SceneError for a missing or unreadable file, malformed
/// XML, a root element that is not <Node>, or an unsupported construct (<include>).
FLUXION_API SceneDescription ReadSceneFile(const std::string& path);

/// Same, from text in memory; `file_name` is used in messages.
FLUXION_API SceneDescription ReadSceneText(const std::string& text, const std::string& file_name);

}  // namespace fluxion::internal
