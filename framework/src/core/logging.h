// The framework's logger: spdlog writing to stderr, so that data on stdout stays clean. The
// public controls (SetLogLevel, ParseLogLevel, WarningCount) are in fluxion/log.h.
#pragma once

#include "fluxion/log.h"

namespace spdlog {
class logger;
}

namespace fluxion::internal {

/// The shared logger ("fluxion"), created on first use, writing to stderr.
spdlog::logger& Logger();

}  // namespace fluxion::internal
