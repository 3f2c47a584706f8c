// Error taxonomy of the framework. Exception types live here, never in a plugin.
//
//   our own bug / broken invariant  -> FLUXION_DEMAND aborts with file:line
//   misuse of the API by a caller   -> UsageError
//   bad scene, parameter or plugin  -> SceneError / ConfigError / PluginError at load time
//   numerical trouble in a step     -> a StepResult status (see solver.h), never an exception
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "fluxion/export.h"

namespace fluxion {

/// Base of every exception the framework throws.
class FLUXION_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  ~Error() override;
};

/// A caller broke a documented precondition of the API (a programming error, not bad input).
class FLUXION_API UsageError : public Error {
 public:
  using Error::Error;
  ~UsageError() override;
};

/// A parameter value is invalid: thrown by component constructors and parameter parsing.
/// `field` names the offending attribute (may be empty for cross-field checks).
class FLUXION_API ConfigError : public Error {
 public:
  ConfigError(std::string field, const std::string& message);
  ~ConfigError() override;
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

/// One problem found in a scene file, located for the scene author.
struct FLUXION_API SceneDiagnostic {
  std::string file;
  int line = 0;         ///< 1-based; 0 when no line applies
  std::string message;  ///< "what is wrong (what was expected)"
  /// The one-line form `FILE:LINE: message` (or `FILE: message` without a line).
  std::string Format() const;
};

/// A scene could not be loaded. Holds every problem found in one pass, in document order.
class FLUXION_API SceneError : public Error {
 public:
  explicit SceneError(std::vector<SceneDiagnostic> diagnostics);
  ~SceneError() override;
  const std::vector<SceneDiagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<SceneDiagnostic> diagnostics_;
};

/// A plugin could not be found, loaded, or conflicts with another one.
class FLUXION_API PluginError : public Error {
 public:
  using Error::Error;
  ~PluginError() override;
};

/// A run stopped because the state stopped being finite or a solve failed.
class FLUXION_API NumericalError : public Error {
 public:
  /// `line`: the scene line of the ODE solver that failed (0 when unknown), for messages of the
  /// form "FILE:LINE: numerical failure at …".
  NumericalError(long step, double time, const std::string& message, int line = 0);
  ~NumericalError() override;
  long step() const { return step_; }
  double time() const { return time_; }
  int line() const { return line_; }

 private:
  long step_;
  double time_;
  int line_;
};

/// Used by FLUXION_DEMAND: prints the failed condition with file:line and aborts.
namespace detail {
[[noreturn]] FLUXION_API void DemandFailed(const char* condition, const char* file, int line);
}  // namespace detail

}  // namespace fluxion

/// Always-on invariant check for our own bugs: aborts with the condition and file:line.
#define FLUXION_DEMAND(condition)                                      \
  do {                                                                 \
    if (!(condition)) {                                                \
      ::fluxion::detail::DemandFailed(#condition, __FILE__, __LINE__); \
    }                                                                  \
  } while (false)
