// PythonCallbacks: how the C++ side of a component written in Python (python_force_field.h,
// python_mapping.h) calls the Python object back.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include <pybind11/pybind11.h>

#include "fluxion/types.h"

namespace fluxion::python {

/// The Python object of a component written in Python, with what every call back needs:
///
///  - its vectors handed over as SofaPython3-style data (python_components.VectorData) over NumPy
///    views of Fluxion's buffers, made once per buffer and reused (a small cache keyed by
///    address: the solvers' vectors are few and fixed once sized), so a call allocates nothing
///    on the C++ side;
///  - calls made with the GIL held (taken by the caller: a gil_scoped_acquire for the call
///    only), a Python exception kept for the binding (python_components.component_failed) and
///    rethrown as a std::runtime_error carrying its one-line description: the solver's step
///    fails, the state is restored, and the binding raises fluxion.errors.ComponentError at the
///    line that raised.
///
/// Construct, use and destroy with the GIL held (the destructor takes it itself).
class PythonCallbacks {
 public:
  explicit PythonCallbacks(pybind11::object component);
  PythonCallbacks(const PythonCallbacks&) = delete;
  PythonCallbacks& operator=(const PythonCallbacks&) = delete;
  ~PythonCallbacks();

  const pybind11::object& component() const { return component_; }
  const std::string& class_name() const { return class_name_; }

  /// The bound method `name`, or None when the class has none (or sets it to None).
  pybind11::object Method(const char* name) const;

  /// The data handed to a method for `points` × `dimension` doubles at `data`.
  pybind11::object View(const double* data, Index points, int dimension, bool writeable,
                        const char* name) const;

  /// method(args…); a Python exception becomes the runtime_error above, named `name`.
  template <class... Args>
  pybind11::object Call(const pybind11::object& method, const char* name, Args&&... args) const {
    try {
      return method(std::forward<Args>(args)...);
    } catch (pybind11::error_already_set& error) {
      throw std::runtime_error(Failed(name, error.value(), error.trace()));
    }
  }

  /// Stops the step as if `method` had raised the Python `exception` (a builtins name) with
  /// `message`: a method the solver needs is missing, or returned something unusable.
  [[noreturn]] void Refuse(const char* method, const char* exception,
                           const std::string& message) const;

  /// SofaPython3's mparams dict (Binding_ForceField.cpp, Binding_Mapping.cpp).
  static pybind11::dict Params(double m, double b, double k);

 private:
  // Keeps the exception for the binding; returns its one-line description.
  std::string Failed(const char* method, const pybind11::object& error,
                     const pybind11::object& trace) const;

  struct CachedView {
    const double* data = nullptr;
    Index points = 0;
    bool writeable = false;
    pybind11::object view;
  };
  static constexpr std::size_t kCachedViews = 16;

  pybind11::object component_;
  pybind11::object module_;  // fluxion.python_components
  std::string class_name_;
  mutable std::array<CachedView, kCachedViews> views_;
  mutable std::size_t next_view_ = 0;
};

/// Drops a reference with the GIL held (the caller holds it); at interpreter shutdown, leaks it:
/// Python objects cannot be released once the interpreter is gone.
template <class Handle>
void DropReference(Handle& handle) {
  if (Py_IsInitialized() != 0)
    handle.release().dec_ref();
  else
    handle.release();
}

}  // namespace fluxion::python
