#include "mechanics/assembled_system.h"

#include <algorithm>

#include "fluxion/errors.h"

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
      force_fields_(std::move(parts.force_fields)) {
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
}

void AssembledSystem::ComputeForce(const State& state, Vector& f) const {
  f.setZero(num_dofs_);
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
  for (const Index dof : fixed_dofs_) vector[dof] = 0.0;
}

void AssembledSystem::ProjectMatrix(SparseMatrix& matrix) const {
  CheckPattern(matrix, "ProjectMatrix");
  double* values = matrix.valuePtr();
  for (const Index slot : projected_slots_) values[slot] = 0.0;
  for (const Index slot : projected_diagonal_slots_) values[slot] = 1.0;
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
