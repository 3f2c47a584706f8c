// scene-runner's documented exit statuses (README "Exit status").
#pragma once

namespace fluxion::runner {

enum ExitStatus : int {
  kExitSuccess = 0,
  kExitMismatch = 1,         ///< reserved: --compare found a difference
  kExitInvalidInput = 2,     ///< command line, scene file, attribute values, unwritable output
  kExitPluginProblem = 3,    ///< plugin not found, refused (ABI), or duplicate component
  kExitNumericalFailure = 4  ///< state not finite, linear solver failure
};

}  // namespace fluxion::runner
