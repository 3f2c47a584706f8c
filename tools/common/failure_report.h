// What a Fluxion tool says and returns when an exception reaches its top level: the same line
// and the same exit status (exit_status.h) for the same failure, whatever the tool.
#pragma once

#include <string_view>

namespace fluxion::tools {

/// Reports the exception being handled (call it inside a `catch (...)` block) and returns its
/// exit status: SceneError → each diagnostic as `error: FILE:LINE: …`, 2; ConfigError → `error:
/// SCENE: …`, 2; UsageError → 2; std::bad_alloc → the scene is too large, 2; PluginError → 3;
/// NumericalError → `error: numerical failure at …`, 4; anything else → `error: internal error:
/// …`, 70. `scene` names the file the ConfigError and bad_alloc lines are about (may be empty).
int ReportCurrentException(std::string_view scene);

}  // namespace fluxion::tools
