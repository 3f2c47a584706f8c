// Fluxion's exceptions as Python exceptions (fluxion.SceneError, PluginError, NumericalError,
// UsageError), carrying the one-line messages scene-runner prints.
#pragma once

#include <pybind11/pybind11.h>

#include "fluxion/errors.h"
#include "fluxion/simulation.h"

namespace fluxion::python {

/// Registers the translation of fluxion::Error and its subclasses into the classes defined in
/// fluxion/errors.py (pure Python, so that `fluxion.load("scene.py")` can re-raise a SceneError
/// with the Python scene's lines). Call once from the module's initialisation.
void RegisterErrorTranslation();

/// Raises fluxion.NumericalError for a failed step of `simulation`, with scene-runner's message
/// "FILE:LINE: numerical failure at step N (t = T): why". Never returns.
[[noreturn]] void RaiseNumericalError(const Simulation& simulation, const NumericalError& error);

}  // namespace fluxion::python
