#include "matrix_binding.h"

#include <string>

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "fluxion/errors.h"

namespace fluxion::python {

namespace py = pybind11;

void AddMatrixAccess(py::class_<Simulation>& simulation) {
  simulation
      .def(
          "component_matrix",
          [](const Simulation& s, const std::string& component, const std::string& kind) {
            if (kind != "stiffness" && kind != "mass")
              throw UsageError("component_matrix: kind must be 'stiffness' or 'mass', got '" +
                               kind + "'");
            return s.ComponentMatrix(component, kind == "stiffness"
                                                    ? ComponentMatrixKind::kStiffness
                                                    : ComponentMatrixKind::kMass);
          },
          py::arg("component"), py::arg("kind"),
          "The matrix of a component ('root/beam/FEM') at the current state as a SciPy sparse "
          "matrix over its MechanicalObject's DOFs, unprojected: kind 'stiffness' gives "
          "K = -df/dx of its force fields, 'mass' its mass matrix M. UsageError for a component "
          "without one or whose matrix cannot be isolated (mapped, two objects).")
      .def(
          "last_linear_system",
          [](const Simulation& s, const std::string& node_path) {
            LinearSystemRecord record = s.LastLinearSystem(node_path);
            return py::make_tuple(std::move(record.matrix), std::move(record.rhs),
                                  std::move(record.solution), record.solves);
          },
          py::arg("node_path"),
          "(A, b, x, solves): the last linear system A x = b the solver of node 'root/beam' "
          "solved (A a SciPy sparse matrix, b and x arrays), recorded when the node holds a "
          "MatrixLinearSystem; solves counts those recorded (0: none yet, all empty).");
}

}  // namespace fluxion::python
