// The force fields of a mapped object, acting on the DOFs of the system it is mapped from.
//
// A mapped object (SOFA's mechanical mappings) has no DOFs in its solver's system: its state is
// x_c = J·x, v_c = J·v, with J constant for the linear mappings (mechanics/linear_mapping.h) and
// x, v the system's state. Its force fields were built against the child's own DOF numbering
// (offset 0); this adapter evaluates them there and maps the results back, as SOFA's mechanical
// visitors do (MechanicalPropagateOnlyPositionAndVelocityVisitor: apply, applyJ; then
// MechanicalComputeForceVisitor: the child's addForce, then the mapping's applyJT):
//
//   f   += Jᵀ·f_c(t, φ(x), J·v)          (φ(x) = J·x for a linear mapping)
//   K   += Jᵀ·K_c·J + K_g                 (K = −∂f/∂x; K_g = −∂(J(x)ᵀ·f_c)/∂x at fixed f_c, the
//                                          geometric stiffness of a nonlinear mapping: SOFA's
//                                          applyDJT / updateK; zero for a constant J)
//   B   += Jᵀ·B_c·J
//   V    = V_c(φ(x))
//
// Each child stiffness entry (r, c) becomes the entries (p, q) for every parent p of r and q of
// c, with weight J(r, p)·J(c, q): a fixed list of (entry of J, entry of J) pairs built once (J's
// pattern is fixed, its values change only for a nonlinear mapping), so assembling never
// searches nor allocates. Child states, forces and matrix values live in scratch buffers sized
// once: the adapter is const like every force field but not safe to call from two threads at
// once.
#pragma once

#include <memory>
#include <vector>

#include "fluxion/force_field.h"
#include "mechanics/mapping_jacobian.h"

namespace fluxion::internal {

class MappedForceField final : public ForceField {
 public:
  /// `mapping`: child DOFs × system DOFs; `fields` act on the child's DOFs 0 … mapping.rows()−1.
  MappedForceField(MappingJacobian mapping, std::vector<std::unique_ptr<ForceField>> fields);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  void DampingEntries(std::vector<MatrixEntry>& entries) const override;
  void AddDamping(const State& state, const Index* slots, double* values) const override;
  double PotentialEnergy(const State& state) const override;

  /// The child's own force f_c at the child state mapped from `state` (size mapping.rows()).
  void ChildForce(const State& state, Vector& child_force) const;

 private:
  // One child matrix entry expanded over the parents of its row and column.
  struct Expansion {
    std::vector<MatrixEntry> entries;  // system (p, q) per expanded entry
    std::vector<Index> child_entry;    // the child entry each comes from
    std::vector<Index> row_entry;      // the entry J(r, p) of the mapping
    std::vector<Index> col_entry;      // the entry J(c, q)
    std::vector<std::size_t> offsets;  // per field: its first child entry
    std::size_t num_child_entries = 0;
  };
  using EntryLister = void (ForceField::*)(std::vector<MatrixEntry>&) const;
  using MatrixAdder = void (ForceField::*)(const State&, const Index*, double*) const;
  Expansion Expand(EntryLister list) const;
  void AddMatrix(const Expansion& expansion, MatrixAdder add, const State& state,
                 const Index* slots, double* values) const;
  void MapState(const State& state) const;

  mutable MappingJacobian mapping_;  // J's values follow the state for a nonlinear mapping
  std::vector<std::unique_ptr<ForceField>> fields_;
  Expansion stiffness_, damping_;
  std::size_t geometric_entries_ = 0;  // K_g's entries, after the expanded ones
  std::vector<Index> identity_slots_;  // 0, 1, 2, …: child values land in child_values_
  mutable State child_;
  mutable Vector child_force_;
  mutable std::vector<double> child_values_;
};

}  // namespace fluxion::internal
