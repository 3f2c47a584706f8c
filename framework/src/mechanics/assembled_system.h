// The concrete MechanicalSystem the scene builder assembles for one solver node.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include <Eigen/SparseCore>

#include "fluxion/force_field.h"
#include "fluxion/mechanical_system.h"
#include "fluxion/projective_constraint.h"
#include "mechanics/matrix_layout.h"

namespace fluxion::internal {

class ConstantForce;

/// A linear projector on the DOFs of one point (BuildContext::ProjectPoint): r ← P·r.
struct PointProjector {
  Index first_dof = 0;
  int dimension = 0;
  std::array<double, 9> matrix{};  ///< row-major, dimension × dimension
};

/// A constraint on positions and velocities of one object's points (BuildContext::
/// AddProjectiveConstraint), with the DOFs it holds while it is active.
struct StateConstraint {
  Index first_dof = 0;  ///< the object's first DOF in the system
  Index num_dofs = 0;   ///< the object's DOFs
  std::vector<Index> held_dofs;
  std::unique_ptr<ProjectiveConstraint> constraint;
};

/// What the scene builder gathers for one solver before assembly.
struct SystemParts {
  Index num_dofs = 0;
  Vector mass;  ///< per-DOF diagonal of M (0 where no mass component applies)
  /// Off-diagonal entries of M (a consistent mass), both (a, b) and (b, a); summed when repeated.
  std::vector<Eigen::Triplet<double, int>> mass_couplings;
  std::vector<bool> fixed;                    ///< per-DOF: projected by a FixedProjectiveConstraint
  std::vector<PointProjector> projectors;     ///< at most one per point (products composed)
  std::map<Index, std::size_t> projector_at;  ///< first DOF of a point → its projector
  std::vector<StateConstraint> constraints;   ///< in document order
  Vector
      external_force;  ///< SOFA's externalForce, applied during the first step only (empty: none)
  std::vector<std::unique_ptr<ForceField>> force_fields;  ///< gravity included (a ConstantForce)
};

/// MechanicalSystem over lumped masses and a list of force fields. The common matrix pattern
/// (MatrixLayout) is built on the first call that needs it — CreateMatrix(), mass(), the
/// Assemble* and ProjectMatrix methods — once, thread-safely: explicit solvers on a diagonal
/// mass never pay for it (for 3-D springs it holds about 36 entries per spring).
///
/// One exception to "a force field keeps no per-step state": a system that receives contacts
/// holds a PenaltyContactForceField whose contact list the runtime replaces between steps (after
/// the collision detection, before the solver's step), never during one; within a step it is a
/// constant force law like any other. Its stiffness exists only in the matrix-free tangent (the
/// pattern above cannot hold contacts that change every step): the builder refuses direct linear
/// solvers for such a system (docs/contact.md).
class AssembledSystem final : public MechanicalSystem {
 public:
  explicit AssembledSystem(SystemParts parts);

  Index num_dofs() const override { return num_dofs_; }
  const SparseMatrix& mass() const override { return Layout().mass; }
  Vector mass_diagonal() const override { return mass_diagonal_; }
  bool is_mass_diagonal() const override { return mass_is_diagonal_; }
  const Vector& inverse_mass_diagonal() const override { return inverse_mass_; }
  void ComputeForce(const State& state, Vector& f) const override;
  SparseMatrix CreateMatrix() const override { return Layout().pattern; }
  void AssembleStiffness(const State& state, SparseMatrix& K) const override;
  bool has_damping_matrix() const override { return has_damping_matrix_; }
  void AssembleDamping(const State& state, SparseMatrix& B) const override;
  void ProjectResponse(Vector& vector) const override;
  void ProjectMatrix(SparseMatrix& matrix) const override;
  const std::vector<Index>* projected_dofs() const override { return &projected_dofs_; }
  /// Matrix-free (FieldTangent): springs multiply with their own tangent blocks, other fields
  /// with their own entries; no sparse pattern is built for it.
  std::unique_ptr<TangentOperator> CreateTangentOperator(
      TangentEvaluation evaluation = TangentEvaluation::kStored) const override;
  double KineticEnergy(const State& state) const override;
  double PotentialEnergy(const State& state) const override;

  /// Replaces M's diagonal on the DOFs [first_dof, first_dof + mass.size()) between steps (a
  /// mass changed by Simulation::SetComponentField), in mass_diagonal(), the inverse (0 on fixed
  /// DOFs and massless ones, as at construction), and mass() when it was built (the pattern is
  /// unchanged; the diagonal slot holds exactly the value, as when M is assembled). Solvers
  /// cache M: the caller initialises the system's solver again.
  void SetDiagonalMass(Index first_dof, const Vector& mass);

  /// SOFA clears externalForce after each step: the framework calls this after the first step.
  void ClearExternalForce() { external_force_active_ = false; }

  /// True when some constraint sets positions or velocities (ProjectState has work to do).
  bool has_state_constraints() const { return !constraints_.empty(); }
  /// Decides which state constraints hold their points during the step starting at `time` (the
  /// framework calls it before each step and before the solver is initialised).
  void SetTime(double time);
  /// SOFA's projectPosition then projectVelocity of every state constraint, in document order,
  /// at `time` (the framework calls it at the start and after each step).
  void ProjectState(double time, State& state) const;
  const std::vector<Index>& fixed_dofs() const { return fixed_dofs_; }
  // In-place topological changes (build/topology_in_place.h), between steps only: what changes
  // is written where the solvers read it, and no buffer of the system is reallocated.
  /// The position of `field` among the system's force fields, or -1.
  int FieldIndex(const ForceField* field) const;
  std::size_t num_fields() const { return force_fields_.size(); }
  /// The force field at `index`, to change between steps.
  ForceField& MutableField(std::size_t index) { return *force_fields_[index]; }
  /// Removes springs of the SpringForceField at `field_index` (SpringForceField::
  /// RemoveSpringsMovingLast); the layout's slots, if built, move with them. The pattern keeps
  /// the removed springs' entries (a superset: they are assembled as zeros).
  void RemoveSprings(std::size_t field_index, std::span<const Index> sorted_descending);
  /// Sets M's diagonal on DOFs [first_dof, first_dof + count) to `mass` (a lumped mass changed):
  /// the diagonal, its inverse (0 on fixed DOFs) and M in the layout, if built.
  void SetDiagonalMass(Index first_dof, int count, double mass);

  /// Why the DOFs of a point cannot be removed in place (RemovePointMovingLast), or null when
  /// they can: a built matrix layout, a state constraint that is no PointListFollower
  /// (mechanics/point_list_follower.h), mass couplings or an external force still to apply would
  /// need renumbering this does not do.
  const char* PointRemovalRefusal() const;
  /// Removes the `dimension` DOFs from `slot_dof` on, the system's last `dimension` DOFs taking
  /// their place (SOFA's removal of a point, the last point moved into its slot): M's diagonal
  /// and its inverse move and shrink, the fixed and projected DOFs, the point projectors and the
  /// state constraints' points and held DOFs drop the slot's and rename the last point's,
  /// num_dofs() shrinks. The force fields are the
  /// caller's (it renames their ends). Between steps, when PointRemovalRefusal() is null. The
  /// vectors shrink in place (conservativeResize: a realloc that keeps the buffer, nothing copied).
  void RemovePointMovingLast(Index slot_dof, int dimension);

  /// True once the matrix layout has been built (tests: explicit runs never build it).
  bool has_matrix_layout() const { return layout_ != nullptr; }

 private:
  void CheckPattern(const SparseMatrix& matrix, const char* what) const;
  // The matrix layout, built on first use.
  const MatrixLayout& Layout() const;

  Index num_dofs_;
  bool mass_is_diagonal_ = true;  // no non-zero entry of M off its diagonal
  bool has_damping_matrix_ = false;
  Vector inverse_mass_;
  Vector mass_diagonal_;  // M's diagonal, and its off-diagonal entries (consistent masses)
  std::vector<Eigen::Triplet<double, int>> mass_couplings_;
  std::vector<Index> fixed_dofs_;
  std::vector<Index> projected_dofs_;  // fixed, projected and holdable DOFs, sorted, unique
  Vector external_force_;
  bool external_force_active_ = false;
  std::vector<std::unique_ptr<ForceField>> force_fields_;
  const ConstantForce* leading_constant_force_ = nullptr;  // force_fields_[0], if it is one
  std::vector<PointProjector> projectors_;

  mutable std::once_flag layout_once_;
  mutable std::unique_ptr<MatrixLayout> layout_;

  // State constraints, and whether each holds its points in the current step.
  std::vector<StateConstraint> constraints_;
  std::vector<char> holding_;
};

}  // namespace fluxion::internal
