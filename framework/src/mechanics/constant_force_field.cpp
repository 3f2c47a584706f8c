#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

ConstantForce::ConstantForce(std::vector<Index> dofs, std::vector<double> values)
    : dofs_(std::move(dofs)), values_(std::move(values)) {}

void ConstantForce::AddForce(const State& /*state*/, Vector& f) const {
  for (std::size_t k = 0; k < dofs_.size(); ++k) f[dofs_[k]] += values_[k];
}

double ConstantForce::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (std::size_t k = 0; k < dofs_.size(); ++k) energy -= values_[k] * state.x[dofs_[k]];
  return energy;
}

}  // namespace fluxion::internal
