// DataOverride applied to a scene as read: the attribute an override names is written into the
// scene description, so that the build that follows validates and uses it exactly as if the XML
// had held it (PreparedScene::Instantiate).
#pragma once

#include <vector>

#include "fluxion/prepared_scene.h"
#include "registry/component_registry.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

/// Writes each override into `scene`, in order: an existing attribute for the same data (under
/// its name or any alias the component's type declares for it) gets the new text and keeps its
/// line; otherwise the attribute is added at the element's line. "dt" is the root node's dt.
/// Throws SceneError (at the scene's file, line 0, one diagnostic per override) for a path that
/// is not "node/path/object.data", names no node or component, or names several components.
/// Data the component does not declare are left for the build to report, as it reports an
/// unknown attribute in the XML.
void ApplyOverrides(SceneDescription& scene, const std::vector<DataOverride>& overrides,
                    const ComponentRegistry& registry);

}  // namespace fluxion::internal
