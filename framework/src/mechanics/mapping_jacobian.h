// The mapping of one mapped object onto its system's DOFs, linear or not: evaluates the child's
// state x_c = φ(x) (J·x for a linear mapping) and keeps J at that state, without allocating.
#pragma once

#include <memory>
#include <vector>

#include "fluxion/mapping.h"
#include "mechanics/linear_mapping.h"

namespace fluxion::internal {

class MappingJacobian {
 public:
  /// A linear mapping: J (child DOFs × system DOFs) is constant.
  explicit MappingJacobian(LinearMapping jacobian);
  /// A nonlinear mapping of the parent object whose DOFs start at `parent_offset` in the
  /// system (`system_dofs` of them): J's pattern from mapping->JacobianEntries, its values from
  /// mapping->Apply at every Evaluate.
  MappingJacobian(std::shared_ptr<const Mapping> mapping, Index parent_offset, Index system_dofs);

  /// x_c = φ(x) for the system DOFs `x`, and J at x (`x_child` has rows() entries).
  void Evaluate(const double* x, double* x_child);
  /// The Jacobian at the last Evaluate (constant for a linear mapping).
  const LinearMapping& jacobian() const { return jacobian_; }
  const Mapping* nonlinear() const { return mapping_.get(); }
  Index parent_offset() const { return parent_offset_; }
  Index rows() const { return jacobian_.rows(); }

 private:
  LinearMapping jacobian_;
  std::shared_ptr<const Mapping> mapping_;  // null for a linear mapping
  Index parent_offset_ = 0;
  std::vector<Index> entry_of_;  // JacobianEntries order → entry of jacobian_
  std::vector<double> values_;   // J values in JacobianEntries order
};

}  // namespace fluxion::internal
