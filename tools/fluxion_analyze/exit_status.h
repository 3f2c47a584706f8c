// fluxion-analyze's documented exit statuses: those of every Fluxion tool
// (tools/common/exit_status_common.h), plus one for the plotter.
#pragma once

#include "exit_status_common.h"

namespace fluxion::analysis {

using tools::kExitInternalError;
using tools::kExitInvalidInput;
using tools::kExitNumericalFailure;
using tools::kExitPluginProblem;
using tools::kExitSuccess;
constexpr int kExitPlotterUnavailable = 5;  ///< --plot: gnuplot not found or failed

}  // namespace fluxion::analysis
