// fluxion-analyze's documented exit statuses: scene-runner's, plus one for the plotter.
#pragma once

namespace fluxion::analysis {

enum ExitStatus : int {
  kExitSuccess = 0,
  kExitInvalidInput = 2,        ///< command line, solver name or parameter, scene file, output file
  kExitPluginProblem = 3,       ///< plugin not found, refused (ABI), or duplicate component
  kExitNumericalFailure = 4,    ///< --order/--energy: a run's state stopped being finite
  kExitPlotterUnavailable = 5,  ///< --plot: gnuplot not found or failed
  kExitInternalError = 70,      ///< a bug: please report it
};

}  // namespace fluxion::analysis
