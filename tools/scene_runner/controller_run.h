// A Python scene with controllers (Sofa.Core.Controller) under scene-runner: its code must run at
// every step, which the scene process (python_process.h: it only builds XML) cannot do, so the
// whole run is handed to `python3 -m fluxion run` (python/fluxion/run_script.py), which steps it
// through Sofa.Simulation and writes the same trajectory CSV with the same writer.
#pragma once

#include "python_scene.h"
#include "run.h"

namespace fluxion::runner {

/// Replaces scene-runner by `python3 -m fluxion run` with the options it takes (--steps,
/// --end-time, --every, --energy, --solver-outputs, --output); an option it does not take is
/// refused in one line naming it, before anything runs. Returns the exit status only when the
/// run could not be handed over (the error printed).
int RunSceneWithControllers(const RunOptions& options, const PythonScene& scene);

}  // namespace fluxion::runner
