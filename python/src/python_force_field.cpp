#include "python_force_field.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>

#include <pybind11/numpy.h>

#include "fluxion/component.h"

namespace fluxion::python {

namespace py = pybind11;

namespace {

// Drops a reference with the GIL held (the caller holds it); at interpreter shutdown, leaks it:
// Python objects cannot be released once the interpreter is gone.
template <class Handle>
void Drop(Handle& handle) {
  if (Py_IsInitialized() != 0)
    handle.release().dec_ref();
  else
    handle.release();
}

// SofaPython3's mparams dict (Binding_ForceField.cpp), for one kind of call.
py::dict Params(double m, double b, double k, bool energy) {
  using namespace pybind11::literals;
  py::dict params("time"_a = 0.0, "mFactor"_a = m, "bFactor"_a = b, "kFactor"_a = k,
                  "isImplicit"_a = true);
  if (energy) params["energy"] = false;
  return params;
}

py::object MethodOrNone(const py::object& component, const char* name) {
  if (!py::hasattr(component, name)) return py::none();
  return component.attr(name);
}

}  // namespace

PythonForceField::PythonForceField(py::object component, const ObjectModel& object)
    : component_(std::move(component)),
      module_(py::module_::import("fluxion.python_components")),
      add_force_(component_.attr("addForce")),
      add_dforce_(MethodOrNone(component_, "addDForce")),
      add_k_to_matrix_(MethodOrNone(component_, "addKToMatrix")),
      force_params_(Params(0.0, 0.0, 0.0, true)),
      tangent_params_(Params(0.0, 0.0, 0.0, false)),
      matrix_params_(Params(0.0, 0.0, -1.0, false)),
      class_name_(py::str(py::type::of(component_).attr("__name__")).cast<std::string>()),
      first_dof_(object.offset),
      num_dofs_(object.num_dofs()),
      dimension_(object.dimension),
      num_points_(object.num_points) {
  // SOFA's explicit solvers call addForce with isImplicit false; Fluxion's force evaluation is
  // the same call for every solver, so the flag says what SofaPython3 would say for most.
  force_params_["isImplicit"] = false;
}

PythonForceField::~PythonForceField() {
  // Members are py::objects: release them while holding the GIL (the simulation may be
  // destroyed from C++ without it).
  const bool alive = Py_IsInitialized() != 0;
  std::optional<py::gil_scoped_acquire> gil;
  if (alive) gil.emplace();
  for (CachedView& cached : views_) Drop(cached.view);
  Drop(force_params_);
  Drop(tangent_params_);
  Drop(matrix_params_);
  Drop(add_k_to_matrix_);
  Drop(add_dforce_);
  Drop(add_force_);
  Drop(module_);
  Drop(component_);
}

py::object PythonForceField::View(const double* data, bool writeable, const char* name) const {
  for (const CachedView& cached : views_)
    if (cached.data == data && cached.writeable == writeable) return cached.view;
  // A new buffer (the solvers' vectors are few and fixed once sized): make its view once. The
  // array's base is the component, so NumPy never copies nor frees Fluxion's memory.
  py::array_t<double> array(
      {static_cast<py::ssize_t>(num_points_), static_cast<py::ssize_t>(dimension_)},
      {static_cast<py::ssize_t>(dimension_ * sizeof(double)),
       static_cast<py::ssize_t>(sizeof(double))},
      const_cast<double*>(data), component_);
  if (!writeable) array.attr("setflags")(py::arg("write") = false);
  CachedView& slot = views_[next_view_];
  next_view_ = (next_view_ + 1) % kCachedViews;
  slot = {data, writeable, module_.attr("vector_data")(array, name)};
  return slot.view;
}

template <class... Args>
py::object PythonForceField::Call(const py::object& method, const char* name, double time,
                                  Args&&... args) const {
  try {
    return method(std::forward<Args>(args)...);
  } catch (py::error_already_set& error) {
    // Kept for the binding, which raises it at the line that raised once the step has failed.
    const std::string message = py::str(module_.attr("component_failed")(
                                            component_, name, error.value(), error.trace(), time))
                                    .cast<std::string>();
    throw std::runtime_error(message);
  }
}

void PythonForceField::Refuse(const char* method, const char* exception,
                              const std::string& message) const {
  // Reported as if the method had raised it, at the component's addObject line.
  const py::object missing = py::module_::import("builtins").attr(exception)(message);
  throw std::runtime_error(
      py::str(module_.attr("component_failed")(component_, method, missing, py::none(), 0.0))
          .cast<std::string>());
}

void PythonForceField::AddForce(const State& state, Vector& f) const {
  py::gil_scoped_acquire gil;
  force_params_["time"] = state.time;
  Call(add_force_, "addForce", state.time, force_params_,
       View(f.data() + first_dof_, true, "force"),
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
    Refuse("addDForce", "NotImplementedError",
           class_name_ +
               " defines neither addDForce(mparams, df, dx) nor addKToMatrix(mparams, "
               "nNodes, nDofs): the implicit solver needs ∂f/∂x (define one, as SOFA "
               "needs them too, or use an explicit solver)");
  // Fluxion adds k·K·dx with K = −∂f/∂x; SofaPython3's addDForce adds kFactor·∂f/∂x·dx.
  tangent_params_["kFactor"] = -k;
  Call(add_dforce_, "addDForce", 0.0, tangent_params_, View(y.data() + first_dof_, true, "dforce"),
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
        why = class_name_ + ".addKToMatrix returned the entry (" +
              py::repr(py::float_(list(r, 0))).cast<std::string>() + ", " +
              py::repr(py::float_(list(r, 1))).cast<std::string>() +
              ") (expected DOF indices of its object, 0 to " + std::to_string(num_dofs_ - 1) + ")";
        return false;
      }
      rows.push_back({list(r, 0), list(r, 1), list(r, 2)});
    }
    return true;
  }
  why = class_name_ + ".addKToMatrix returned " +
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
        Call(add_k_to_matrix_, "addKToMatrix", 0.0, matrix_params_, num_points_, dimension_);
    if (!ReadEntries(returned, rows, why)) return false;
  } catch (const std::runtime_error& error) {
    module_.attr("take_failure")(0, 0.0);  // reported here, at the component's line
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
    Refuse("addKToMatrix", "NotImplementedError",
           class_name_ +
               " defines no addKToMatrix(mparams, nNodes, nDofs): the solver "
               "assembles K (a direct linear solver; define it, or use "
               "CGLinearSolver, which calls addDForce)");
  matrix_params_["time"] = state.time;
  const py::object returned =
      Call(add_k_to_matrix_, "addKToMatrix", state.time, matrix_params_, num_points_, dimension_);
  AddReturnedStiffness(returned, slots, values);
}

void PythonForceField::AddReturnedStiffness(const py::object& returned, const Index* slots,
                                            double* values) const {
  std::string why;
  if (!ReadEntries(returned, scratch_rows_, why)) Refuse("addKToMatrix", "ValueError", why);
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
        Refuse("addKToMatrix", "ValueError",
               class_name_ + ".addKToMatrix returned a nonzero entry (" +
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

void BuildPythonForceField(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  py::gil_scoped_acquire gil;
  const py::module_ module = py::module_::import("fluxion.python_components");
  const long handle = context.parameters().integer("handle");
  const py::object component = module.attr("lookup")(handle);
  if (component.is_none()) {
    context.Error("PythonForceField: no force field written in Python has handle " +
                  std::to_string(handle) +
                  " (expected a Sofa.Core.ForceFieldVec3d added with addObject in a Python "
                  "scene: PythonForceField is not written in XML)");
    return;
  }
  const auto class_name = py::str(py::type::of(component).attr("__name__")).cast<std::string>();
  const int dimension = component.attr("_dimension").cast<int>();
  if (dimension != object->dimension) {
    context.Error(class_name + " is a ForceFieldVec" + std::to_string(dimension) +
                  "d and acts on '" + object->id + "', a Vec" + std::to_string(object->dimension) +
                  "d object (expected a MechanicalObject of its template)");
    return;
  }
  py::dict state;
  state["position"] = Points(*object, object->position);
  state["velocity"] = Points(*object, object->velocity);
  state["rest_position"] = Points(*object, object->rest_position);
  const py::object problem = module.attr("initialise")(component, object->id, state);
  if (!problem.is_none()) {
    context.Error(problem.cast<std::string>());
    return;
  }
  auto field = std::make_unique<PythonForceField>(component, *object);
  std::string why;
  if (!field->DiscoverStiffnessEntries(why)) {
    context.Error(why);
    return;
  }
  context.AddForceField(*object, std::move(field));
}

}  // namespace

void RegisterPythonComponents(PluginRegistrar& registrar) {
  registrar.AddComponent(
      ComponentSpec{
          .name = "PythonForceField",
          .kind = ComponentKind::kForceField,
          .summary = "A force field written in Python (Sofa.Core.ForceFieldVec3d in a Python "
                     "scene, docs/python.md); never written in XML",
          .fields = {FieldSpec::Integer("handle", 0,
                                        "the Python object's number (written by the scene "
                                        "graph, fluxion.python_components)")},
          .aliases = {}},
      &BuildPythonForceField);
}

}  // namespace fluxion::python
