// Turns a SceneDescription into a Simulation: validates every component, resolves links,
// builds the mechanical objects, assembles one system per solver node and creates the solvers.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fluxion/export.h"
#include "plugin/component_registry.h"
#include "plugin/plugin_loader.h"
#include "scene/scene_description.h"
#include "simulation/simulation.h"

namespace fluxion::internal {

/// Replaces every ODE solver of a scene (scene-runner --solver NAME --param key=value).
struct SolverOverride {
  std::string name;  ///< component name, e.g. "RungeKutta4Solver"
  std::vector<std::pair<std::string, std::string>> params;  ///< its attributes, as in XML
};

struct BuildOptions {
  std::optional<double> dt;                       ///< replaces the root node's dt
  std::optional<SolverOverride> solver_override;  ///< replaces each solver node's ODE solver
};

/// Builds the simulation of `scene`. Every problem found is reported at once: throws SceneError
/// (invalid input, with FILE:LINE per problem) or PluginError (a component or RequiredPlugin that
/// no loaded plugin provides; a plugin's own failure). `plugins` may be null (no plugin context:
/// RequiredPlugin then only accepts SOFA module names).
FLUXION_API Simulation BuildSimulation(const SceneDescription& scene,
                                       const ComponentRegistry& registry,
                                       const PluginLoader* plugins,
                                       const BuildOptions& options = {});

/// The plugin that provides a well-known solver component, e.g. "EulerImplicitSolver" ->
/// "euler_implicit"; empty if the name is not one Fluxion ships.
FLUXION_API std::string BundledPluginFor(const std::string& component);

}  // namespace fluxion::internal
