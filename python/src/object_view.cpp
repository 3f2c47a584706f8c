#include "object_view.h"

#include <array>
#include <string>
#include <vector>

#include <pybind11/numpy.h>

#include "fluxion/errors.h"
#include "fluxion/simulation.h"

namespace fluxion::python {

namespace py = pybind11;

namespace {

Simulation& SimulationOf(const ObjectView& view) { return view.simulation.cast<Simulation&>(); }
const ObjectModel& ModelOf(const ObjectView& view) {
  return SimulationOf(view).objects()[static_cast<std::size_t>(view.index)];
}

// A read-only NumPy array over `data` (rows × columns, row-major) that keeps `owner` alive. The
// state is read-only from Python because a write must go through Simulation::SetPosition /
// SetVelocity, which restarts solvers with history (Solver::InvalidateHistory): an in-place
// write into the solver's own vector would leave a multistep method continuing from a state it
// never computed. SofaPython3's `position.value` is read-only for the same reason.
template <class T>
py::array ReadOnlyView(const T* data, Index rows, Index columns, py::handle owner) {
  py::array_t<T> array({rows, columns},
                       {static_cast<Index>(columns * sizeof(T)), static_cast<Index>(sizeof(T))},
                       data, owner);
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

// The elements of one kind as an (elements × K) int64 array, zero-copy: the model is immutable
// and lives as long as the simulation.
template <std::size_t K>
py::array ElementView(const ObjectView& view, const std::vector<std::array<Index, K>>* elements) {
  static const Index kNone[K] = {};
  if (elements == nullptr || elements->empty())
    return ReadOnlyView<Index>(kNone, 0, static_cast<Index>(K), view.simulation);
  return ReadOnlyView<Index>(elements->front().data(), static_cast<Index>(elements->size()),
                             static_cast<Index>(K), view.simulation);
}

// `value` as a float64 array of shape (points, dimension) for object `object`, or UsageError
// naming what is wrong. Integers and narrower floats convert exactly and are accepted; anything
// else (bool, complex, object, text, long double) would lose or invent information.
py::array_t<double, py::array::c_style> StateArgument(const ObjectModel& object,
                                                      const py::object& value, const char* what) {
  const py::array array = py::array::ensure(value);
  if (!array) throw UsageError(object.id + ": " + what + " must be an array of real numbers");
  const std::string kind = array.dtype().attr("kind").cast<std::string>();
  const bool real = (kind == "f" && array.dtype().itemsize() <= 8) || kind == "i" || kind == "u";
  if (!real)
    throw UsageError(object.id + ": " + what + " must hold real numbers (float64), got dtype " +
                     py::str(array.dtype()).cast<std::string>());
  std::string shape = "(";
  for (py::ssize_t axis = 0; axis < array.ndim(); ++axis)
    shape += (axis == 0 ? "" : ", ") + std::to_string(array.shape(axis));
  shape += array.ndim() == 1 ? ",)" : ")";
  if (array.ndim() != 2 || array.shape(0) != object.num_points ||
      array.shape(1) != object.dimension)
    throw UsageError(object.id + ": " + what + " must have shape (" +
                     std::to_string(object.num_points) + ", " + std::to_string(object.dimension) +
                     "), got " + shape);
  return py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(array);
}

py::array StateView(const ObjectView& view, bool position) {
  const Simulation& simulation = SimulationOf(view);
  const ObjectModel& object = ModelOf(view);
  const auto values = position ? simulation.position(view.index) : simulation.velocity(view.index);
  return ReadOnlyView<double>(values.data(), object.num_points, object.dimension, view.simulation);
}

void SetState(const ObjectView& view, const py::object& value, bool position) {
  Simulation& simulation = SimulationOf(view);
  const ObjectModel& object = ModelOf(view);
  const auto array = StateArgument(object, value, position ? "positions" : "velocities");
  const Eigen::Map<const Vector> values(array.data(), object.num_dofs());
  if (position)
    simulation.SetPosition(view.index, values);
  else
    simulation.SetVelocity(view.index, values);
}

// f(t, x, v) on the object's points, from its solver node's system (unprojected, as
// MechanicalSystem::ComputeForce defines it); zero for an object no solver moves.
py::array Forces(const ObjectView& view) {
  const Simulation& simulation = SimulationOf(view);
  const ObjectModel& object = ModelOf(view);
  py::array_t<double> result({object.num_points, static_cast<Index>(object.dimension)});
  Eigen::Map<Vector> out(result.mutable_data(), object.num_dofs());
  if (object.system < 0) {
    out.setZero();
    return result;
  }
  const SolverNode& node = simulation.solver_nodes()[static_cast<std::size_t>(object.system)];
  Vector force(node.system->num_dofs());
  node.system->ComputeForce(node.state, force);
  out = force.segment(object.offset, object.num_dofs());
  return result;
}

const Topology* TopologyOf(const ObjectView& view) { return ModelOf(view).topology.get(); }

}  // namespace

void BindObjectView(py::module_& module) {
  py::class_<ObjectView>(module, "MechanicalObject",
                         "One MechanicalObject of a Simulation: its state as NumPy arrays of "
                         "shape (points, dim), and the topology of its node.")
      .def_property_readonly("id", [](const ObjectView& v) { return ModelOf(v).id; })
      .def_property_readonly("name", [](const ObjectView& v) { return ModelOf(v).name; })
      .def_property_readonly("dimension", [](const ObjectView& v) { return ModelOf(v).dimension; })
      .def_property_readonly("num_points",
                             [](const ObjectView& v) { return ModelOf(v).num_points; })
      .def_property_readonly("is_static", [](const ObjectView& v) { return ModelOf(v).system < 0; })
      .def_property(
          "positions", [](const ObjectView& v) { return StateView(v, true); },
          [](const ObjectView& v, const py::object& value) { SetState(v, value, true); },
          "Current positions [m]: a read-only view of the solver's state (it follows the "
          "simulation; .copy() keeps a snapshot). Assign an array of the same shape to set them; "
          "the solvers restart from the new state.")
      .def_property(
          "velocities", [](const ObjectView& v) { return StateView(v, false); },
          [](const ObjectView& v, const py::object& value) { SetState(v, value, false); },
          "Current velocities [m/s]: as positions.")
      .def_property_readonly("rest_positions",
                             [](const ObjectView& v) {
                               const ObjectModel& object = ModelOf(v);
                               return ReadOnlyView<double>(object.rest_position.data(),
                                                           object.num_points, object.dimension,
                                                           v.simulation);
                             })
      .def("forces", &Forces,
           "The total force f(t, x, v) on each point [N] at the current state (a new array).")
      .def_property_readonly("edges",
                             [](const ObjectView& v) {
                               const Topology* t = TopologyOf(v);
                               return ElementView<2>(v, t ? &t->edges : nullptr);
                             })
      .def_property_readonly("triangles",
                             [](const ObjectView& v) {
                               const Topology* t = TopologyOf(v);
                               return ElementView<3>(v, t ? &t->triangles : nullptr);
                             })
      .def_property_readonly("quads",
                             [](const ObjectView& v) {
                               const Topology* t = TopologyOf(v);
                               return ElementView<4>(v, t ? &t->quads : nullptr);
                             })
      .def_property_readonly("tetrahedra",
                             [](const ObjectView& v) {
                               const Topology* t = TopologyOf(v);
                               return ElementView<4>(v, t ? &t->tetrahedra : nullptr);
                             })
      .def_property_readonly("hexahedra",
                             [](const ObjectView& v) {
                               const Topology* t = TopologyOf(v);
                               return ElementView<8>(v, t ? &t->hexahedra : nullptr);
                             })
      .def("__repr__", [](const ObjectView& v) {
        const ObjectModel& object = ModelOf(v);
        return "<fluxion.MechanicalObject '" + object.id +
               "': " + std::to_string(object.num_points) + " points, Vec" +
               std::to_string(object.dimension) + "d>";
      });
}

}  // namespace fluxion::python
