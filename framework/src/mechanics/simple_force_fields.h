// Force fields with a constant or linear law: gravity through the masses, constant forces,
// uniform velocity damping.
#pragma once

#include <algorithm>
#include <memory>
#include <span>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/force_field.h"

namespace fluxion::internal {

/// A force that does not depend on the state: f += F. Potential energy −F·x.
/// Used for gravity (F = m_i·g per DOF, SOFA's Mass::addForce) and ConstantForceField.
class Weight;  // mechanics/gravity_weights.h

class ConstantForce final : public ForceField {
 public:
  /// `dofs[k]` receives `values[k]`.
  ConstantForce(std::vector<Index> dofs, std::vector<double> values);
  void AddForce(const State& state, Vector& f) const override;
  /// f = 0 and then AddForce, in one pass over f (each entry written once, the same bits: a
  /// listed entry gets 0 + value), when the DOFs are evenly spaced; false (f untouched) otherwise.
  /// The system's force starts with it when this field comes first (gravity).
  bool SetForce(Vector& f) const;
  double PotentialEnergy(const State& state) const override;
  /// Replaces the values (one per DOF, in the constructor's order), between steps: a load a
  /// controller changes (Simulation::SetComponentField). Sizes are the caller's to check.
  void SetValues(std::span<const double> values) {
    FLUXION_DEMAND(values.size() == values_.size());
    std::copy(values.begin(), values.end(), values_.begin());
  }
  const std::vector<Index>& dofs() const { return dofs_; }
  const std::vector<double>& values() const { return values_; }
  /// Sets the value of DOF `dof` (listed once), between steps: the weight of a mass that
  /// changed (a topological change). False when the DOF is not listed.
  bool SetValueAt(Index dof, double value);
  /// A point removed between steps from a force whose DOFs are its object's, in order
  /// (dofs[k] = dofs[0] + k, the object's last point last): entries [first, first + count) take
  /// the last `count` values, and the last `count` entries go (SOFA's swap-last removal of a point,
  /// build/topology_in_place.h). No reallocation.
  void RemoveEntriesMovingLast(std::size_t first, std::size_t count);
  /// Erases entries [first, first + count), the later ones keeping their order (a load on a
  /// list of elements, one of which went: TopologySubsetData::remove), between steps. No
  /// reallocation.
  void EraseEntries(std::size_t first, std::size_t count);
  /// Sets the DOFs of entries [first, first + dofs.size()) (their points renumbered), between
  /// steps.
  void SetDofs(std::size_t first, std::span<const Index> dofs);
  /// Room for `count` entries, so that AppendEntries up to it allocates nothing.
  void ReserveEntries(std::size_t count) {
    dofs_.reserve(count);
    values_.reserve(count);
  }
  /// Appends entries (a load on a list of elements that gained one), between steps.
  void AppendEntries(std::span<const Index> dofs, std::span<const double> values);
  /// Entries [first, first + count) take the last `count` entries (DOFs and values), which go:
  /// an element of a load's list removed by moving the last one into its slot, between steps.
  void MoveLastEntriesInto(std::size_t first, std::size_t count);
  /// The mass weight whose point masses and gravity give these values (null for a plain load).
  /// A mesh changed in place goes through it (Weight::SetPointMassAt, RemovePointMovingLast), so
  /// that a gravity set later still multiplies the current masses (build/topology_in_place.cpp).
  Weight* weight() const { return weight_.get(); }
  void AttachWeight(std::shared_ptr<Weight> weight) { weight_ = std::move(weight); }

 private:
  void FindLayout();  // increasing_ and stride_ from dofs_

  std::shared_ptr<Weight> weight_;
  std::vector<Index> dofs_;
  std::vector<double> values_;
  bool increasing_ = true;  // dofs_ strictly increasing: each entry written once, in parallel
  Index stride_ = 0;        // > 0 when dofs_[k] = dofs_[0] + k·stride_ (gravity on one axis)
};

/// SOFA's UniformVelocityDampingForceField: f −= c·v on the given DOFs. With `implicit` it also
/// provides B = c·I (B = −∂f/∂v), so implicit solvers treat it implicitly.
class UniformVelocityDamping final : public ForceField {
 public:
  UniformVelocityDamping(std::vector<Index> dofs, double coefficient, bool implicit);
  void AddForce(const State& state, Vector& f) const override;
  void DampingEntries(std::vector<MatrixEntry>& entries) const override;
  void AddDamping(const State& state, const Index* slots, double* values) const override;

 private:
  std::vector<Index> dofs_;
  double coefficient_;
  bool implicit_;
};

}  // namespace fluxion::internal
