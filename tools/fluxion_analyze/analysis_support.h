#pragma once
// What the oscillator analyses (analysis.cpp) and the scene measurements (scene_measures.cpp)
// share: the solver named on the command line, the load options and the round-off model.

#include <optional>

#include "analysis.h"
#include "fluxion/host.h"

namespace fluxion::analysis {

/// The registered component of an ODE solver, or the exception the command line reports
/// (PluginError: bundled but not on the search path; ConfigError: unknown, not an ODE solver, a
/// static method, or a --param key that is not an attribute name).
const ComponentInfo& FindSolver(const Host& host, const SolverChoice& solver);

/// Load options: the time step, and the solver replacing the scene's own ones (if any).
inline LoadOptions Options(std::optional<double> dt,
                           const std::optional<SolverChoice>& solver = std::nullopt) {
  return {.dt = dt, .solver = solver};
}

/// The round-off in the positions of a run of `steps` steps whose positions are about `scale`:
/// rounding errors add up like a random walk, ε·scale·√steps (Henrici). FitOrder uses a run whose
/// error is 10 times this, and its consistency check catches a pair that round-off still bends.
double RoundOff(double scale, long steps);

}  // namespace fluxion::analysis
