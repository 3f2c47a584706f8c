#include "prepared_scene_binding.h"

#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "fluxion/errors.h"
#include "fluxion/prepared_scene.h"

namespace fluxion::python {

namespace py = pybind11;

namespace {

// overrides: a dict {path: value} or pairs (path, value), in the order given; each value written
// as XML text by fluxion.scene_graph.xml_text (numbers in shortest round-trip form, lists
// space-separated), the one conversion Python scenes and replace_solver use too.
std::vector<DataOverride> Overrides(const py::object& given) {
  std::vector<DataOverride> overrides;
  if (given.is_none()) return overrides;
  const py::object xml_text = py::module_::import("fluxion.scene_graph").attr("xml_text");
  const py::object items =
      py::isinstance<py::dict>(given) ? given.attr("items")() : py::object(given);
  for (const py::handle item : py::iter(items)) {
    if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item) || py::len(item) != 2)
      throw py::value_error("overrides: expected (path, value) pairs or a {path: value} dict");
    const auto pair = py::reinterpret_borrow<py::sequence>(item);
    overrides.push_back({pair[0].cast<std::string>(), xml_text(pair[1]).cast<std::string>()});
  }
  return overrides;
}

Simulation Instantiate(const PreparedScene& prepared, const py::object& overrides,
                       const std::optional<std::string>& solver, const py::dict& solver_params) {
  std::optional<SolverChoice> choice;
  if (solver) {
    const py::object xml_text = py::module_::import("fluxion.scene_graph").attr("xml_text");
    choice = SolverChoice{*solver, {}};
    for (const auto& [key, value] : solver_params)
      choice->parameters.emplace_back(key.cast<std::string>(), xml_text(value).cast<std::string>());
  } else if (!solver_params.empty()) {
    throw py::value_error("solver_params needs solver (the solver they configure)");
  }
  const std::vector<DataOverride> values = Overrides(overrides);
  try {
    return prepared.Instantiate(values, choice);
  } catch (const ConfigError& error) {
    // As Host.load_file: a ConfigError escaping the build is a scene problem.
    throw SceneError({SceneDiagnostic{prepared.file(), 0, error.what()}});
  }
}

}  // namespace

void BindPreparedScene(py::module_& module) {
  py::class_<PreparedScene>(module, "PreparedScene",
                            "A scene read and checked once (Host.prepare, fluxion.prepare), "
                            "built again by instantiate() with some of its data replaced, "
                            "without reading the XML again (fluxion/prepared_scene.h).")
      .def("instantiate", &Instantiate, py::arg("overrides") = py::none(),
           py::arg("solver") = py::none(), py::arg("solver_params") = py::dict(),
           "A new Simulation of the scene with `overrides` ({'root/cloth/springs."
           "linesStiffness': 250, 'dt': 0.002}, or (path, value) pairs) written into it, and "
           "`solver` (with `solver_params`) replacing its ODE solvers as scene-runner --solver "
           "does: bit for bit the scene loaded with those values written in the XML. A bad "
           "value raises the SceneError the XML would.")
      .def_property_readonly("file", &PreparedScene::file);
}

}  // namespace fluxion::python
