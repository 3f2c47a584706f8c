// What the viewer's page draws and lists, sent once as /scene.json: each mechanical object with
// its topology (triangles, segments with rest lengths, held points), gravity, the scene graph's
// nodes and components (their attributes as written, their fields' help as --list-components
// gives it, the fields that may change between steps) and the registered ODE solvers.
#pragma once

#include <string>

#include "fluxion/host.h"
#include "fluxion/simulation.h"

namespace fluxion::view {

/// The description of `simulation`, loaded from `scene` (an XML file: its elements' attributes
/// are read back by line to show them as written), as JSON text (docs/viewer.md "scene.json").
std::string DescribeScene(const Host& host, const Simulation& simulation, const std::string& scene);

}  // namespace fluxion::view
