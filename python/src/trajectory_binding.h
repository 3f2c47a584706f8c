// fluxion._fluxion.CsvTrajectory: scene-runner's CSV trajectory writer for Python runs.
#pragma once

#include <pybind11/pybind11.h>

namespace fluxion::python {

/// Defines fluxion._fluxion.CsvTrajectory over MakeCsvTrajectoryWriter (fluxion/
/// trajectory_writer.h), so that a run driven from Python (python3 -m fluxion run) writes the
/// rows scene-runner writes, to the byte.
void BindTrajectory(pybind11::module_& module);

}  // namespace fluxion::python
