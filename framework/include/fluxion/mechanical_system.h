// The mechanical system a solver integrates:  M a = f(t, x, v), with fixed DOFs projected out.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/state.h"
#include "fluxion/types.h"

namespace fluxion {

/// The tangent of a mechanical system at one state, as an operator: products
///
///   y = (m·M + b·B + k·K)·x,   K = −∂f/∂x,  B = −∂f/∂v  at the linearised state,
///
/// without an assembled matrix (SOFA's matrix-free `addMBKdx`, used by its GraphScattered CG).
/// Iterative linear solvers need nothing else, and a product evaluated spring by spring from a
/// few numbers stored per spring costs less memory traffic than a sparse matrix product over the
/// assembled pattern (which holds 4 blocks per spring plus its indices).
///
/// `LinearizeStiffness` (and `LinearizeDamping`) evaluate and store what the products need (for
/// springs, the symmetric 3×3 tangent block); `Multiply` may then be called any number of times.
/// Nothing allocates after construction. The result is unprojected: projection is the caller's
/// business (ImplicitSystem).
class FLUXION_API TangentOperator {
 public:
  virtual ~TangentOperator();
  /// Evaluates K = −∂f/∂x at `state` for the products that follow.
  virtual void LinearizeStiffness(const State& state) = 0;
  /// Evaluates B = −∂f/∂v at `state` for the products that follow.
  virtual void LinearizeDamping(const State& state) = 0;
  /// y = m·M·x + b·B·x + k·K·x (overwrites y, which must have the system's size); a term whose
  /// factor is 0 is skipped. K and B are as last linearised (zero before).
  virtual void Multiply(double m, double b, double k, const Vector& x, Vector& y) const = 0;
  /// True when the operator stays valid after its system changed in place (SystemChange: blocks
  /// of DOFs removed, masses changed): it reads the system's masses where they are and keeps
  /// nothing indexed by DOF, so the next linearisation sees the changed system. The default is
  /// false: ImplicitSystem then creates the operator again.
  virtual bool FollowsSystemChanges() const;
};

/// How a TangentOperator obtains K for its products (MechanicalSystem::CreateTangentOperator).
enum class TangentEvaluation {
  /// LinearizeStiffness evaluates and stores what the products need (for springs a symmetric
  /// block each, 48 bytes); every product reads it. For many products at one state (CG).
  kStored,
  /// LinearizeStiffness keeps a reference to the state, which must stay alive and unchanged
  /// while products are taken; each product evaluates the tangent anew from it where a force
  /// field can (springs without an exact damping Jacobian: the stored product's bits), storing
  /// nothing; other fields are stored. For a few products when memory matters (the stability
  /// check's power iteration: no 48 bytes per spring), at the cost of a force evaluation each.
  kRecomputed,
};

/// How a topological change followed in place (without a rebuild) changed a system, for those
/// that keep buffers indexed by its DOFs (ODE solvers, FollowSystemChange). SOFA's topology
/// handlers keep their data and move it (removePointsProcess: each removed point's slot takes
/// the last point; sofa/core/topology/TopologyData.inl); Fluxion's in-place follow does the
/// same, and this record lets a solver do it to its vectors in time proportional to the change
/// instead of creating them again for the new size.
///
/// The removals are applied one after the other: removing the block of `block_size` DOFs that
/// starts at `removed_blocks[i]` moves the system's last block (the last `block_size` DOFs at
/// that moment) into its place, unless it is that last block, and the system shrinks by one
/// block. `masses` then gives the new diagonal masses of the DOFs `mass_dofs` lists (numbered
/// after all the removals); other masses are unchanged. Spans point into the caller's buffers,
/// valid during the call.
struct SystemChange {
  int block_size = 0;
  std::span<const Index> removed_blocks = {};
  std::span<const Index> mass_dofs = {};
  std::span<const double> masses = {};

  bool removes_dofs() const { return !removed_blocks.empty(); }
};

/// Applies `change`'s removals to a vector indexed by the system's DOFs: each removed block's
/// entries take the last block's, then the vector shrinks (`conservativeResize`: the buffer is
/// kept, nothing is zeroed), in time proportional to the removed blocks. A vector that is empty
/// is left empty. Throws UsageError when the vector is smaller than the removals need.
FLUXION_API void FollowRemovedBlocks(const SystemChange& change, Vector& values);

/// The assembled mechanics of the DOFs under one solver node: masses, force fields, gravity and
/// projective constraints, in SOFA's conventions (sofa-notes §0):
///
///  - `ComputeForce` is the total force f(t, x, v): springs with their dashpots, gravity acting
///    through the masses (m·g per point), constant and external forces. It is *not* projected.
///  - The stiffness is `K = -∂f/∂x` and the damping `B = -∂f/∂v` (the positive convention: for
///    springs K is positive semi-definite). SOFA's K is +∂f/∂x; its solver factors are translated.
///  - Fixed DOFs are handled by projection, as SOFA's FixedProjectiveConstraint: `ProjectResponse`
///    zeroes their entries in forces, accelerations, velocity increments and right-hand sides;
///    `ProjectMatrix` clears their rows and columns and puts 1 on the diagonal. Positions are never
///    reset: a fixed point stays put because every increment is projected to zero.
///    Other projective constraints project a point's entries with a linear map P (I − nnᵀ for a
///    plane, nnᵀ for a line): `ProjectResponse` applies r ← P·r on the point and `ProjectMatrix`
///    A ← P·A·P + (I − P) on its rows and columns (for P = 0 that is the fixed-point rule).
///    Constraints that set positions and velocities (fluxion/projective_constraint.h) are applied
///    by the framework between steps, not by solvers.
///
/// Every matrix the system hands out or fills shares one sparsity pattern (the union of M, K, B
/// and the diagonal), fixed when the scene is assembled. So a system matrix A = m·M + b·B + k·K is
/// a cheap loop over value arrays (`CombineMatrices`) and a direct solver's symbolic analysis is
/// done once. Filling a matrix never allocates.
///
/// A system is immutable after assembly (all methods are const and thread-compatible) and outlives
/// the solver stepping it.
class FLUXION_API MechanicalSystem {
 public:
  virtual ~MechanicalSystem();

  /// Number of scalar DOFs (points × template dimension, summed over objects).
  virtual Index num_dofs() const = 0;

  /// The mass matrix M, in the common pattern. Constant. Fixed DOFs may have zero mass.
  virtual const SparseMatrix& mass() const = 0;
  /// The diagonal of M (all of M when it is diagonal). Unlike `mass()`, it does not need M in the
  /// common pattern, which a system may build only when first asked for (a matrix the size of
  /// the stiffness pattern, which explicit solvers on lumped masses never need). The default
  /// returns `mass().diagonal()`.
  virtual Vector mass_diagonal() const;
  /// True when M is diagonal (lumped masses): explicit solvers then use `inverse_mass_diagonal`.
  virtual bool is_mass_diagonal() const = 0;
  /// 1/m per DOF for diagonal M, with 0 for projected (fixed) DOFs and massless DOFs.
  virtual const Vector& inverse_mass_diagonal() const = 0;

  /// f = f(t, x, v) for `state`, overwriting `f` (size num_dofs()). Unprojected.
  virtual void ComputeForce(const State& state, Vector& f) const = 0;

  /// A zero matrix with the common pattern, to be filled by the Assemble* methods. Call once, at
  /// initialisation; the result can be reused for every step.
  virtual SparseMatrix CreateMatrix() const = 0;
  /// Writes the tangent stiffness K = -∂f/∂x at `state` into `K` (from CreateMatrix()).
  virtual void AssembleStiffness(const State& state, SparseMatrix& K) const = 0;
  /// True if some force field has a velocity Jacobian B (exact dashpot Jacobians, implicit
  /// damping).
  virtual bool has_damping_matrix() const = 0;
  /// Writes B = -∂f/∂v at `state` into `B` (from CreateMatrix()); zero without damping matrices.
  virtual void AssembleDamping(const State& state, SparseMatrix& B) const = 0;

  /// Zeroes the entries of fixed DOFs and projects those of projected points (SOFA's
  /// projectResponse).
  virtual void ProjectResponse(Vector& vector) const = 0;
  /// Clears the rows and columns of fixed DOFs and sets their diagonal to 1 (SOFA's
  /// applyConstraint); A ← P·A·P + (I − P) for projected points.
  virtual void ProjectMatrix(SparseMatrix& matrix) const = 0;
  /// The DOFs `ProjectResponse` may change (fixed DOFs, the DOFs of projected points, points a
  /// constraint may hold), sorted, or null when the system does not list them (then any DOF may
  /// change). It leaves every other entry as it is, whatever the time, and the new values of the
  /// listed entries depend on listed entries only: so a vector is projected, or checked to be, in
  /// time proportional to the list (the matrix-free operator of the implicit solvers does that
  /// instead of copying its whole input; EulerExplicitSolver projects only these entries of its
  /// acceleration). The default returns null.
  virtual const std::vector<Index>* projected_dofs() const;

  /// A tangent operator for matrix-free products (CGLinearSolver's path). The default works for
  /// any system, over matrices from CreateMatrix and sparse products (it ignores `evaluation`);
  /// the framework's system evaluates force field by force field instead
  /// (ForceField::TangentSize), with no pattern.
  virtual std::unique_ptr<TangentOperator> CreateTangentOperator(
      TangentEvaluation evaluation = TangentEvaluation::kStored) const;

  /// ½ vᵀ M v.
  virtual double KineticEnergy(const State& state) const = 0;
  /// Springs' ½ ks (l − l0)², gravity's −m g·x, constant forces' −F·x; zero at the reference.
  virtual double PotentialEnergy(const State& state) const = 0;
};

/// A = m·M + b·B + k·K, entry by entry, for matrices sharing the system's common pattern.
/// `B` may be null when b == 0 or the system has no damping matrix. Never allocates.
FLUXION_API void CombineMatrices(double m, const SparseMatrix& M, double b, const SparseMatrix* B,
                                 double k, const SparseMatrix& K, SparseMatrix& A);

}  // namespace fluxion
