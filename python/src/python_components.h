// Components written in Python (python/fluxion/python_components.py): their registration with a
// host, and what their build functions share.
#pragma once

#include <pybind11/pybind11.h>

#include "fluxion/component.h"
#include "fluxion/model.h"
#include "fluxion/plugin.h"

namespace fluxion::python {

/// Registers PythonForceField and PythonMapping, for Host::RegisterComponents.
void RegisterPythonComponents(PluginRegistrar& registrar);

/// The `handle` field the scene graph writes: the Python object's number in
/// python_components._registry.
FieldSpec HandleField();

/// The Python object the component's `handle` names, its template checked against `object`'s
/// dimension and its init() run (once per object) with `object`'s initial state; None after
/// reporting why at the component's line. `what` names the kind in messages ("force field").
/// Call with the GIL held.
pybind11::object StartPythonComponent(BuildContext& context, const ObjectModel& object,
                                      const char* what);

}  // namespace fluxion::python
