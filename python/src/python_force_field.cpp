#include "python_force_field.h"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>

#include <pybind11/numpy.h>

#include "fluxion/component.h"
#include "python_components.h"

namespace fluxion::python {

namespace py = pybind11;

PythonForceField::PythonForceField(py::object component, const ObjectModel& object)
    : python_(std::move(component)),
      add_force_(python_.component().attr("addForce")),
      add_dforce_(python_.Method("addDForce")),
      add_k_to_matrix_(python_.Method("addKToMatrix")),
      force_params_(PythonCallbacks::Params(0.0, 0.0, 0.0)),
      tangent_params_(PythonCallbacks::Params(0.0, 0.0, 0.0)),
      matrix_params_(PythonCallbacks::Params(0.0, 0.0, -1.0)),
      first_dof_(object.offset),
      num_dofs_(object.num_dofs()),
      dimension_(object.dimension),
      num_points_(object.num_points) {
  // SOFA's explicit solvers call addForce with isImplicit false; Fluxion's force evaluation is
  // the same call for every solver, so the flag says what SofaPython3 would say for most.
  force_params_["isImplicit"] = false;
}

PythonForceField::~PythonForceField() {
  std::optional<py::gil_scoped_acquire> gil;
  if (Py_IsInitialized() != 0) gil.emplace();
  DropReference(force_params_);
  DropReference(tangent_params_);
  DropReference(matrix_params_);
  DropReference(add_k_to_matrix_);
  DropReference(add_dforce_);
  DropReference(add_force_);
}

void PythonForceField::AddForce(const State& state, Vector& f) const {
  py::gil_scoped_acquire gil;
  force_params_["time"] = state.time;
  python_.Call(add_force_, "addForce", force_params_, View(f.data() + first_dof_, true, "force"),
               View(state.x.data() + first_dof_, false, "position"),
               View(state.v.data() + first_dof_, false, "velocity"));
}

std::ptrdiff_t PythonForceField::TangentSize() const {
  // addDForce is the field's own product (nothing stored: it linearises where it likes, SOFA's
  // way being the state of the last addForce); without it, addKToMatrix's entries multiply.
  if (!add_dforce_.is_none() || add_k_to_matrix_.is_none()) return 0;
  return -1;
}

void PythonForceField::LinearizeStiffness(const State& /*state*/, double* /*tangent*/) const {}

void PythonForceField::AddTangentProduct(const double* /*tangent*/, double /*b*/, double k,
                                         const Vector& x, Vector& y) const {
  if (k == 0.0) return;  // no damping matrix: velocity dependence stays explicit
  py::gil_scoped_acquire gil;
  if (add_dforce_.is_none())
    python_.Refuse("addDForce", "NotImplementedError",
                   python_.class_name() +
                       " defines neither addDForce(mparams, df, dx) nor addKToMatrix(mparams, "
                       "nNodes, nDofs): the implicit solver needs ∂f/∂x (define one, as SOFA "
                       "needs them too, or use an explicit solver)");
  // Fluxion adds k·K·dx with K = −∂f/∂x; SofaPython3's addDForce adds kFactor·∂f/∂x·dx.
  tangent_params_["kFactor"] = -k;
  python_.Call(add_dforce_, "addDForce", tangent_params_,
               View(y.data() + first_dof_, true, "dforce"),
               View(x.data() + first_dof_, false, "dx"));
}

bool PythonForceField::ReadEntries(const py::object& returned,
                                   std::vector<std::array<double, 3>>& rows,
                                   std::string& why) const {
  rows.clear();
  const auto array =
      py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(returned);
  const auto n = static_cast<double>(num_dofs_);
  const auto index_ok = [n](double i) { return i >= 0.0 && i < n && i == std::floor(i); };
  if (array && array.ndim() == 3 && array.shape(2) == 1 && array.shape(0) <= num_dofs_ &&
      array.shape(1) <= num_dofs_) {
    // SofaPython3's plain matrix: (rows, columns, 1).
    const auto matrix = array.unchecked<3>();
    for (py::ssize_t i = 0; i < matrix.shape(0); ++i)
      for (py::ssize_t j = 0; j < matrix.shape(1); ++j)
        if (matrix(i, j, 0) != 0.0)
          rows.push_back({static_cast<double>(i), static_cast<double>(j), matrix(i, j, 0)});
    return true;
  }
  if (array && array.ndim() == 2 && array.shape(1) == 3) {
    // SofaPython3's rows (i, j, value), object DOF indices.
    const auto list = array.unchecked<2>();
    for (py::ssize_t r = 0; r < list.shape(0); ++r) {
      if (!index_ok(list(r, 0)) || !index_ok(list(r, 1))) {
        why = python_.class_name() + ".addKToMatrix returned the entry (" +
              py::repr(py::float_(list(r, 0))).cast<std::string>() + ", " +
              py::repr(py::float_(list(r, 1))).cast<std::string>() +
              ") (expected DOF indices of its object, 0 to " + std::to_string(num_dofs_ - 1) + ")";
        return false;
      }
      rows.push_back({list(r, 0), list(r, 1), list(r, 2)});
    }
    return true;
  }
  why = python_.class_name() + ".addKToMatrix returned " +
        py::repr(returned).cast<std::string>().substr(0, 60) +
        " (expected SofaPython3's forms: a NumPy array of shape (n, n, 1), n at most " +
        std::to_string(num_dofs_) + ", or rows (i, j, value) of shape (m, 3))";
  return false;
}

bool PythonForceField::DiscoverStiffnessEntries(std::string& why) {
  if (add_k_to_matrix_.is_none()) return true;
  py::gil_scoped_acquire gil;
  std::vector<std::array<double, 3>> rows;
  try {
    const py::object returned =
        python_.Call(add_k_to_matrix_, "addKToMatrix", matrix_params_, num_points_, dimension_);
    if (!ReadEntries(returned, rows, why)) return false;
  } catch (const std::runtime_error& error) {
    py::module_::import("fluxion.python_components")
        .attr("take_failure")(0, 0.0);  // reported here, at the component's line
    why = error.what();
    return false;
  }
  // Every entry returned now, zeros included for (i, j, value) rows, is in K's pattern.
  for (const auto& [i, j, value] : rows) {
    const auto key = static_cast<long long>(i) * num_dofs_ + static_cast<long long>(j);
    if (entry_.emplace(key, entries_.size()).second)
      entries_.push_back({first_dof_ + static_cast<Index>(i), first_dof_ + static_cast<Index>(j)});
  }
  scratch_rows_.reserve(rows.size());
  return true;
}

void PythonForceField::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  entries.insert(entries.end(), entries_.begin(), entries_.end());
}

void PythonForceField::AddStiffness(const State& state, const Index* slots, double* values) const {
  py::gil_scoped_acquire gil;
  if (add_k_to_matrix_.is_none())
    python_.Refuse("addKToMatrix", "NotImplementedError",
                   python_.class_name() +
                       " defines no addKToMatrix(mparams, nNodes, nDofs): the solver "
                       "assembles K (a direct linear solver; define it, or use "
                       "CGLinearSolver, which calls addDForce)");
  matrix_params_["time"] = state.time;
  const py::object returned =
      python_.Call(add_k_to_matrix_, "addKToMatrix", matrix_params_, num_points_, dimension_);
  AddReturnedStiffness(returned, slots, values);
}

void PythonForceField::AddReturnedStiffness(const py::object& returned, const Index* slots,
                                            double* values) const {
  std::string why;
  if (!ReadEntries(returned, scratch_rows_, why)) python_.Refuse("addKToMatrix", "ValueError", why);
  for (std::size_t r = 0; r < scratch_rows_.size(); ++r) {
    const auto& [i, j, value] = scratch_rows_[r];
    const Index row = first_dof_ + static_cast<Index>(i);
    const Index col = first_dof_ + static_cast<Index>(j);
    // Usually the same entries in the same order as when the scene was built.
    std::size_t k = r;
    if (k >= entries_.size() || entries_[k].row != row || entries_[k].col != col) {
      const auto found =
          entry_.find(static_cast<long long>(i) * num_dofs_ + static_cast<long long>(j));
      if (found == entry_.end()) {
        if (value == 0.0) continue;
        python_.Refuse(
            "addKToMatrix", "ValueError",
            python_.class_name() + ".addKToMatrix returned a nonzero entry (" +
                std::to_string(static_cast<long long>(i)) + ", " +
                std::to_string(static_cast<long long>(j)) +
                ") it did not return when the scene was built (Fluxion fixes K's pattern then: "
                "return every entry that can be nonzero, as (i, j, value) rows with zeros)");
      }
      k = found->second;
    }
    values[slots[k]] += value;
  }
}

ComponentSpec PythonForceFieldSpec() {
  return ComponentSpec{
      .name = "PythonForceField",
      .kind = ComponentKind::kForceField,
      .summary =
          "A force field written in Python (Sofa.Core.ForceFieldVec3d in a Python scene, "
          "docs/python.md); never written in XML",
      .fields = {HandleField()},
      .aliases = {}};
}

void BuildPythonForceField(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  py::gil_scoped_acquire gil;
  const py::object component = StartPythonComponent(context, *object, "force field");
  if (component.is_none()) return;
  auto field = std::make_unique<PythonForceField>(component, *object);
  std::string why;
  if (!field->DiscoverStiffnessEntries(why)) {
    context.Error(why);
    return;
  }
  context.AddForceField(*object, std::move(field));
}

}  // namespace fluxion::python
