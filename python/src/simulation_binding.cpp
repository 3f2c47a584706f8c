#include "simulation_binding.h"

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "errors.h"
#include "fluxion/errors.h"
#include "fluxion/simulation.h"
#include "matrix_binding.h"
#include "object_view.h"

namespace fluxion::python {

namespace py = pybind11;

namespace {

// One step, a NumericalError raised as scene-runner words it. The GIL is released while the
// step runs: components written in Python take it for their calls only
// (python_force_field.h), and the exception one raised is reported as itself, at its line, with
// the failed step and the time it started from (the state is back there).
void StepOnce(const py::object& self, Simulation& simulation) {
  try {
    py::gil_scoped_release released;
    simulation.Step();
  } catch (const NumericalError& error) {
    const py::object failure = py::module_::import("fluxion.python_components")
                                   .attr("take_failure")(error.step(), simulation.time());
    if (!failure.is_none()) {
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(failure.ptr())), failure.ptr());
      throw py::error_already_set();
    }
    RaiseNumericalError(self, error);
  }
}

// Simulation::StepsUntil, or a UsageError when the count is too large to run.
long StepsUntil(const Simulation& simulation, double end_time) {
  const std::optional<long> steps = simulation.StepsUntil(end_time);
  if (!steps) throw UsageError("run: end_time needs too many steps (at most 2^62)");
  return *steps;
}

// run(steps=…, end_time=…, every=1, callback=None): the callback sees the simulation after
// every `every`-th step and after the last, as scene-runner --every records rows.
long Run(py::object self, std::optional<long> steps, std::optional<double> end_time, long every,
         const py::object& callback) {
  Simulation& simulation = self.cast<Simulation&>();
  if (steps.has_value() == end_time.has_value())
    throw UsageError("run: give exactly one of steps and end_time");
  if (every < 1) throw UsageError("run: every must be at least 1, got " + std::to_string(every));
  const long count = steps ? *steps : StepsUntil(simulation, *end_time);
  if (count < 0) throw UsageError("run: steps must not be negative");
  for (long step = 1; step <= count; ++step) {
    StepOnce(self, simulation);
    if (!callback.is_none() && (step % every == 0 || step == count)) callback(self);
  }
  return count;
}

py::dict Objects(const py::object& self) {
  const Simulation& simulation = self.cast<const Simulation&>();
  py::dict objects;
  for (std::size_t k = 0; k < simulation.objects().size(); ++k)
    objects[py::str(simulation.objects()[k].id)] = ObjectView{self, static_cast<int>(k)};
  return objects;
}

py::dict Energy(const Simulation& simulation) {
  const double kinetic = simulation.KineticEnergy();
  const double potential = simulation.PotentialEnergy();
  py::dict energy;
  energy["kinetic"] = kinetic;
  energy["potential"] = potential;
  energy["total"] = kinetic + potential;
  return energy;
}

// Every solver's reported outputs, keyed as scene-runner --solver-outputs names its columns:
// <node path>/<solver type>/<output>.
py::dict SolverOutputs(const Simulation& simulation) {
  py::dict outputs;
  for (const SolverNode& node : simulation.solver_nodes()) {
    const std::vector<std::string> names = node.solver->OutputNames();
    std::vector<double> values(names.size());
    node.solver->ReadOutputs(values.data());
    for (std::size_t k = 0; k < names.size(); ++k)
      outputs[py::str(node.node_path + "/" + node.solver_type + "/" + names[k])] = values[k];
  }
  return outputs;
}

// The contacts detected at the last step's start (Simulation::contacts), one dict each, models
// named by path.
py::list Contacts(const Simulation& simulation) {
  const std::vector<std::string>& models = simulation.collision_models();
  py::list contacts;
  for (const Contact& c : simulation.contacts()) {
    py::dict contact;
    contact["models"] = py::make_tuple(models[static_cast<std::size_t>(c.model[0])],
                                       models[static_cast<std::size_t>(c.model[1])]);
    contact["elements"] = py::make_tuple(c.element[0], c.element[1]);
    contact["points"] = py::make_tuple(c.point[0], c.point[1]);
    contact["normal"] = c.normal;
    contact["distance"] = c.distance;
    contact["penetration"] = c.penetration;
    contact["stiffness"] = c.stiffness;
    contact["solver_node"] = c.solver_node;
    contacts.append(std::move(contact));
  }
  return contacts;
}

// The per-element outputs of the components at the current state (Simulation::ElementOutputs):
// one dict each, the values as a NumPy array, the object by id.
py::list ElementOutputs(const Simulation& simulation) {
  static const char* const kTypes[] = {"edge", "triangle", "quad", "tetrahedron", "hexahedron"};
  py::list outputs;
  for (ElementValues& output : simulation.ElementOutputs()) {
    py::dict entry;
    entry["component"] = output.component;
    entry["name"] = output.name;
    entry["unit"] = output.unit;
    entry["object"] = simulation.objects()[static_cast<std::size_t>(output.object)].id;
    entry["type"] = kTypes[static_cast<int>(output.type)];
    entry["values"] =
        py::array_t<double>(static_cast<py::ssize_t>(output.values.size()), output.values.data());
    outputs.append(std::move(entry));
  }
  return outputs;
}

// replace_solver(name, **params): each value written as XML text by fluxion.scene_graph.xml_text
// (numbers in shortest round-trip form, lists space-separated), the one conversion Python scenes
// use too.
void ReplaceSolver(Simulation& simulation, const std::string& name, const py::kwargs& params) {
  const py::object xml_text = py::module_::import("fluxion.scene_graph").attr("xml_text");
  SolverChoice choice{name, {}};
  for (const auto& [key, value] : params)
    choice.parameters.emplace_back(key.cast<std::string>(), xml_text(value).cast<std::string>());
  simulation.ReplaceSolver(choice);
}

// set_component_field(component, field, values): any real array or nested list, flattened.
void SetComponentField(Simulation& simulation, const std::string& component,
                       const std::string& field, const py::object& values) {
  const auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(values);
  if (!array)
    throw UsageError(component + "." + field + ": expected real numbers, got " +
                     py::str(py::type::of(values).attr("__name__")).cast<std::string>());
  simulation.SetComponentField(component, field,
                               std::span<const double>(array.data(), array.size()));
}

}  // namespace

void BindSimulation(py::module_& module) {
  // dynamic_attr: fluxion.load_scene keeps a Python scene's XML on it (Sofa.Simulation.reset).
  py::class_<Simulation> binding(
      module, "Simulation", py::dynamic_attr(),
      "A loaded scene, ready to step (fluxion/simulation.h). Every object's "
      "arrays keep it alive.");
  binding
      .def(
          "step",
          [](const py::object& self, long steps) {
            Simulation& simulation = self.cast<Simulation&>();
            if (steps < 0) throw UsageError("step: steps must not be negative");
            for (long k = 0; k < steps; ++k) StepOnce(self, simulation);
          },
          py::arg("steps") = 1, "Advances every solver node by dt, `steps` times.")
      .def("run", &Run, py::arg("steps") = py::none(), py::arg("end_time") = py::none(),
           py::arg("every") = 1, py::arg("callback") = py::none(),
           "Runs `steps` steps, or up to `end_time` [s] as scene-runner --end-time does, calling "
           "callback(sim) after every `every`-th step and after the last. Returns the steps run.")
      .def_property_readonly("time", &Simulation::time, "Current time [s].")
      .def_property_readonly("dt", &Simulation::dt, "Time step [s].")
      .def_property_readonly("step_count", &Simulation::step_count)
      .def("time_at", &Simulation::TimeAt, py::arg("step"),
           "t0 + n·dt for step n, as the trajectory's time column gives it.")
      .def("steps_until", &StepsUntil, py::arg("end_time"),
           "Steps from now until the time reaches end_time, as scene-runner --end-time counts "
           "them (the least n with time_at(step_count + n) >= end_time - 1e-9·dt).")
      .def_property_readonly("file", [](const Simulation& s) { return s.model().file; })
      .def_property_readonly(
          "gravity", [](const Simulation& s) { return s.model().gravity; },
          "The root node's gravity [m/s²] as built (its Gravity component's, else its gravity).")
      .def_property_readonly("objects", &Objects,
                             "Mechanical objects by id ('root/cloth/dofs'), in document order.")
      .def("energy", &Energy, "{'kinetic', 'potential', 'total'} [J], summed over solver nodes.")
      .def("solver_outputs", &SolverOutputs)
      .def("contacts", &Contacts,
           "The contacts detected at the last step's start: [{'models', 'elements', 'points', "
           "'normal', 'distance', 'penetration', 'stiffness', 'solver_node'}] (docs/contact.md).")
      .def("element_outputs", &ElementOutputs,
           "The components' per-element outputs at the current state (a FEM force field's "
           "von Mises stress with computeVonMisesStress): [{'component', 'name', 'unit', "
           "'object', 'type', 'values'}], values[e] for element e of the component's topology.")
      .def_property_readonly("solvers",
                             [](const Simulation& simulation) {
                               std::vector<std::pair<std::string, std::string>> solvers;
                               for (const SolverNode& node : simulation.solver_nodes())
                                 solvers.emplace_back(node.node_path, node.solver_type);
                               return solvers;
                             })
      .def("replace_solver", &ReplaceSolver, py::arg("name"),
           "Replaces every solver node's ODE solver, keeping the state (scene-runner --solver).")
      .def("set_component_field", &SetComponentField, py::arg("component"), py::arg("field"),
           py::arg("values"),
           "Changes a component's field ('root/cloth/load', 'forces') from the next step on; "
           "UsageError for a field that cannot change while the simulation runs.")
      .def("runtime_fields", &Simulation::RuntimeFields, py::arg("component"),
           "The fields of a component ('root/cloth/load') set_component_field can change.")
      .def("finish", &Simulation::Finish,
           "Ends the run for the scene's observers (exporters write their last files).");
  AddMatrixAccess(binding);
}

}  // namespace fluxion::python
