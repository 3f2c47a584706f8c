#include "fluxion/errors.h"

#include <cstdio>
#include <cstdlib>

#include "core/text_parsing.h"

namespace fluxion {

Error::~Error() = default;
UsageError::~UsageError() = default;
PluginError::~PluginError() = default;

ConfigError::ConfigError(std::string field, const std::string& message)
    : Error(message), field_(std::move(field)) {}
ConfigError::~ConfigError() = default;

// One diagnostic is one line, whatever the scene holds: control characters are escaped here, as a
// last line of defence behind the components' own quoting (internal::Shown).
std::string SceneDiagnostic::Format() const {
  const std::string where = internal::EscapeControl(file);
  if (line > 0) return where + ":" + std::to_string(line) + ": " + internal::EscapeControl(message);
  return where + ": " + internal::EscapeControl(message);
}

namespace {
std::string JoinDiagnostics(const std::vector<SceneDiagnostic>& diagnostics) {
  std::string text;
  for (const SceneDiagnostic& d : diagnostics) {
    if (!text.empty()) text += '\n';
    text += d.Format();
  }
  return text;
}
}  // namespace

SceneError::SceneError(std::vector<SceneDiagnostic> diagnostics)
    : Error(JoinDiagnostics(diagnostics)), diagnostics_(std::move(diagnostics)) {}
SceneError::~SceneError() = default;

NumericalError::NumericalError(long step, double time, const std::string& message, int line)
    : Error("step " + std::to_string(step) + " (t = " + internal::FormatReal(time) +
            "): " + message),
      step_(step),
      time_(time),
      line_(line) {}
NumericalError::~NumericalError() = default;

namespace detail {
void DemandFailed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "fluxion: internal error: %s:%d: FLUXION_DEMAND(%s) failed\n", file, line,
               condition);
  std::abort();
}
}  // namespace detail

}  // namespace fluxion
