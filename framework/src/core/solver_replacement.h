// What a replacement ODE solver (scene-runner --solver, Simulation::ReplaceSolver) keeps of the
// solver it replaces: the scene's parameters that the new solver also declares.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/parameter_parsing.h"
#include "fluxion/parameters.h"

namespace fluxion::internal {

/// The attributes a replacement solver is created with, and the replaced solver's that it drops.
struct CarriedAttributes {
  std::vector<AttributeText> kept;     ///< the scene's that `spec` declares, then the given ones
  std::vector<AttributeText> dropped;  ///< the scene's that `spec` does not declare
};

/// Why: an engineer swapping EulerImplicitSolver for itself, or for another solver with Rayleigh
/// damping, compares integrators on the scene's physics, which its rayleighStiffness and
/// rayleighMass are part of; a parameter the new solver does not have cannot be kept, and is
/// named (DroppedText) rather than silently lost. `scene` is the replaced solver's attributes
/// without `name` and the bookkeeping ones; `given` (--param key=value, line 0) override the
/// scene's of the same field (by canonical name, so an alias overrides too).
CarriedAttributes CarryOverSolverAttributes(
    const ComponentSpec& spec, const std::vector<AttributeText>& scene,
    const std::vector<std::pair<std::string, std::string>>& given);

/// "rayleighStiffness=\"0.05\" and rayleighMass=\"0.1\"": the dropped attributes for one line of
/// a warning.
std::string DroppedText(const std::vector<AttributeText>& dropped);

}  // namespace fluxion::internal
