// fluxion.Simulation: stepping, state access through MechanicalObject views, energies, solver
// replacement.
#pragma once

#include <pybind11/pybind11.h>

namespace fluxion::python {

/// Defines fluxion._fluxion.Simulation (fluxion::Simulation, owned by the Python object).
void BindSimulation(pybind11::module_& module);

}  // namespace fluxion::python
