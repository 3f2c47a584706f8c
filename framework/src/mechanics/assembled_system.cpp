#include "mechanics/assembled_system.h"

#include <algorithm>

#include "fluxion/errors.h"
#include "fluxion/threads.h"

namespace fluxion::internal {

namespace {
// Position of (row, col) in the value array of a compressed column-major matrix.
Index FindSlot(const SparseMatrix& matrix, Index row, Index col) {
  const int* begin = matrix.innerIndexPtr() + matrix.outerIndexPtr()[col];
  const int* end = matrix.innerIndexPtr() + matrix.outerIndexPtr()[col + 1];
  const int* found = std::lower_bound(begin, end, static_cast<int>(row));
  FLUXION_DEMAND(found != end && *found == row);
  return found - matrix.innerIndexPtr();
}
}  // namespace

AssembledSystem::AssembledSystem(SystemParts parts)
    : num_dofs_(parts.num_dofs),
      inverse_mass_(Vector::Zero(parts.num_dofs)),
      external_force_(std::move(parts.external_force)),
      force_fields_(std::move(parts.force_fields)),
      projectors_(std::move(parts.projectors)),
      constraints_(std::move(parts.constraints)) {
  FLUXION_DEMAND(parts.mass.size() == num_dofs_);
  FLUXION_DEMAND(static_cast<Index>(parts.fixed.size()) == num_dofs_);
  for (Index i = 0; i < num_dofs_; ++i) {
    if (parts.fixed[i])
      fixed_dofs_.push_back(i);
    else if (parts.mass[i] > 0.0)
      inverse_mass_[i] = 1.0 / parts.mass[i];
  }
  if (external_force_.size() != num_dofs_) external_force_.setZero(num_dofs_);
  external_force_active_ = !external_force_.isZero(0.0);

  // The common pattern: diagonal + every stiffness and damping entry.
  std::vector<MatrixEntry> stiffness_entries, damping_entries;
  for (const auto& field : force_fields_) {
    stiffness_offsets_.push_back(stiffness_entries.size());
    field->StiffnessEntries(stiffness_entries);
    damping_offsets_.push_back(damping_entries.size());
    field->DampingEntries(damping_entries);
  }
  std::vector<Eigen::Triplet<double, int>> triplets;
  triplets.reserve(num_dofs_ + parts.mass_couplings.size() + stiffness_entries.size() +
                   damping_entries.size());
  for (Index i = 0; i < num_dofs_; ++i) triplets.emplace_back(i, i, 0.0);
  for (const auto& e : parts.mass_couplings) triplets.emplace_back(e.row(), e.col(), 0.0);
  for (const MatrixEntry& e : stiffness_entries) triplets.emplace_back(e.row, e.col, 0.0);
  for (const MatrixEntry& e : damping_entries) triplets.emplace_back(e.row, e.col, 0.0);
  // A point projector mixes the rows (and columns) of its point: wherever one of them has an
  // entry, all of them get one, and the point's diagonal block is full. Without projectors the
  // pattern is exactly the one above.
  std::vector<int> projector_of(static_cast<std::size_t>(num_dofs_), -1);
  for (std::size_t p = 0; p < projectors_.size(); ++p)
    for (int a = 0; a < projectors_[p].dimension; ++a)
      projector_of[static_cast<std::size_t>(projectors_[p].first_dof + a)] = static_cast<int>(p);
  const auto block = [&](Index dof) -> std::pair<Index, int> {
    const int p = projector_of[static_cast<std::size_t>(dof)];
    if (p < 0) return {dof, 1};
    return {projectors_[static_cast<std::size_t>(p)].first_dof,
            projectors_[static_cast<std::size_t>(p)].dimension};
  };
  if (!projectors_.empty()) {
    const std::size_t given = triplets.size();
    for (std::size_t t = 0; t < given; ++t) {
      const auto [row0, rows] = block(triplets[t].row());
      const auto [col0, cols] = block(triplets[t].col());
      if (rows == 1 && cols == 1) continue;
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) triplets.emplace_back(row0 + r, col0 + c, 0.0);
    }
  }
  pattern_.resize(num_dofs_, num_dofs_);
  pattern_.setFromTriplets(triplets.begin(), triplets.end());
  pattern_.makeCompressed();
  for (const MatrixEntry& e : stiffness_entries)
    stiffness_slots_.push_back(FindSlot(pattern_, e.row, e.col));
  for (const MatrixEntry& e : damping_entries)
    damping_slots_.push_back(FindSlot(pattern_, e.row, e.col));

  mass_matrix_ = pattern_;
  for (Index i = 0; i < num_dofs_; ++i)
    mass_matrix_.valuePtr()[FindSlot(pattern_, i, i)] = parts.mass[i];
  for (const auto& e : parts.mass_couplings)
    mass_matrix_.valuePtr()[FindSlot(pattern_, e.row(), e.col())] += e.value();
  // Told from M itself, so that it stays true when masses with off-diagonal terms arrive.
  for (Index col = 0; col < num_dofs_ && mass_is_diagonal_; ++col)
    for (Index k = mass_matrix_.outerIndexPtr()[col]; k < mass_matrix_.outerIndexPtr()[col + 1];
         ++k)
      if (mass_matrix_.innerIndexPtr()[k] != col && mass_matrix_.valuePtr()[k] != 0.0)
        mass_is_diagonal_ = false;

  // Projection: every entry in a fixed row or column, and the fixed diagonals.
  std::vector<bool> fixed = std::move(parts.fixed);
  for (Index col = 0; col < num_dofs_; ++col) {
    for (Index k = pattern_.outerIndexPtr()[col]; k < pattern_.outerIndexPtr()[col + 1]; ++k) {
      const Index row = pattern_.innerIndexPtr()[k];
      if (fixed[row] || fixed[col]) projected_slots_.push_back(k);
    }
  }
  for (const Index dof : fixed_dofs_)
    projected_diagonal_slots_.push_back(FindSlot(pattern_, dof, dof));

  // Point projectors: the slot groups of the left product P·A (a block of rows in one column)
  // and of the right product A·P (one row in a block of columns), and the diagonal blocks.
  for (Index col = 0; col < num_dofs_; ++col) {
    const int column_projector = projector_of[static_cast<std::size_t>(col)];
    for (Index k = pattern_.outerIndexPtr()[col]; k < pattern_.outerIndexPtr()[col + 1]; ++k) {
      const Index row = pattern_.innerIndexPtr()[k];
      const int p = projector_of[static_cast<std::size_t>(row)];
      if (p >= 0 && projectors_[static_cast<std::size_t>(p)].first_dof == row) {
        SlotGroup group{p, {}};
        for (int a = 0; a < projectors_[static_cast<std::size_t>(p)].dimension; ++a)
          group.slots[static_cast<std::size_t>(a)] = FindSlot(pattern_, row + a, col);
        row_groups_.push_back(group);
      }
      if (column_projector >= 0 &&
          projectors_[static_cast<std::size_t>(column_projector)].first_dof == col) {
        SlotGroup group{column_projector, {}};
        for (int a = 0; a < projectors_[static_cast<std::size_t>(column_projector)].dimension; ++a)
          group.slots[static_cast<std::size_t>(a)] = FindSlot(pattern_, row, col + a);
        column_groups_.push_back(group);
      }
    }
  }
  for (const PointProjector& projector : projectors_) {
    std::array<Index, 9> slots{};
    for (int r = 0; r < projector.dimension; ++r)
      for (int c = 0; c < projector.dimension; ++c)
        slots[static_cast<std::size_t>(r * projector.dimension + c)] =
            FindSlot(pattern_, projector.first_dof + r, projector.first_dof + c);
    diagonal_blocks_.push_back(slots);
  }

  // State constraints: the entries in their held rows and columns, and the held diagonals.
  for (const StateConstraint& constraint : constraints_) {
    std::vector<bool> held(static_cast<std::size_t>(num_dofs_), false);
    for (const Index dof : constraint.held_dofs) held[static_cast<std::size_t>(dof)] = true;
    std::vector<Index> slots, diagonal;
    if (!constraint.held_dofs.empty()) {
      for (Index col = 0; col < num_dofs_; ++col)
        for (Index k = pattern_.outerIndexPtr()[col]; k < pattern_.outerIndexPtr()[col + 1]; ++k)
          if (held[static_cast<std::size_t>(pattern_.innerIndexPtr()[k])] ||
              held[static_cast<std::size_t>(col)])
            slots.push_back(k);
      for (const Index dof : constraint.held_dofs) diagonal.push_back(FindSlot(pattern_, dof, dof));
    }
    held_slots_.push_back(std::move(slots));
    held_diagonal_slots_.push_back(std::move(diagonal));
  }
  holding_.assign(constraints_.size(), 0);
  SetTime(0.0);
}

void AssembledSystem::SetTime(double time) {
  for (std::size_t c = 0; c < constraints_.size(); ++c)
    holding_[c] =
        !constraints_[c].held_dofs.empty() && constraints_[c].constraint->HoldsPoints(time) ? 1 : 0;
}

void AssembledSystem::ProjectState(double time, State& state) const {
  for (const StateConstraint& c : constraints_) {
    const auto count = static_cast<std::size_t>(c.num_dofs);
    c.constraint->ProjectPosition(time, std::span<double>(state.x.data() + c.first_dof, count));
    c.constraint->ProjectVelocity(time, std::span<double>(state.v.data() + c.first_dof, count));
  }
}

void AssembledSystem::ComputeForce(const State& state, Vector& f) const {
  // f = 0, then each field adds its force (in parallel inside the large ones), then SOFA's
  // externalForce. The zeroing is split over the threads that then add to the same entries.
  if (f.size() != num_dofs_) f.resize(num_dofs_);
  double* values = f.data();
  ParallelFor(num_dofs_, kVectorGrain,
              [values](Index begin, Index end) { std::fill(values + begin, values + end, 0.0); });
  for (const auto& field : force_fields_) field->AddForce(state, f);
  if (external_force_active_) f += external_force_;
}

void AssembledSystem::CheckPattern(const SparseMatrix& matrix, const char* what) const {
  if (matrix.rows() != num_dofs_ || matrix.cols() != num_dofs_ ||
      matrix.nonZeros() != pattern_.nonZeros() || !matrix.isCompressed())
    throw UsageError(
        std::string(what) +
        ": the matrix does not have the system's pattern (create it with CreateMatrix)");
}

void AssembledSystem::AssembleStiffness(const State& state, SparseMatrix& K) const {
  CheckPattern(K, "AssembleStiffness");
  std::fill(K.valuePtr(), K.valuePtr() + K.nonZeros(), 0.0);
  for (std::size_t i = 0; i < force_fields_.size(); ++i)
    force_fields_[i]->AddStiffness(state, stiffness_slots_.data() + stiffness_offsets_[i],
                                   K.valuePtr());
}

void AssembledSystem::AssembleDamping(const State& state, SparseMatrix& B) const {
  CheckPattern(B, "AssembleDamping");
  std::fill(B.valuePtr(), B.valuePtr() + B.nonZeros(), 0.0);
  for (std::size_t i = 0; i < force_fields_.size(); ++i)
    force_fields_[i]->AddDamping(state, damping_slots_.data() + damping_offsets_[i], B.valuePtr());
}

void AssembledSystem::ProjectResponse(Vector& vector) const {
  // Point projectors first (r ← P·r per point), then fixed DOFs, then held points.
  for (const PointProjector& projector : projectors_) {
    const int n = projector.dimension;
    double r[3];
    for (int a = 0; a < n; ++a) r[a] = vector[projector.first_dof + a];
    for (int a = 0; a < n; ++a) {
      double sum = 0.0;
      for (int b = 0; b < n; ++b)
        sum += projector.matrix[static_cast<std::size_t>(a * n + b)] * r[b];
      vector[projector.first_dof + a] = sum;
    }
  }
  for (const Index dof : fixed_dofs_) vector[dof] = 0.0;
  for (std::size_t c = 0; c < constraints_.size(); ++c)
    if (holding_[c] != 0)
      for (const Index dof : constraints_[c].held_dofs) vector[dof] = 0.0;
}

void AssembledSystem::ProjectMatrix(SparseMatrix& matrix) const {
  CheckPattern(matrix, "ProjectMatrix");
  double* values = matrix.valuePtr();
  if (!projectors_.empty()) {
    // A ← P·A·P + (I − P). The left product mixes the rows of each projected point in every
    // column, the right product its columns in every row; the pattern holds every entry they
    // write. The identity on the projected-out directions keeps A invertible, as the 1 on a fixed
    // DOF's diagonal does (for P = 0 this is exactly the fixed-point rule).
    const auto apply = [&](const SlotGroup& group, bool transpose) {
      const PointProjector& projector = projectors_[static_cast<std::size_t>(group.projector)];
      const int n = projector.dimension;
      double a[3];
      for (int k = 0; k < n; ++k) a[k] = values[group.slots[static_cast<std::size_t>(k)]];
      for (int i = 0; i < n; ++i) {
        double sum = 0.0;
        for (int k = 0; k < n; ++k)
          sum += (transpose ? projector.matrix[static_cast<std::size_t>(k * n + i)]
                            : projector.matrix[static_cast<std::size_t>(i * n + k)]) *
                 a[k];
        values[group.slots[static_cast<std::size_t>(i)]] = sum;
      }
    };
    for (const SlotGroup& group : row_groups_) apply(group, false);    // (P·A)(B, j)
    for (const SlotGroup& group : column_groups_) apply(group, true);  // (A·P)(i, B)
    for (std::size_t p = 0; p < projectors_.size(); ++p) {
      const PointProjector& projector = projectors_[p];
      const int n = projector.dimension;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          values[diagonal_blocks_[p][static_cast<std::size_t>(i * n + j)]] +=
              (i == j ? 1.0 : 0.0) - projector.matrix[static_cast<std::size_t>(i * n + j)];
    }
  }
  for (const Index slot : projected_slots_) values[slot] = 0.0;
  for (const Index slot : projected_diagonal_slots_) values[slot] = 1.0;
  for (std::size_t c = 0; c < constraints_.size(); ++c) {
    if (holding_[c] == 0) continue;
    for (const Index slot : held_slots_[c]) values[slot] = 0.0;
    for (const Index slot : held_diagonal_slots_[c]) values[slot] = 1.0;
  }
}

double AssembledSystem::KineticEnergy(const State& state) const {
  double energy = 0.0;
  const double* m = mass_matrix_.valuePtr();
  for (Index col = 0; col < num_dofs_; ++col)
    for (Index k = mass_matrix_.outerIndexPtr()[col]; k < mass_matrix_.outerIndexPtr()[col + 1];
         ++k)
      energy += 0.5 * state.v[mass_matrix_.innerIndexPtr()[k]] * m[k] * state.v[col];
  return energy;
}

double AssembledSystem::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (const auto& field : force_fields_) energy += field->PotentialEnergy(state);
  return energy;
}

}  // namespace fluxion::internal
