// The framework's logger: spdlog writing to stderr, so that data on stdout stays clean.
#pragma once

#include <memory>
#include <string_view>

#include "fluxion/export.h"
#include "fluxion/log.h"

namespace spdlog {
class logger;
}

namespace fluxion::internal {

/// The shared logger ("fluxion"), created on first use, writing to stderr.
FLUXION_API spdlog::logger& Logger();

/// Sets the level below which messages are dropped.
FLUXION_API void SetLogLevel(LogLevel level);

/// Parses "trace|debug|info|warn|error" (also "warning", "off").
FLUXION_API bool ParseLogLevel(std::string_view text, LogLevel& level);

/// Counts warnings and errors logged since the last reset (tests fail on unexpected ones).
FLUXION_API int WarningCount();
FLUXION_API void ResetWarningCount();

}  // namespace fluxion::internal
