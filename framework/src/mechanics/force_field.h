// The internal interface of everything that contributes forces to a system.
#pragma once

#include <vector>

#include "fluxion/state.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// A (row, column) position in a system matrix.
struct MatrixEntry {
  Index row;
  Index col;
};

/// A force field acting on the DOFs of one system (indices are system-level DOF indices).
///
/// Jacobians are assembled through a fixed list of entries: `StiffnessEntries` lists the (row, col)
/// positions the field writes, once at assembly; the system maps each to its slot in the common
/// pattern's value array, and `AddStiffness` then adds one value per entry, in the same order,
/// at `values[slots[k]]` — no search and no allocation per step.
class ForceField {
 public:
  virtual ~ForceField() = default;

  /// f += force at `state`.
  virtual void AddForce(const State& state, Vector& f) const = 0;

  /// Entries of K = -∂f/∂x this field writes, appended in a fixed order.
  virtual void StiffnessEntries(std::vector<MatrixEntry>& /*entries*/) const {}
  /// values[slots[k]] += K entry k at `state`, for each entry of StiffnessEntries.
  virtual void AddStiffness(const State& /*state*/, const Index* /*slots*/,
                            double* /*values*/) const {}

  /// Entries of B = -∂f/∂v; empty for fields whose damping is explicit only.
  virtual void DampingEntries(std::vector<MatrixEntry>& /*entries*/) const {}
  virtual void AddDamping(const State& /*state*/, const Index* /*slots*/,
                          double* /*values*/) const {}

  virtual double PotentialEnergy(const State& /*state*/) const { return 0.0; }
};

}  // namespace fluxion::internal
