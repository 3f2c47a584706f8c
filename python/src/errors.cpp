#include "errors.h"

#include <exception>
#include <string>

namespace fluxion::python {

namespace py = pybind11;

namespace {

// The Python class `name` of fluxion.errors. Looked up at each raise (rare) rather than kept in a
// static py::object, whose destructor would run after the interpreter is gone.
py::object ErrorClass(const char* name) { return py::module_::import("fluxion.errors").attr(name); }

// Sets the Python error to `instance` of its own class; the caller returns or throws
// error_already_set.
void SetError(const py::object& instance) {
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(instance.ptr())), instance.ptr());
}

py::object SceneErrorOf(const SceneError& error) {
  py::list diagnostics;
  for (const SceneDiagnostic& diagnostic : error.diagnostics())
    diagnostics.append(
        ErrorClass("Diagnostic")(diagnostic.file, diagnostic.line, diagnostic.message));
  return ErrorClass("SceneError")(diagnostics);
}

}  // namespace

void RegisterErrorTranslation() {
  // The categories scene-runner maps to its exit statuses 2 (scene), 3 (plugin) and 4
  // (numerical), plus the API-misuse category (a wrong array shape, a static object). A
  // ConfigError escaping a load is a scene problem, as scene-runner reports it.
  py::register_exception_translator([](std::exception_ptr pointer) {
    if (!pointer) return;
    try {
      std::rethrow_exception(pointer);
    } catch (const SceneError& error) {
      SetError(SceneErrorOf(error));
    } catch (const PluginError& error) {
      SetError(ErrorClass("PluginError")(error.what()));
    } catch (const NumericalError& error) {
      SetError(
          ErrorClass("NumericalError")(error.what(), error.step(), error.time(), error.line()));
    } catch (const UsageError& error) {
      SetError(ErrorClass("UsageError")(error.what()));
    } catch (const ConfigError& error) {
      SetError(
          ErrorClass("SceneError")(py::make_tuple(ErrorClass("Diagnostic")("", 0, error.what()))));
    } catch (const Error& error) {
      SetError(ErrorClass("Error")(error.what()));
    }
  });
}

void RaiseNumericalError(const py::object& simulation, const NumericalError& error) {
  // scene-runner's line: the scene, the ODE solver's line, then the failure.
  // A Python scene's lines are its Python calls already (LoadOptions::python_origins).
  const std::string file = simulation.cast<const Simulation&>().model().file;
  const int line = error.line();
  const std::string where = file + (line > 0 ? ":" + std::to_string(line) : std::string());
  SetError(ErrorClass("NumericalError")(where + ": numerical failure at " + error.what(),
                                        error.step(), error.time(), line));
  throw py::error_already_set();
}

}  // namespace fluxion::python
