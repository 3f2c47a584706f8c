// PythonForceField: a force field written in Python (SofaPython3's Sofa.Core.ForceFieldVec3d, see
// python/fluxion/python_components.py), as a Fluxion ForceField that calls the Python object back.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include <pybind11/pybind11.h>

#include "fluxion/component.h"
#include "fluxion/force_field.h"
#include "fluxion/model.h"
#include "python_callbacks.h"

namespace fluxion::python {

/// Calls a Python force field's SofaPython3 methods where Fluxion's solvers ask for forces and
/// tangents:
///
///  - AddForce → `addForce(mparams, f, x, v)`, f, x, v the field's object's slices of the
///    solver's vectors;
///  - AddTangentProduct (matrix-free implicit solvers, e.g. EulerImplicitSolver with
///    CGLinearSolver: y += k·K·x with K = −∂f/∂x) → `addDForce(mparams, df, dx)` with
///    mparams["kFactor"] = −k, SOFA's sign (df += kFactor·∂f/∂x·dx);
///  - AddStiffness (assembled K, direct linear solvers) → `addKToMatrix(mparams, nNodes, nDofs)`
///    with kFactor = −1, whose entries must lie in the pattern it returned when the scene was
///    built (Fluxion fixes K's sparsity pattern once).
///
/// Without addDForce, the matrix-free product uses addKToMatrix's entries; without either, an
/// implicit solver that needs the tangent stops with one line naming the missing method
/// (explicit solvers never ask). Velocity dependence is explicit (no damping matrix), as for
/// SofaPython3 fields whose addDForce ignores bFactor.
///
/// Python runs on the calling thread with the GIL taken for the call only: the forces are the
/// same for any thread count. Views, calls and exceptions: PythonCallbacks.
class PythonForceField final : public ForceField {
 public:
  /// `component`: the Python object; `object`: the MechanicalObject it acts on. Does not call
  /// Python's init() (python_components.initialise does, before).
  PythonForceField(pybind11::object component, const ObjectModel& object);
  ~PythonForceField() override;

  /// Calls addKToMatrix once (when the class defines it) to fix the entries K will have. False,
  /// with `why`, when it raises or returns something else than SofaPython3's two forms.
  bool DiscoverStiffnessEntries(std::string& why);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  std::ptrdiff_t TangentSize() const override;
  void LinearizeStiffness(const State& state, double* tangent) const override;
  void AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                         Vector& y) const override;

 private:
  // Adds addKToMatrix's result at values[slots[pattern index]].
  void AddReturnedStiffness(const pybind11::object& returned, const Index* slots,
                            double* values) const;
  // addKToMatrix's entries as (local row, local column, value), or why not.
  bool ReadEntries(const pybind11::object& returned, std::vector<std::array<double, 3>>& rows,
                   std::string& why) const;
  pybind11::object View(const double* data, bool writeable, const char* name) const {
    return python_.View(data, num_points_, dimension_, writeable, name);
  }

  PythonCallbacks python_;
  pybind11::object add_force_, add_dforce_, add_k_to_matrix_;     // bound methods, or None
  pybind11::dict force_params_, tangent_params_, matrix_params_;  // reused mparams dicts
  Index first_dof_ = 0;
  Index num_dofs_ = 0;
  int dimension_ = 3;
  Index num_points_ = 0;

  std::vector<MatrixEntry> entries_;                  // addKToMatrix's, in system DOFs
  std::unordered_map<long long, std::size_t> entry_;  // local row·n + col → index in entries_
  mutable std::vector<std::array<double, 3>> scratch_rows_;  // reused by AddStiffness
};

/// PythonForceField's component: its spec (kind kForceField, field `handle`) and build function.
ComponentSpec PythonForceFieldSpec();
void BuildPythonForceField(BuildContext& context);

}  // namespace fluxion::python
