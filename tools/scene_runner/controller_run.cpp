#include "controller_run.h"

#include <cstdio>
#include <string>
#include <vector>

#include "exit_status.h"
#include "fluxion/text.h"
#include "python_process.h"
#include "run_outputs.h"

namespace fluxion::runner {

namespace {

// The first option given that `python3 -m fluxion run` does not take, or empty.
std::string UnsupportedOption(const RunOptions& options) {
  if (options.dt) return "--dt";
  if (options.solver) return "--solver";
  if (!options.compare.empty()) return "--compare";
  if (!options.vtk.empty()) return "--vtk";
  if (!options.render.empty()) return "--render";
  if (options.render_every > 0) return "--render-every";
  if (!options.animate.empty()) return "--animate";
  if (!options.data_path.empty()) return "--data-path";
  if (options.memory_limit > 0) return "--memory-limit";
  if (options.output_dir != ".") return "--output-dir";
  if (options.overwrite) return "--overwrite";
  if (IsHdf5Output(options.output)) return "--output " + options.output + " (HDF5)";
  return {};
}

}  // namespace

int RunSceneWithControllers(const RunOptions& options, const PythonScene& scene) {
  if (const std::string option = UnsupportedOption(options); !option.empty()) {
    std::fprintf(stderr,
                 "error: %s; scene-runner runs it with python3 -m fluxion run, which does not "
                 "take %s (expected only --steps, --end-time, --every, --energy, "
                 "--solver-outputs, --output)\n",
                 scene.controllers_message().c_str(), option.c_str());
    return kExitInvalidInput;
  }
  std::vector<std::string> arguments;
  if (options.steps) arguments.insert(arguments.end(), {"--steps", std::to_string(*options.steps)});
  if (options.end_time)
    arguments.insert(arguments.end(), {"--end-time", FormatReal(*options.end_time)});
  if (options.every) arguments.insert(arguments.end(), {"--every", std::to_string(*options.every)});
  if (options.energy) arguments.emplace_back("--energy");
  if (options.solver_outputs) arguments.emplace_back("--solver-outputs");
  if (!options.output.empty()) arguments.insert(arguments.end(), {"--output", options.output});
  std::string why;
  ExecFluxionRun(options.scene, arguments, why);
  std::fprintf(stderr, "error: %s: %s\n", options.scene.c_str(), why.c_str());
  return kExitInvalidInput;
}

}  // namespace fluxion::runner
