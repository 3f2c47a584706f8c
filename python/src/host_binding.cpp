#include "host_binding.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/output_files.h"
#include "python_components.h"

namespace fluxion::python {

namespace py = pybind11;

namespace {

// Loads as scene-runner does: a ConfigError escaping the build is reported as "SCENE: what", a
// scene problem.
template <class Load>
auto LoadReportingConfigErrors(const std::string& file, const Load& load) -> decltype(load()) {
  try {
    return load();
  } catch (const ConfigError& error) {
    throw SceneError({SceneDiagnostic{file, 0, error.what()}});
  }
}

// memory_limit: None, a number of bytes, or a size as scene-runner --memory-limit takes ("2G").
LoadOptions OptionsWith(std::optional<double> dt, std::vector<std::string> data_path,
                        const py::object& memory_limit) {
  LoadOptions options;
  options.dt = dt;
  options.data_path = std::move(data_path);
  if (py::isinstance<py::int_>(memory_limit)) {
    const long long bytes = memory_limit.cast<long long>();
    if (bytes <= 0) throw py::value_error("memory_limit must be positive (bytes, or e.g. '2G')");
    options.memory_limit = static_cast<std::uint64_t>(bytes);
  } else if (py::isinstance<py::str>(memory_limit)) {
    const std::string text = memory_limit.cast<std::string>();
    const std::optional<std::uint64_t> bytes = ParseMemorySize(text);
    if (!bytes)
      throw py::value_error("memory_limit '" + text +
                            "' is not a memory size (expected bytes, or e.g. '512M', '2G')");
    options.memory_limit = *bytes;
  } else if (!memory_limit.is_none()) {
    throw py::type_error("memory_limit must be None, a number of bytes or a size such as '2G'");
  }
  return options;
}

py::dict DescribeComponent(const ComponentInfo& info) {
  py::dict component;
  component["name"] = info.spec.name;
  component["kind"] = std::string(ComponentKindName(info.spec.kind));
  component["summary"] = info.spec.summary;
  component["aliases"] = info.spec.aliases;
  component["origin"] = info.origin;
  component["plugin"] = info.plugin_name;
  py::list fields;
  for (const FieldSpec& field : info.spec.fields) {
    py::dict entry;
    entry["name"] = field.name;
    entry["default"] = field.default_value;
    entry["help"] = field.help;
    entry["aliases"] = field.aliases;
    fields.append(entry);
  }
  component["fields"] = fields;
  return component;
}

// The ODE solvers with the traits they declare (fluxion/solver.h SolverFlag).
py::list Solvers(const Host& host) {
  py::list solvers;
  for (const ComponentInfo* info : host.components()) {
    if (info->spec.kind != ComponentKind::kOdeSolver) continue;
    const unsigned flags = info->traits.flags;
    py::dict solver;
    solver["name"] = info->spec.name;
    solver["order"] = info->traits.order;
    solver["explicit"] = (flags & kExplicitMethod) != 0;
    solver["implicit"] = (flags & kImplicitMethod) != 0;
    solver["symplectic"] = (flags & kSymplecticMethod) != 0;
    solver["needs_linear_solver"] = (flags & kNeedsLinearSolver) != 0;
    solver["has_history"] = (flags & kHasHistory) != 0;
    solver["force_evaluations"] = info->traits.force_evaluations;
    solver["linear_solves"] = info->traits.linear_solves;
    solver["origin"] = info->origin;
    solvers.append(solver);
  }
  return solvers;
}

}  // namespace

void BindHost(py::module_& module) {
  // Where files a scene writes (exporters, WriteState) may go: the host's choice, as scene-runner
  // --output-dir and --overwrite make it (fluxion/output_files.h).
  module.def(
      "set_output_policy",
      [](const std::filesystem::path& directory, bool overwrite,
         const std::vector<std::filesystem::path>& protected_files) {
        SetOutputPolicy(
            {.directory = directory, .overwrite = overwrite, .protected_files = protected_files});
      },
      py::arg("directory") = ".", py::arg("overwrite") = false,
      py::arg("protected_files") = std::vector<std::filesystem::path>{},
      "Files scenes write go below `directory` only (it must exist), never over an existing file "
      "unless `overwrite`, never over `protected_files`. Applies to scenes loaded afterwards.");

  py::class_<Host>(module, "Host",
                   "The built-in components and the plugins of a search path: the bundled "
                   "folder, FLUXION_PLUGIN_PATH, then plugin_dirs (as scene-runner --plugin-dir).")
      .def(py::init([](const std::vector<std::filesystem::path>& plugin_dirs) {
             HostOptions options;
             options.plugin_directories = plugin_dirs;
             Host host(options);
             // Components written in Python (python_components.py) are this module's own.
             host.RegisterComponents("python", &RegisterPythonComponents);
             return host;
           }),
           py::arg("plugin_dirs") = std::vector<std::filesystem::path>{})
      .def(
          "load_file",
          [](const Host& host, const std::string& path, std::optional<double> dt,
             std::vector<std::string> data_path, const py::object& memory_limit) {
            return LoadReportingConfigErrors(path, [&] {
              return host.LoadFile(path, OptionsWith(dt, std::move(data_path), memory_limit));
            });
          },
          py::arg("path"), py::arg("dt") = py::none(),
          py::arg("data_path") = std::vector<std::string>{}, py::arg("memory_limit") = py::none())
      .def(
          "load_string",
          [](const Host& host, const std::string& xml, const std::string& file_name,
             std::optional<double> dt, std::vector<std::string> data_path,
             const py::object& memory_limit, bool python_origins) {
            return LoadReportingConfigErrors(file_name, [&] {
              LoadOptions options = OptionsWith(dt, std::move(data_path), memory_limit);
              options.python_origins = python_origins;
              return host.LoadString(xml, file_name, options);
            });
          },
          py::arg("xml"), py::arg("file_name") = "scene.scn", py::arg("dt") = py::none(),
          py::arg("data_path") = std::vector<std::string>{}, py::arg("memory_limit") = py::none(),
          py::arg("python_origins") = false)
      .def(
          "prepare",
          [](const Host& host, const std::string& path, std::optional<double> dt,
             std::vector<std::string> data_path, const py::object& memory_limit) {
            return LoadReportingConfigErrors(path, [&] {
              return host.Prepare(path, OptionsWith(dt, std::move(data_path), memory_limit));
            });
          },
          py::arg("path"), py::arg("dt") = py::none(),
          py::arg("data_path") = std::vector<std::string>{}, py::arg("memory_limit") = py::none(),
          "Reads and checks the scene file once: a PreparedScene whose instantiate() builds it "
          "with changed data (build once, run many).")
      .def("components",
           [](const Host& host) {
             py::list components;
             for (const ComponentInfo* info : host.components())
               components.append(DescribeComponent(*info));
             return components;
           })
      .def("solvers", &Solvers)
      .def("plugins", [](const Host& host) {
        py::list plugins;
        for (const PluginInfo& info : host.plugins()) {
          py::dict plugin;
          plugin["path"] = info.path;
          plugin["source"] = info.source;
          plugin["loaded"] = info.loaded;
          plugin["error"] = info.error;
          plugin["name"] = info.name;
          plugin["version"] = info.version;
          plugin["components"] = info.components;
          plugins.append(plugin);
        }
        return plugins;
      });
}

}  // namespace fluxion::python
