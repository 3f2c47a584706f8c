// sim.objects["root/cloth/dofs"]: one mechanical object of a Python-held Simulation.
#pragma once

#include <pybind11/pybind11.h>

namespace fluxion::python {

/// A mechanical object, by index, of the Python Simulation `simulation`. Holding the Python
/// object (not a C++ reference) keeps the simulation, and with it every array viewing its state
/// or model, alive as long as the view is.
struct ObjectView {
  pybind11::object simulation;
  int index = -1;
};

/// Defines fluxion._fluxion.MechanicalObject.
void BindObjectView(pybind11::module_& module);

}  // namespace fluxion::python
