// Logging for plugins, routed to the host's logger (spdlog in the framework) so that every
// message shares one format, one level filter and one destination (stderr).
#pragma once

#include <string_view>

#include "fluxion/export.h"

namespace fluxion {

enum class LogLevel { kTrace, kDebug, kInfo, kWarn, kError };

/// True when a message at `level` would be printed: test it before building costly messages.
FLUXION_API bool ShouldLog(LogLevel level);
FLUXION_API void Log(LogLevel level, std::string_view message);

/// Sets the level below which messages are dropped (default kWarn). For hosts, not plugins.
FLUXION_API void SetLogLevel(LogLevel level);
/// Parses "trace|debug|info|warn|error" (also "warning"); false for anything else.
FLUXION_API bool ParseLogLevel(std::string_view text, LogLevel& level);
/// Warnings and errors logged since the last reset (tests fail on unexpected ones).
FLUXION_API int WarningCount();
FLUXION_API void ResetWarningCount();

inline void LogDebug(std::string_view message) { Log(LogLevel::kDebug, message); }
inline void LogInfo(std::string_view message) { Log(LogLevel::kInfo, message); }
inline void LogWarn(std::string_view message) { Log(LogLevel::kWarn, message); }

}  // namespace fluxion
