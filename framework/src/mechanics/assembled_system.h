// The concrete MechanicalSystem the scene builder assembles for one solver node.
#pragma once

#include <memory>

#include <Eigen/SparseCore>
#include <vector>

#include "fluxion/force_field.h"
#include "fluxion/mechanical_system.h"

namespace fluxion::internal {

/// What the scene builder gathers for one solver before assembly.
struct SystemParts {
  Index num_dofs = 0;
  Vector mass;  ///< per-DOF diagonal of M (0 where no mass component applies)
  /// Off-diagonal entries of M (a consistent mass), both (a, b) and (b, a); summed when repeated.
  std::vector<Eigen::Triplet<double, int>> mass_couplings;
  std::vector<bool> fixed;  ///< per-DOF: projected by a FixedProjectiveConstraint
  Vector external_force;    ///< SOFA's externalForce, applied during the first step only
  std::vector<std::unique_ptr<ForceField>> force_fields;  ///< gravity included (a ConstantForce)
};

/// MechanicalSystem over lumped masses and a list of force fields. The common matrix pattern is
/// computed once here: the diagonal, then every force field's stiffness and damping entries.
class AssembledSystem final : public MechanicalSystem {
 public:
  explicit AssembledSystem(SystemParts parts);

  Index num_dofs() const override { return num_dofs_; }
  const SparseMatrix& mass() const override { return mass_matrix_; }
  bool is_mass_diagonal() const override { return mass_is_diagonal_; }
  const Vector& inverse_mass_diagonal() const override { return inverse_mass_; }
  void ComputeForce(const State& state, Vector& f) const override;
  SparseMatrix CreateMatrix() const override { return pattern_; }
  void AssembleStiffness(const State& state, SparseMatrix& K) const override;
  bool has_damping_matrix() const override { return !damping_slots_.empty(); }
  void AssembleDamping(const State& state, SparseMatrix& B) const override;
  void ProjectResponse(Vector& vector) const override;
  void ProjectMatrix(SparseMatrix& matrix) const override;
  double KineticEnergy(const State& state) const override;
  double PotentialEnergy(const State& state) const override;

  /// SOFA clears externalForce after each step: the framework calls this after the first step.
  void ClearExternalForce() { external_force_active_ = false; }
  const std::vector<Index>& fixed_dofs() const { return fixed_dofs_; }

 private:
  void CheckPattern(const SparseMatrix& matrix, const char* what) const;

  Index num_dofs_;
  bool mass_is_diagonal_ = true;  // no non-zero entry of M off its diagonal
  Vector inverse_mass_;
  std::vector<Index> fixed_dofs_;
  Vector external_force_;
  bool external_force_active_ = false;
  std::vector<std::unique_ptr<ForceField>> force_fields_;

  SparseMatrix pattern_;      // the common pattern, all values zero
  SparseMatrix mass_matrix_;  // M in the common pattern
  // Per force field: where its stiffness / damping entries start in the slot arrays.
  std::vector<std::size_t> stiffness_offsets_, damping_offsets_;
  std::vector<Index> stiffness_slots_, damping_slots_;
  // Value positions cleared by ProjectMatrix, and the diagonal positions set to 1.
  std::vector<Index> projected_slots_, projected_diagonal_slots_;
};

}  // namespace fluxion::internal
