#include "python_components.h"

#include <algorithm>
#include <string>

#include <pybind11/numpy.h>

#include "python_force_field.h"
#include "python_mapping.h"

namespace fluxion::python {

namespace py = pybind11;

namespace {

// A read-only (points × dimension) copy of one of the object's initial vectors, for init().
py::array Points(const ObjectModel& object, const Vector& values) {
  py::array_t<double> array(
      {static_cast<py::ssize_t>(object.num_points), static_cast<py::ssize_t>(object.dimension)});
  if (values.size() == object.num_dofs())
    std::copy(values.data(), values.data() + values.size(), array.mutable_data());
  else
    std::fill(array.mutable_data(), array.mutable_data() + array.size(), 0.0);
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

}  // namespace

FieldSpec HandleField() {
  return FieldSpec::Integer("handle", 0,
                            "the Python object's number (written by the scene graph, "
                            "fluxion.python_components)");
}

py::object StartPythonComponent(BuildContext& context, const ObjectModel& object,
                                const char* what) {
  const py::module_ module = py::module_::import("fluxion.python_components");
  const long handle = context.parameters().integer("handle");
  const py::object component = module.attr("lookup")(handle);
  if (component.is_none()) {
    context.Error(context.type() + ": no " + what + " written in Python has handle " +
                  std::to_string(handle) + " (expected one added with addObject in a Python " +
                  "scene: " + context.type() + " is not written in XML)");
    return py::none();
  }
  const auto class_name = py::str(py::type::of(component).attr("__name__")).cast<std::string>();
  const int dimension = component.attr("_dimension").cast<int>();
  if (dimension != object.dimension) {
    context.Error(class_name + " is a Vec" + std::to_string(dimension) + "d " + what +
                  " and acts on '" + object.id + "', a Vec" + std::to_string(object.dimension) +
                  "d object (expected a MechanicalObject of its template)");
    return py::none();
  }
  py::dict state;
  state["position"] = Points(object, object.position);
  state["velocity"] = Points(object, object.velocity);
  state["rest_position"] = Points(object, object.rest_position);
  const py::object problem = module.attr("initialise")(component, object.id, state);
  if (!problem.is_none()) {
    context.Error(problem.cast<std::string>());
    return py::none();
  }
  return component;
}

void RegisterPythonComponents(PluginRegistrar& registrar) {
  registrar.AddComponent(PythonForceFieldSpec(), &BuildPythonForceField);
  registrar.AddComponent(PythonMappingSpec(), &BuildPythonMapping);
}

}  // namespace fluxion::python
