#include "mechanics/assembled_system.h"

#include <algorithm>

#include "fluxion/errors.h"
#include "fluxion/threads.h"
#include "mechanics/field_tangent.h"
#include "mechanics/point_list_follower.h"
#include "mechanics/simple_force_fields.h"
#include "mechanics/spring_force_field.h"

namespace fluxion::internal {

AssembledSystem::AssembledSystem(SystemParts parts)
    : num_dofs_(parts.num_dofs),
      inverse_mass_(Vector::Zero(parts.num_dofs)),
      mass_diagonal_(std::move(parts.mass)),
      mass_couplings_(std::move(parts.mass_couplings)),
      external_force_(std::move(parts.external_force)),
      force_fields_(std::move(parts.force_fields)),
      projectors_(std::move(parts.projectors)),
      constraints_(std::move(parts.constraints)) {
  FLUXION_DEMAND(mass_diagonal_.size() == num_dofs_);
  FLUXION_DEMAND(static_cast<Index>(parts.fixed.size()) == num_dofs_);
  for (Index i = 0; i < num_dofs_; ++i) {
    if (parts.fixed[static_cast<std::size_t>(i)])
      fixed_dofs_.push_back(i);
    else if (mass_diagonal_[i] > 0.0)
      inverse_mass_[i] = 1.0 / mass_diagonal_[i];
  }
  // A zero external force (the usual case) is not kept: it would be a vector of the system's
  // size read by nothing.
  external_force_active_ = external_force_.size() == num_dofs_ && !external_force_.isZero(0.0);
  if (!external_force_active_) external_force_ = Vector();
  if (!force_fields_.empty())
    leading_constant_force_ = dynamic_cast<const ConstantForce*>(force_fields_.front().get());

  // Whether some field has a damping matrix, asked field by field (the lists are dropped).
  std::vector<MatrixEntry> damping_entries;
  for (const auto& field : force_fields_) {
    field->DampingEntries(damping_entries);
    if (!damping_entries.empty()) {
      has_damping_matrix_ = true;
      break;
    }
  }
  // Told from M itself, so that it stays true when masses with off-diagonal terms arrive: only
  // a consistent mass can make it false, and such a system is solved with matrices anyway.
  if (!mass_couplings_.empty()) {
    const SparseMatrix& mass = Layout().mass;
    for (Index col = 0; col < num_dofs_ && mass_is_diagonal_; ++col)
      for (Index k = mass.outerIndexPtr()[col]; k < mass.outerIndexPtr()[col + 1]; ++k)
        if (mass.innerIndexPtr()[k] != col && mass.valuePtr()[k] != 0.0) mass_is_diagonal_ = false;
  }
  holding_.assign(constraints_.size(), 0);
  SetTime(0.0);

  // Every DOF ProjectResponse can change, whichever constraints hold at the time.
  projected_dofs_ = fixed_dofs_;
  for (const PointProjector& projector : projectors_)
    for (int a = 0; a < projector.dimension; ++a)
      projected_dofs_.push_back(projector.first_dof + a);
  for (const StateConstraint& c : constraints_)
    projected_dofs_.insert(projected_dofs_.end(), c.held_dofs.begin(), c.held_dofs.end());
  std::sort(projected_dofs_.begin(), projected_dofs_.end());
  projected_dofs_.erase(std::unique(projected_dofs_.begin(), projected_dofs_.end()),
                        projected_dofs_.end());
}

void AssembledSystem::SetDiagonalMass(Index first_dof, const Vector& mass) {
  FLUXION_DEMAND(first_dof >= 0 && first_dof + mass.size() <= num_dofs_);
  for (Index k = 0; k < mass.size(); ++k) {
    const Index i = first_dof + k;
    mass_diagonal_[i] = mass[k];
    const bool fixed = std::binary_search(fixed_dofs_.begin(), fixed_dofs_.end(), i);
    inverse_mass_[i] = !fixed && mass[k] > 0.0 ? 1.0 / mass[k] : 0.0;
  }
  if (layout_ == nullptr) return;  // built later from mass_diagonal_
  // The diagonal is in the pattern, and couplings are off it: coeffRef finds, never inserts.
  for (Index k = 0; k < mass.size(); ++k)
    layout_->mass.coeffRef(first_dof + k, first_dof + k) = mass[k];
}

const MatrixLayout& AssembledSystem::Layout() const {
  std::call_once(layout_once_, [this] {
    layout_ = BuildMatrixLayout({.num_dofs = num_dofs_,
                                 .mass_diagonal = &mass_diagonal_,
                                 .mass_couplings = &mass_couplings_,
                                 .force_fields = &force_fields_,
                                 .fixed_dofs = &fixed_dofs_,
                                 .projectors = &projectors_,
                                 .constraints = &constraints_});
  });
  return *layout_;
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

namespace {
// values[0, n) = 0, split over the threads that then add to the same entries.
void ClearValues(double* values, Index n) {
  ParallelFor(n, kVectorGrain,
              [values](Index begin, Index end) { std::fill(values + begin, values + end, 0.0); });
}
}  // namespace

void AssembledSystem::ComputeForce(const State& state, Vector& f) const {
  // f = 0, then each field adds its force (in parallel inside the large ones), then SOFA's
  // externalForce.
  if (f.size() != num_dofs_) f.resize(num_dofs_);
  // Gravity first (UniformMass before the springs, as SOFA's scenes declare them): f = 0 and
  // m·g in one pass.
  std::size_t next = 0;
  if (leading_constant_force_ != nullptr && leading_constant_force_->SetForce(f))
    next = 1;
  else
    ClearValues(f.data(), num_dofs_);
  for (; next < force_fields_.size(); ++next) force_fields_[next]->AddForce(state, f);
  if (external_force_active_) f += external_force_;
}

void AssembledSystem::CheckPattern(const SparseMatrix& matrix, const char* what) const {
  if (matrix.rows() != num_dofs_ || matrix.cols() != num_dofs_ ||
      matrix.nonZeros() != Layout().pattern.nonZeros() || !matrix.isCompressed())
    throw UsageError(
        std::string(what) +
        ": the matrix does not have the system's pattern (create it with CreateMatrix)");
}

void AssembledSystem::AssembleStiffness(const State& state, SparseMatrix& K) const {
  CheckPattern(K, "AssembleStiffness");
  const MatrixLayout& layout = Layout();
  ClearValues(K.valuePtr(), K.nonZeros());
  for (std::size_t i = 0; i < force_fields_.size(); ++i)
    force_fields_[i]->AddStiffness(
        state, layout.stiffness_slots.data() + layout.stiffness_offsets[i], K.valuePtr());
}

void AssembledSystem::AssembleDamping(const State& state, SparseMatrix& B) const {
  CheckPattern(B, "AssembleDamping");
  const MatrixLayout& layout = Layout();
  ClearValues(B.valuePtr(), B.nonZeros());
  for (std::size_t i = 0; i < force_fields_.size(); ++i)
    force_fields_[i]->AddDamping(state, layout.damping_slots.data() + layout.damping_offsets[i],
                                 B.valuePtr());
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
  const MatrixLayout& layout = Layout();
  double* values = matrix.valuePtr();
  if (!projectors_.empty()) {
    // A ← P·A·P + (I − P). The left product mixes the rows of each projected point in every
    // column, the right product its columns in every row; the pattern holds every entry they
    // write. The identity on the projected-out directions keeps A invertible, as the 1 on a fixed
    // DOF's diagonal does (for P = 0 this is exactly the fixed-point rule).
    const auto apply = [&](const MatrixLayout::SlotGroup& group, bool transpose) {
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
    for (const MatrixLayout::SlotGroup& group : layout.row_groups)
      apply(group, false);  // (P·A)(B, j)
    for (const MatrixLayout::SlotGroup& group : layout.column_groups)
      apply(group, true);  // (A·P)(i, B)
    for (std::size_t p = 0; p < projectors_.size(); ++p) {
      const PointProjector& projector = projectors_[p];
      const int n = projector.dimension;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          values[layout.diagonal_blocks[p][static_cast<std::size_t>(i * n + j)]] +=
              (i == j ? 1.0 : 0.0) - projector.matrix[static_cast<std::size_t>(i * n + j)];
    }
  }
  for (const Index slot : layout.projected_slots) values[slot] = 0.0;
  for (const Index slot : layout.projected_diagonal_slots) values[slot] = 1.0;
  for (std::size_t c = 0; c < constraints_.size(); ++c) {
    if (holding_[c] == 0) continue;
    for (const Index slot : layout.held_slots[c]) values[slot] = 0.0;
    for (const Index slot : layout.held_diagonal_slots[c]) values[slot] = 1.0;
  }
}

int AssembledSystem::FieldIndex(const ForceField* field) const {
  for (std::size_t i = 0; i < force_fields_.size(); ++i)
    if (force_fields_[i].get() == field) return static_cast<int>(i);
  return -1;
}

void AssembledSystem::RemoveSprings(std::size_t field_index,
                                    std::span<const Index> sorted_descending) {
  auto& springs = dynamic_cast<SpringForceField&>(*force_fields_[field_index]);
  if (layout_ != nullptr) {
    // Each spring's entries are 4·d² consecutive slots (SpringForceField::Entries): the last
    // spring's move into the removed spring's place; the slots past the end are no longer read.
    const auto per_spring = static_cast<std::size_t>(4 * springs.dimension() * springs.dimension());
    const auto move = [&](std::vector<Index>& slots, std::size_t offset) {
      std::size_t count = springs.springs().size();
      for (const Index removed : sorted_descending) {
        --count;
        std::copy_n(slots.begin() + static_cast<std::ptrdiff_t>(offset + count * per_spring),
                    per_spring,
                    slots.begin() + static_cast<std::ptrdiff_t>(
                                        offset + static_cast<std::size_t>(removed) * per_spring));
      }
    };
    move(layout_->stiffness_slots, layout_->stiffness_offsets[field_index]);
    if (springs.exact_damping_jacobian())
      move(layout_->damping_slots, layout_->damping_offsets[field_index]);
  }
  springs.RemoveSpringsMovingLast(sorted_descending);
}

void AssembledSystem::SetDiagonalMass(Index first_dof, int count, double mass) {
  for (Index dof = first_dof; dof < first_dof + count; ++dof) {
    mass_diagonal_[dof] = mass;
    const bool fixed = std::binary_search(fixed_dofs_.begin(), fixed_dofs_.end(), dof);
    inverse_mass_[dof] = !fixed && mass > 0.0 ? 1.0 / mass : 0.0;
    if (layout_ == nullptr) continue;
    SparseMatrix& m = layout_->mass;
    const int* rows = m.innerIndexPtr();
    const int* end = rows + m.outerIndexPtr()[dof + 1];
    const int* found = std::lower_bound(rows + m.outerIndexPtr()[dof], end, static_cast<int>(dof));
    if (found != end && *found == dof) m.valuePtr()[found - rows] = mass;
  }
}

const char* AssembledSystem::PointRemovalRefusal() const {
  if (layout_ != nullptr) return "the system's matrix pattern is built (a direct linear solver)";
  for (const StateConstraint& c : constraints_)
    if (dynamic_cast<const PointListFollower*>(c.constraint.get()) == nullptr)
      return "a constraint that sets positions or velocities of the system does not follow it";
  if (!mass_couplings_.empty()) return "the system's mass is not diagonal";
  if (external_force_active_) return "an externalForce is still to be applied";
  return nullptr;
}

void AssembledSystem::RemovePointMovingLast(Index slot_dof, int dimension) {
  FLUXION_DEMAND(PointRemovalRefusal() == nullptr && dimension > 0 && slot_dof >= 0 &&
                 slot_dof + dimension <= num_dofs_);
  const Index last = num_dofs_ - dimension;
  if (slot_dof != last) {
    mass_diagonal_.segment(slot_dof, dimension) = mass_diagonal_.segment(last, dimension);
    inverse_mass_.segment(slot_dof, dimension) = inverse_mass_.segment(last, dimension);
  }
  mass_diagonal_.conservativeResize(last);
  inverse_mass_.conservativeResize(last);
  // The sorted DOF lists: the slot's DOFs go, the last point's take their numbers.
  const auto follow = [&](std::vector<Index>& dofs) {
    std::erase_if(dofs, [&](Index dof) { return dof >= slot_dof && dof < slot_dof + dimension; });
    bool renamed = false;
    for (Index& dof : dofs)
      if (dof >= last) {
        dof = slot_dof + (dof - last);
        renamed = true;
      }
    if (renamed) std::sort(dofs.begin(), dofs.end());
  };
  follow(fixed_dofs_);
  follow(projected_dofs_);
  // The state constraints of the object the point is removed from (the system's last: its
  // constraints end where the system does) drop the point and rename the last one.
  for (StateConstraint& c : constraints_) {
    if (slot_dof < c.first_dof || slot_dof >= c.first_dof + c.num_dofs) continue;
    FLUXION_DEMAND(c.first_dof + c.num_dofs == num_dofs_);
    dynamic_cast<PointListFollower&>(*c.constraint)
        .RemovePointMovingLast((slot_dof - c.first_dof) / dimension,
                               (last - c.first_dof) / dimension);
    follow(c.held_dofs);
    c.num_dofs -= dimension;
  }
  // The point projectors (one per point at most, each acting on its point alone: their order
  // changes no bit while no matrix layout is built).
  std::erase_if(projectors_,
                [&](const PointProjector& projector) { return projector.first_dof == slot_dof; });
  for (PointProjector& projector : projectors_)
    if (projector.first_dof == last) projector.first_dof = slot_dof;
  num_dofs_ = last;
}

std::unique_ptr<TangentOperator> AssembledSystem::CreateTangentOperator(
    TangentEvaluation evaluation) const {
  return std::make_unique<FieldTangent>(mass_diagonal_, mass_couplings_, force_fields_, evaluation);
}

double AssembledSystem::KineticEnergy(const State& state) const {
  // ½·vᵀ·M·v column by column, each column's entries in row order. A diagonal M needs no matrix:
  // its other entries in the pattern are zeros, which add nothing to the sum.
  double energy = 0.0;
  if (mass_couplings_.empty()) {
    for (Index i = 0; i < num_dofs_; ++i)
      energy += 0.5 * state.v[i] * mass_diagonal_[i] * state.v[i];
    return energy;
  }
  const SparseMatrix& mass = Layout().mass;
  const double* m = mass.valuePtr();
  for (Index col = 0; col < num_dofs_; ++col)
    for (Index k = mass.outerIndexPtr()[col]; k < mass.outerIndexPtr()[col + 1]; ++k)
      energy += 0.5 * state.v[mass.innerIndexPtr()[k]] * m[k] * state.v[col];
  return energy;
}

double AssembledSystem::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (const auto& field : force_fields_) energy += field->PotentialEnergy(state);
  return energy;
}

}  // namespace fluxion::internal
