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

/// Raises fluxion.NumericalError for a failed step of the Python Simulation `simulation`, with
/// scene-runner's message "FILE:LINE: numerical failure at step N (t = T): why". For a Python
/// scene (loaded with LoadOptions::python_origins), FILE:LINE is the Python call that added the
/// ODE solver, as scene-runner reports it. Never returns.
[[noreturn]] void RaiseNumericalError(const pybind11::object& simulation,
                                      const NumericalError& error);

}  // namespace fluxion::python
