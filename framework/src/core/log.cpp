#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>

#include "core/logging.h"

namespace fluxion {
namespace internal {
namespace {
std::atomic<int> warning_count{0};

spdlog::level::level_enum ToSpdlog(LogLevel level) {
  switch (level) {
    case LogLevel::kTrace:
      return spdlog::level::trace;
    case LogLevel::kDebug:
      return spdlog::level::debug;
    case LogLevel::kInfo:
      return spdlog::level::info;
    case LogLevel::kWarn:
      return spdlog::level::warn;
    case LogLevel::kError:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}
}  // namespace

spdlog::logger& Logger() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto created = spdlog::stderr_logger_mt("fluxion");
    created->set_pattern("%l: %v");
    created->set_level(spdlog::level::warn);
    return created;
  }();
  return *logger;
}

}  // namespace internal

void SetLogLevel(LogLevel level) { internal::Logger().set_level(internal::ToSpdlog(level)); }

bool ParseLogLevel(std::string_view text, LogLevel& level) {
  if (text == "trace")
    level = LogLevel::kTrace;
  else if (text == "debug")
    level = LogLevel::kDebug;
  else if (text == "info")
    level = LogLevel::kInfo;
  else if (text == "warn" || text == "warning")
    level = LogLevel::kWarn;
  else if (text == "error")
    level = LogLevel::kError;
  else
    return false;
  return true;
}

int WarningCount() { return internal::warning_count.load(); }
void ResetWarningCount() { internal::warning_count = 0; }

bool ShouldLog(LogLevel level) { return internal::Logger().should_log(internal::ToSpdlog(level)); }

void Log(LogLevel level, std::string_view message) {
  if (level >= LogLevel::kWarn) ++internal::warning_count;
  internal::Logger().log(internal::ToSpdlog(level), "{}", message);
}

}  // namespace fluxion
