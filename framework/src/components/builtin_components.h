// The components built into the framework, registered through the same PluginRegistrar
// interface as the components of plugins.
#pragma once

#include "fluxion/plugin.h"

namespace fluxion::internal {

/// Registers every built-in component: objects, topology, masses, constraints, loads, springs,
/// linear solvers, RequiredPlugin, Gravity, and SOFA's visual-only components (accepted, ignored).
void RegisterBuiltinComponents(PluginRegistrar& registrar);

}  // namespace fluxion::internal
