#include "mechanics/mapped_force_field.h"

#include <algorithm>

namespace fluxion::internal {

MappedForceField::MappedForceField(MappingJacobian mapping,
                                   std::vector<std::unique_ptr<ForceField>> fields)
    : mapping_(std::move(mapping)), fields_(std::move(fields)) {
  stiffness_ = Expand(&ForceField::StiffnessEntries);
  if (mapping_.nonlinear() != nullptr) {
    std::vector<MatrixEntry> geometric;
    mapping_.nonlinear()->GeometricStiffnessEntries(geometric);
    geometric_entries_ = geometric.size();
    for (const MatrixEntry& e : geometric)
      stiffness_.entries.push_back(
          {e.row + mapping_.parent_offset(), e.col + mapping_.parent_offset()});
  }
  damping_ = Expand(&ForceField::DampingEntries);
  const std::size_t most = std::max(stiffness_.num_child_entries, damping_.num_child_entries);
  identity_slots_.resize(most);
  for (std::size_t k = 0; k < most; ++k) identity_slots_[k] = static_cast<Index>(k);
  child_values_.assign(most, 0.0);
  child_.x = Vector::Zero(mapping_.rows());
  child_.v = Vector::Zero(mapping_.rows());
  child_force_ = Vector::Zero(mapping_.rows());
}

MappedForceField::Expansion MappedForceField::Expand(EntryLister list) const {
  Expansion expansion;
  std::vector<MatrixEntry> child_entries;
  for (const auto& field : fields_) {
    expansion.offsets.push_back(child_entries.size());
    ((*field).*list)(child_entries);
  }
  expansion.num_child_entries = child_entries.size();
  const LinearMapping& j = mapping_.jacobian();
  for (std::size_t k = 0; k < child_entries.size(); ++k) {
    const auto [r, c] = child_entries[k];
    for (Index a = j.row_start(r); a < j.row_start(r + 1); ++a) {
      for (Index b = j.row_start(c); b < j.row_start(c + 1); ++b) {
        expansion.entries.push_back({j.col(a), j.col(b)});
        expansion.child_entry.push_back(static_cast<Index>(k));
        expansion.row_entry.push_back(a);
        expansion.col_entry.push_back(b);
      }
    }
  }
  return expansion;
}

void MappedForceField::MapState(const State& state) const {
  child_.time = state.time;
  mapping_.Evaluate(state.x.data(), child_.x.data());
  mapping_.jacobian().Apply(state.v.data(), child_.v.data());
}

void MappedForceField::ChildForce(const State& state, Vector& child_force) const {
  MapState(state);
  child_force.setZero();
  for (const auto& field : fields_) field->AddForce(child_, child_force);
}

void MappedForceField::AddForce(const State& state, Vector& f) const {
  ChildForce(state, child_force_);
  mapping_.jacobian().AddTransposed(child_force_.data(), f.data());
}

void MappedForceField::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  entries.insert(entries.end(), stiffness_.entries.begin(), stiffness_.entries.end());
}

void MappedForceField::DampingEntries(std::vector<MatrixEntry>& entries) const {
  entries.insert(entries.end(), damping_.entries.begin(), damping_.entries.end());
}

void MappedForceField::AddMatrix(const Expansion& expansion, MatrixAdder add, const State& state,
                                 const Index* slots, double* values) const {
  const std::size_t expanded = expansion.child_entry.size();
  if (expanded == 0) return;
  MapState(state);
  // The child's values, each at its own position (identity slots), then spread over the parents.
  std::fill(child_values_.begin(), child_values_.end(), 0.0);
  for (std::size_t k = 0; k < fields_.size(); ++k)
    ((*fields_[k]).*add)(child_, identity_slots_.data() + expansion.offsets[k],
                         child_values_.data());
  const LinearMapping& j = mapping_.jacobian();
  for (std::size_t e = 0; e < expanded; ++e)
    values[slots[e]] += j.weight(expansion.row_entry[e]) * j.weight(expansion.col_entry[e]) *
                        child_values_[static_cast<std::size_t>(expansion.child_entry[e])];
}

void MappedForceField::AddStiffness(const State& state, const Index* slots, double* values) const {
  AddMatrix(stiffness_, &ForceField::AddStiffness, state, slots, values);
  if (geometric_entries_ == 0) return;
  // K_g at the child forces of this state (SOFA: the child's force vector of the step).
  ChildForce(state, child_force_);
  mapping_.nonlinear()->AddGeometricStiffness(state.x.data() + mapping_.parent_offset(),
                                              child_force_.data(),
                                              slots + stiffness_.child_entry.size(), values);
}

void MappedForceField::AddDamping(const State& state, const Index* slots, double* values) const {
  AddMatrix(damping_, &ForceField::AddDamping, state, slots, values);
}

double MappedForceField::PotentialEnergy(const State& state) const {
  MapState(state);
  double energy = 0.0;
  for (const auto& field : fields_) energy += field->PotentialEnergy(child_);
  return energy;
}

}  // namespace fluxion::internal
