// scene-runner's documented exit statuses (README "Exit status"): those of every Fluxion tool
// (tools/common/exit_status.h).
#pragma once

#include "exit_status_common.h"

namespace fluxion::runner {

using tools::ExitStatus;
using tools::kExitInvalidInput;
using tools::kExitMismatch;
using tools::kExitNumericalFailure;
using tools::kExitPluginProblem;
using tools::kExitSuccess;

}  // namespace fluxion::runner
