// What a PreparedScene holds: the scene as read, and what the builds of it need.
#pragma once

#include <memory>

#include "fluxion/host.h"
#include "fluxion/prepared_scene.h"
#include "plugin/plugin_loader.h"
#include "registry/component_registry.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

struct PreparedSceneData {
  SceneDescription scene;  ///< read once, never changed
  LoadOptions options;     ///< those given to Prepare
  std::shared_ptr<const ComponentRegistry> registry;
  /// The Host's loader (RequiredPlugin checks), kept alive with the prepared scene.
  std::shared_ptr<const PluginLoader> plugins;
};

}  // namespace fluxion::internal
