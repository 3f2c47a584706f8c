// fluxion.PreparedScene: a scene read once and built many times with changed data
// (fluxion/prepared_scene.h), and Host.prepare that makes one.
#pragma once

#include <pybind11/pybind11.h>

namespace fluxion::python {

/// Defines fluxion._fluxion.PreparedScene; BindHost adds Host.prepare.
void BindPreparedScene(pybind11::module_& module);

}  // namespace fluxion::python
