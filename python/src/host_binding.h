// fluxion.Host: the components of the plugin search path, and the loading of scenes with them.
#pragma once

#include <pybind11/pybind11.h>

namespace fluxion::python {

/// Defines fluxion._fluxion.Host (fluxion::Host).
void BindHost(pybind11::module_& module);

}  // namespace fluxion::python
