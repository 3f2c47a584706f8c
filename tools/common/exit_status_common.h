// The exit statuses every Fluxion tool documents (README "Exit status"): one meaning per number
// across scene-runner, fluxion-analyze, fluxion-view and scene-regress, so that a script calling
// any of them can tell bad input from a plugin problem or a diverging run.
#pragma once

namespace fluxion::tools {

enum ExitStatus : int {
  kExitSuccess = 0,
  kExitMismatch = 1,          ///< a comparison found a difference (scene-runner --compare)
  kExitInvalidInput = 2,      ///< command line, scene file, attribute values, unwritable output
  kExitPluginProblem = 3,     ///< plugin not found, refused (ABI), or duplicate component
  kExitNumericalFailure = 4,  ///< state not finite, linear solver failure
  kExitInternalError = 70,    ///< a bug (sysexits' EX_SOFTWARE): please report it
};

}  // namespace fluxion::tools
