#include "failure_report.h"

#include <exception>
#include <new>
#include <string>

#include "command_line.h"
#include "exit_status_common.h"
#include "fluxion/errors.h"

namespace fluxion::tools {

namespace {

std::string About(std::string_view scene, const char* what) {
  return scene.empty() ? std::string(what) : std::string(scene) + ": " + what;
}

}  // namespace

int ReportCurrentException(std::string_view scene) {
  try {
    throw;
  } catch (const SceneError& error) {
    for (const SceneDiagnostic& diagnostic : error.diagnostics()) PrintError(diagnostic.Format());
    return kExitInvalidInput;
  } catch (const PluginError& error) {
    PrintError(error.what());
    return kExitPluginProblem;
  } catch (const ConfigError& error) {
    PrintError(About(scene, error.what()));
    return kExitInvalidInput;
  } catch (const UsageError& error) {
    PrintError(error.what());
    return kExitInvalidInput;
  } catch (const NumericalError& error) {
    PrintError(std::string("numerical failure at ") + error.what());
    return kExitNumericalFailure;
  } catch (const std::bad_alloc&) {
    PrintError(About(scene,
                     "the scene is too large to allocate (expected fewer points, springs or "
                     "elements)"));
    return kExitInvalidInput;
  } catch (const std::exception& error) {
    PrintError(std::string("internal error: ") + error.what());
    return kExitInternalError;
  } catch (...) {
    PrintError("internal error: an exception that is not a std::exception");
    return kExitInternalError;
  }
}

}  // namespace fluxion::tools
