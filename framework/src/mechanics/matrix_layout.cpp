#include "mechanics/matrix_layout.h"

#include <algorithm>
#include <limits>
#include <string>

#include "fluxion/errors.h"
#include "mechanics/assembled_system.h"

namespace fluxion::internal {

namespace {
// Position of (row, col) in the value array of a compressed column-major matrix.
Index FindLayoutSlot(const SparseMatrix& matrix, Index row, Index col) {
  const int* begin = matrix.innerIndexPtr() + matrix.outerIndexPtr()[col];
  const int* end = matrix.innerIndexPtr() + matrix.outerIndexPtr()[col + 1];
  const int* found = std::lower_bound(begin, end, static_cast<int>(row));
  FLUXION_DEMAND(found != end && *found == row);
  return found - matrix.innerIndexPtr();
}
}  // namespace

std::unique_ptr<MatrixLayout> BuildMatrixLayout(const MatrixLayoutInputs& in) {
  auto layout = std::make_unique<MatrixLayout>();
  const Index n = in.num_dofs;
  const std::vector<PointProjector>& projectors = *in.projectors;

  // The force fields' entries, listed once (their slots are looked up from the same lists).
  std::vector<MatrixEntry> stiffness_entries, damping_entries;
  for (const auto& field : *in.force_fields) {
    layout->stiffness_offsets.push_back(stiffness_entries.size());
    field->StiffnessEntries(stiffness_entries);
    layout->damping_offsets.push_back(damping_entries.size());
    field->DampingEntries(damping_entries);
  }

  // A point projector mixes the rows (and columns) of its point: wherever one of them has an
  // entry, all of them get one, and the point's diagonal block is full. Without projectors the
  // pattern is exactly the listed entries and the diagonal.
  std::vector<int> projector_of(static_cast<std::size_t>(n), -1);
  for (std::size_t p = 0; p < projectors.size(); ++p)
    for (int a = 0; a < projectors[p].dimension; ++a)
      projector_of[static_cast<std::size_t>(projectors[p].first_dof + a)] = static_cast<int>(p);
  const auto block = [&](Index dof) -> std::pair<Index, int> {
    const int p = projector_of[static_cast<std::size_t>(dof)];
    if (p < 0) return {dof, 1};
    return {projectors[static_cast<std::size_t>(p)].first_dof,
            projectors[static_cast<std::size_t>(p)].dimension};
  };
  // Every (row, col) of the pattern, repeats included, handed to `emit`.
  const auto visit = [&](auto&& emit) {
    const auto entry = [&](Index row, Index col) {
      const auto [row0, rows] = block(row);
      const auto [col0, cols] = block(col);
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) emit(row0 + r, col0 + c);
    };
    for (Index i = 0; i < n; ++i) entry(i, i);
    for (const auto& e : *in.mass_couplings) entry(e.row(), e.col());
    for (const MatrixEntry& e : stiffness_entries) entry(e.row, e.col);
    for (const MatrixEntry& e : damping_entries) entry(e.row, e.col);
  };

  // The compressed pattern by a counting sort on columns: 4 bytes per listed entry while it is
  // built (Eigen's setFromTriplets needs a triplet list and a transposed copy, 28 bytes).
  std::vector<std::size_t> column_start(static_cast<std::size_t>(n) + 1, 0);
  visit([&](Index /*row*/, Index col) { ++column_start[static_cast<std::size_t>(col) + 1]; });
  for (Index col = 0; col < n; ++col)
    column_start[static_cast<std::size_t>(col) + 1] += column_start[static_cast<std::size_t>(col)];
  std::vector<int> rows(column_start.back());
  {
    std::vector<std::size_t> cursor(column_start.begin(), column_start.end() - 1);
    visit([&](Index row, Index col) {
      rows[cursor[static_cast<std::size_t>(col)]++] = static_cast<int>(row);
    });
  }
  std::size_t nonzeros = 0;
  for (std::size_t col = 0; col < static_cast<std::size_t>(n); ++col) {
    const auto begin = rows.begin() + static_cast<std::ptrdiff_t>(column_start[col]);
    const auto end = rows.begin() + static_cast<std::ptrdiff_t>(column_start[col + 1]);
    std::sort(begin, end);
    const auto last = std::unique(begin, end);
    column_start[col] = nonzeros;  // now the compressed column's start (never past `begin`)
    for (auto row = begin; row != last; ++row) rows[nonzeros++] = *row;
  }
  column_start[static_cast<std::size_t>(n)] = nonzeros;
  // Eigen's matrices index their entries with int.
  if (nonzeros > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw UsageError("the system's matrix would have " + std::to_string(nonzeros) +
                     " entries (expected at most " +
                     std::to_string(std::numeric_limits<int>::max()) + ")");
  SparseMatrix& pattern = layout->pattern;
  pattern.resize(n, n);
  pattern.makeCompressed();
  pattern.resizeNonZeros(static_cast<Index>(nonzeros));
  for (Index col = 0; col <= n; ++col)
    pattern.outerIndexPtr()[col] = static_cast<int>(column_start[static_cast<std::size_t>(col)]);
  std::copy(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(nonzeros),
            pattern.innerIndexPtr());
  std::fill(pattern.valuePtr(), pattern.valuePtr() + nonzeros, 0.0);
  rows = {};
  column_start = {};

  layout->stiffness_slots.reserve(stiffness_entries.size());
  for (const MatrixEntry& e : stiffness_entries)
    layout->stiffness_slots.push_back(FindLayoutSlot(pattern, e.row, e.col));
  stiffness_entries = {};
  layout->damping_slots.reserve(damping_entries.size());
  for (const MatrixEntry& e : damping_entries)
    layout->damping_slots.push_back(FindLayoutSlot(pattern, e.row, e.col));
  damping_entries = {};

  layout->mass = pattern;
  for (Index i = 0; i < n; ++i)
    layout->mass.valuePtr()[FindLayoutSlot(pattern, i, i)] = (*in.mass_diagonal)[i];
  for (const auto& e : *in.mass_couplings)
    layout->mass.valuePtr()[FindLayoutSlot(pattern, e.row(), e.col())] += e.value();

  // Projection: every entry in a fixed row or column, and the fixed diagonals.
  std::vector<char> fixed(static_cast<std::size_t>(n), 0);
  for (const Index dof : *in.fixed_dofs) fixed[static_cast<std::size_t>(dof)] = 1;
  for (Index col = 0; col < n; ++col) {
    for (Index k = pattern.outerIndexPtr()[col]; k < pattern.outerIndexPtr()[col + 1]; ++k) {
      const Index row = pattern.innerIndexPtr()[k];
      if (fixed[static_cast<std::size_t>(row)] != 0 || fixed[static_cast<std::size_t>(col)] != 0)
        layout->projected_slots.push_back(k);
    }
  }
  for (const Index dof : *in.fixed_dofs)
    layout->projected_diagonal_slots.push_back(FindLayoutSlot(pattern, dof, dof));

  // Point projectors: the slot groups of the left product P·A (a block of rows in one column)
  // and of the right product A·P (one row in a block of columns), and the diagonal blocks.
  if (!projectors.empty()) {
    for (Index col = 0; col < n; ++col) {
      const int column_projector = projector_of[static_cast<std::size_t>(col)];
      for (Index k = pattern.outerIndexPtr()[col]; k < pattern.outerIndexPtr()[col + 1]; ++k) {
        const Index row = pattern.innerIndexPtr()[k];
        const int p = projector_of[static_cast<std::size_t>(row)];
        if (p >= 0 && projectors[static_cast<std::size_t>(p)].first_dof == row) {
          MatrixLayout::SlotGroup group{p, {}};
          for (int a = 0; a < projectors[static_cast<std::size_t>(p)].dimension; ++a)
            group.slots[static_cast<std::size_t>(a)] = FindLayoutSlot(pattern, row + a, col);
          layout->row_groups.push_back(group);
        }
        if (column_projector >= 0 &&
            projectors[static_cast<std::size_t>(column_projector)].first_dof == col) {
          MatrixLayout::SlotGroup group{column_projector, {}};
          for (int a = 0; a < projectors[static_cast<std::size_t>(column_projector)].dimension; ++a)
            group.slots[static_cast<std::size_t>(a)] = FindLayoutSlot(pattern, row, col + a);
          layout->column_groups.push_back(group);
        }
      }
    }
  }
  for (const PointProjector& projector : projectors) {
    std::array<Index, 9> slots{};
    for (int r = 0; r < projector.dimension; ++r)
      for (int c = 0; c < projector.dimension; ++c)
        slots[static_cast<std::size_t>(r * projector.dimension + c)] =
            FindLayoutSlot(pattern, projector.first_dof + r, projector.first_dof + c);
    layout->diagonal_blocks.push_back(slots);
  }

  // State constraints: the entries in their held rows and columns, and the held diagonals.
  for (const StateConstraint& constraint : *in.constraints) {
    std::vector<Index> slots, diagonal;
    if (!constraint.held_dofs.empty()) {
      std::vector<char> held(static_cast<std::size_t>(n), 0);
      for (const Index dof : constraint.held_dofs) held[static_cast<std::size_t>(dof)] = 1;
      for (Index col = 0; col < n; ++col)
        for (Index k = pattern.outerIndexPtr()[col]; k < pattern.outerIndexPtr()[col + 1]; ++k)
          if (held[static_cast<std::size_t>(pattern.innerIndexPtr()[k])] != 0 ||
              held[static_cast<std::size_t>(col)] != 0)
            slots.push_back(k);
      for (const Index dof : constraint.held_dofs)
        diagonal.push_back(FindLayoutSlot(pattern, dof, dof));
    }
    layout->held_slots.push_back(std::move(slots));
    layout->held_diagonal_slots.push_back(std::move(diagonal));
  }
  return layout;
}

}  // namespace fluxion::internal
