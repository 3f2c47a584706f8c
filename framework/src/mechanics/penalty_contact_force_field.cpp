#include "mechanics/penalty_contact_force_field.h"

#include "fluxion/errors.h"

namespace fluxion::internal {

void PenaltyContactForceField::ClearContacts() {
  stiffness_.clear();
  offset_.clear();
  first_term_.resize(1);
  dofs_.clear();
  coefficients_.clear();
  active_stiffness_.clear();
  explicit_dofs_.clear();
  explicit_values_.clear();
}

void PenaltyContactForceField::AddExplicitForce(Index dof, double value) {
  explicit_dofs_.push_back(dof);
  explicit_values_.push_back(value);
}

void PenaltyContactForceField::AddContact(double stiffness, double offset) {
  stiffness_.push_back(stiffness);
  offset_.push_back(offset);
  first_term_.push_back(dofs_.size());
  active_stiffness_.push_back(0.0);  // no stiffness until linearised
}

void PenaltyContactForceField::AddTerm(Index dof, double coefficient) {
  FLUXION_DEMAND(!stiffness_.empty());
  dofs_.push_back(dof);
  coefficients_.push_back(coefficient);
  ++first_term_.back();
}

void PenaltyContactForceField::AdjustOffset(double delta) {
  FLUXION_DEMAND(!offset_.empty());
  offset_.back() += delta;
}

double PenaltyContactForceField::Penetration(Index contact, const State& state) const {
  const auto c = static_cast<std::size_t>(contact);
  double projected = 0.0;  // gᵀx
  for (std::size_t t = first_term_[c]; t < first_term_[c + 1]; ++t)
    projected += coefficients_[t] * state.x[dofs_[t]];
  return offset_[c] - projected;
}

void PenaltyContactForceField::AddForce(const State& state, Vector& f) const {
  for (std::size_t k = 0; k < explicit_dofs_.size(); ++k)
    f[explicit_dofs_[k]] += explicit_values_[k];
  // f += ks·pen·g for each contact in penetration.
  for (std::size_t c = 0; c < stiffness_.size(); ++c) {
    const double pen = Penetration(static_cast<Index>(c), state);
    if (pen <= 0.0) continue;
    const double magnitude = stiffness_[c] * pen;
    for (std::size_t t = first_term_[c]; t < first_term_[c + 1]; ++t)
      f[dofs_[t]] += magnitude * coefficients_[t];
  }
}

void PenaltyContactForceField::LinearizeStiffness(const State& state, double* /*tangent*/) const {
  for (std::size_t c = 0; c < stiffness_.size(); ++c)
    active_stiffness_[c] = Penetration(static_cast<Index>(c), state) > 0.0 ? stiffness_[c] : 0.0;
}

void PenaltyContactForceField::AddTangentProduct(const double* /*tangent*/, double /*b*/, double k,
                                                 const Vector& x, Vector& y) const {
  // y += k·ks·g·(gᵀx) for each contact active at the linearisation (no damping term).
  if (k == 0.0) return;
  for (std::size_t c = 0; c < stiffness_.size(); ++c) {
    if (active_stiffness_[c] == 0.0) continue;
    double projected = 0.0;
    for (std::size_t t = first_term_[c]; t < first_term_[c + 1]; ++t)
      projected += coefficients_[t] * x[dofs_[t]];
    const double scale = k * active_stiffness_[c] * projected;
    for (std::size_t t = first_term_[c]; t < first_term_[c + 1]; ++t)
      y[dofs_[t]] += scale * coefficients_[t];
  }
}

double PenaltyContactForceField::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (std::size_t c = 0; c < stiffness_.size(); ++c) {
    const double pen = Penetration(static_cast<Index>(c), state);
    if (pen > 0.0) energy += 0.5 * stiffness_[c] * pen * pen;
  }
  return energy;
}

}  // namespace fluxion::internal
