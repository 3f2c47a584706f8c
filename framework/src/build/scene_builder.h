// Turns a SceneDescription into a Simulation: a short pipeline of passes over the scene tree.
#pragma once

#include <memory>

#include "fluxion/host.h"
#include "fluxion/simulation.h"
#include "plugin/plugin_loader.h"
#include "registry/component_registry.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

struct RebuildInputs;

/// Builds the simulation of `scene`. Every problem of a pass is reported at once: throws
/// SceneError (invalid input, with FILE:LINE per problem) or PluginError (a component or
/// RequiredPlugin that no loaded plugin provides; a plugin's own failure). `plugins` may be null
/// (no plugin context: RequiredPlugin then only accepts SOFA module names). `rebuild`, given by
/// a topological change (build/topology_rebuild.h), builds the scene again on the changed
/// topology: then no observer is built and no change stage is created.
Simulation BuildSimulation(const SceneDescription& scene,
                           std::shared_ptr<const ComponentRegistry> registry,
                           const PluginLoader* plugins, const LoadOptions& options = {},
                           RebuildInputs* rebuild = nullptr);

}  // namespace fluxion::internal
