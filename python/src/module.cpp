// fluxion._fluxion: the compiled half of the `fluxion` Python package, a thin layer over the
// public host API (fluxion/host.h, simulation.h, model.h) as scene-runner is. The pure-Python
// half (python/fluxion/) adds the exceptions, Python scenes (createScene) and conveniences.
#include <pybind11/pybind11.h>

#include "errors.h"
#include "fluxion/threads.h"
#include "host_binding.h"
#include "object_view.h"
#include "prepared_scene_binding.h"
#include "simulation_binding.h"
#include "trajectory_binding.h"

PYBIND11_MODULE(_fluxion, module) {
  module.doc() = "Fluxion's host API (fluxion/host.h) for Python; use the fluxion package.";
  fluxion::python::RegisterErrorTranslation();
  fluxion::python::BindObjectView(module);
  fluxion::python::BindSimulation(module);
  fluxion::python::BindPreparedScene(module);
  fluxion::python::BindHost(module);
  fluxion::python::BindTrajectory(module);
  // fluxion/threads.h: process-wide, results the same whatever the count.
  module.def("set_thread_count", &fluxion::SetThreadCount, pybind11::arg("count"),
             "Threads for force evaluation and vector updates (0: the default, OMP_NUM_THREADS "
             "when set, else every core). Results are the same, to the bit, whatever the count.");
  module.def("thread_count", &fluxion::ThreadCount,
             "The number of threads Fluxion's loops use (1 when built without OpenMP).");
}
