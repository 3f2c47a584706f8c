// The common sparsity pattern of an AssembledSystem's matrices and where every contribution goes
// in it: built only when a solver asks for a matrix (AssembledSystem::CreateMatrix, mass()).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <Eigen/SparseCore>

#include "fluxion/force_field.h"
#include "fluxion/types.h"

namespace fluxion::internal {

struct PointProjector;
struct StateConstraint;

/// What the layout is computed from: the system's DOFs, masses, force fields and constraints
/// (views into the AssembledSystem, which outlives the call).
struct MatrixLayoutInputs {
  Index num_dofs = 0;
  const Vector* mass_diagonal = nullptr;  ///< per-DOF diagonal of M
  /// Off-diagonal entries of M, both (a, b) and (b, a); summed when repeated.
  const std::vector<Eigen::Triplet<double, int>>* mass_couplings = nullptr;
  const std::vector<std::unique_ptr<ForceField>>* force_fields = nullptr;
  const std::vector<Index>* fixed_dofs = nullptr;  ///< sorted
  const std::vector<PointProjector>* projectors = nullptr;
  const std::vector<StateConstraint>* constraints = nullptr;
};

/// The common pattern (the diagonal, M's couplings, every force field's stiffness and damping
/// entries, and the blocks point projectors mix), M in it, and the slot maps that let assembly
/// and projection write values without searching: memory proportional to the pattern (for 3-D
/// springs about 36 entries per spring, each with a slot), which explicit solvers on a diagonal
/// mass never need.
struct MatrixLayout {
  /// For A ← P·A·P + (I − P) with a point projector: the slots of one block of rows in one column
  /// (left product) or of one row in one block of columns (right product).
  struct SlotGroup {
    int projector;
    std::array<Index, 3> slots;
  };

  SparseMatrix pattern;  ///< the common pattern, all values zero
  SparseMatrix mass;     ///< M in the common pattern
  /// Per force field: where its stiffness / damping entries start in the slot arrays.
  std::vector<std::size_t> stiffness_offsets, damping_offsets;
  std::vector<Index> stiffness_slots, damping_slots;
  /// Value positions cleared by ProjectMatrix, and the diagonal positions set to 1.
  std::vector<Index> projected_slots, projected_diagonal_slots;
  /// Point projectors: left-product groups, right-product groups, each projector's diagonal
  /// block (row-major).
  std::vector<SlotGroup> row_groups, column_groups;
  std::vector<std::array<Index, 9>> diagonal_blocks;
  /// Per state constraint: the slots its held DOFs clear and the diagonal slots set to 1.
  std::vector<std::vector<Index>> held_slots, held_diagonal_slots;
};

/// Computes the layout. Allocates about 40 bytes per pattern entry while it runs (the entries
/// listed by the force fields, then the compressed pattern and its slots).
std::unique_ptr<MatrixLayout> BuildMatrixLayout(const MatrixLayoutInputs& inputs);

}  // namespace fluxion::internal
