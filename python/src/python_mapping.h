// PythonMapping: a mapping written in Python (SofaPython3's Sofa.Core.Mapping_Vec3d_Vec3d, see
// python/fluxion/python_components.py), as a Fluxion Mapping that calls the Python object back.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "fluxion/component.h"
#include "fluxion/mapping.h"
#include "fluxion/model.h"
#include "python_callbacks.h"

namespace fluxion::python {

/// x_child = apply(x_parent), as Fluxion's nonlinear mappings (fluxion/mapping.h): each time the
/// child's state is computed, `apply(mparams, outCoord, inCoord)` gives its positions, and the
/// Jacobian, which SofaPython3's Python API gives only as a product (`applyJ(mparams, outDeriv,
/// inDeriv)`: outDeriv = J·inDeriv), is read column by column, applyJ of each unit vector of the
/// parent. Its pattern is the entries nonzero when the scene is built (fixed then; a column
/// that was zero stays zero, a nonzero entry outside it later stops the step in one line).
/// Forces map back as Jᵀ·f from those entries (`applyJT` is never called); there is no
/// geometric stiffness (SofaPython3's Python API has no applyDJT): exact for linear and affine
/// mappings, and for others the tangent of implicit solvers lacks that term.
///
/// The output keeps its number of points, or gets the input's when it has none.
///
/// Cost: 1 + (parent DOFs in the pattern) Python calls each time the child's state is computed:
/// meant for small objects. Python runs on the calling thread with the GIL taken for the call.
class PythonMapping final : public Mapping {
 public:
  PythonMapping(pybind11::object component, const ObjectModel& parent, const ObjectModel& child);
  ~PythonMapping() override;

  /// Calls apply and applyJ at `parent_positions` to fix J's entries. False, with `why`, when
  /// one raises.
  bool DiscoverJacobian(const double* parent_positions, std::string& why);

  Index num_outputs() const override { return child_points_ * dimension_; }
  void JacobianEntries(std::vector<MatrixEntry>& entries) const override;
  void Apply(const double* parent, double* child, double* jacobian) const override;

 private:
  // column_ = J·e_c (applyJ at the state of the last apply).
  void JacobianColumn(Index c) const;

  PythonCallbacks python_;
  pybind11::object apply_, apply_j_;  // bound methods
  pybind11::dict params_;             // reused mparams dict
  Index parent_points_ = 0;
  Index child_points_ = 0;
  int dimension_ = 3;
  std::vector<MatrixEntry> entries_;  // (child DOF, parent DOF), column by column
  // For each parent DOF, its entries: (index in entries_, child DOF).
  std::vector<std::vector<std::pair<std::size_t, Index>>> by_column_;
  mutable Vector unit_, column_, scratch_child_;
};

/// PythonMapping's component: its spec (kind kMapping, fields handle, input, output) and build
/// function.
ComponentSpec PythonMappingSpec();
void BuildPythonMapping(BuildContext& context);

}  // namespace fluxion::python
