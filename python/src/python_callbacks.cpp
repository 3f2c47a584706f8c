#include "python_callbacks.h"

#include <optional>

#include <pybind11/numpy.h>

namespace fluxion::python {

namespace py = pybind11;

PythonCallbacks::PythonCallbacks(py::object component)
    : component_(std::move(component)),
      module_(py::module_::import("fluxion.python_components")),
      class_name_(py::str(py::type::of(component_).attr("__name__")).cast<std::string>()) {}

PythonCallbacks::~PythonCallbacks() {
  // Members are py::objects: release them while holding the GIL (a simulation may be destroyed
  // from C++ without it).
  std::optional<py::gil_scoped_acquire> gil;
  if (Py_IsInitialized() != 0) gil.emplace();
  for (CachedView& cached : views_) DropReference(cached.view);
  DropReference(module_);
  DropReference(component_);
}

py::object PythonCallbacks::Method(const char* name) const {
  if (!py::hasattr(component_, name)) return py::none();
  return component_.attr(name);
}

py::object PythonCallbacks::View(const double* data, Index points, int dimension, bool writeable,
                                 const char* name) const {
  for (const CachedView& cached : views_)
    if (cached.data == data && cached.points == points && cached.writeable == writeable)
      return cached.view;
  // A new buffer: its view, made once. The array's base is the component, so NumPy never copies
  // nor frees Fluxion's memory.
  py::array_t<double> array({static_cast<py::ssize_t>(points), static_cast<py::ssize_t>(dimension)},
                            {static_cast<py::ssize_t>(dimension * sizeof(double)),
                             static_cast<py::ssize_t>(sizeof(double))},
                            const_cast<double*>(data), component_);
  if (!writeable) array.attr("setflags")(py::arg("write") = false);
  CachedView& slot = views_[next_view_];
  next_view_ = (next_view_ + 1) % kCachedViews;
  slot = {data, points, writeable, module_.attr("vector_data")(array, name)};
  return slot.view;
}

std::string PythonCallbacks::Failed(const char* method, const py::object& error,
                                    const py::object& trace) const {
  return py::str(module_.attr("component_failed")(component_, method, error, trace))
      .cast<std::string>();
}

void PythonCallbacks::Refuse(const char* method, const char* exception,
                             const std::string& message) const {
  // Reported as if the method had raised it, at the component's addObject line.
  const py::object raised = py::module_::import("builtins").attr(exception)(message);
  throw std::runtime_error(Failed(method, raised, py::none()));
}

py::dict PythonCallbacks::Params(double m, double b, double k) {
  using namespace pybind11::literals;
  return py::dict("time"_a = 0.0, "mFactor"_a = m, "bFactor"_a = b, "kFactor"_a = k,
                  "isImplicit"_a = true, "energy"_a = false);
}

}  // namespace fluxion::python
