#include "mechanics/diagonal_velocity_damping.h"

namespace fluxion::internal {

DiagonalVelocityDamping::DiagonalVelocityDamping(std::vector<Index> dofs,
                                                 std::vector<double> coefficients)
    : dofs_(std::move(dofs)), coefficients_(std::move(coefficients)) {}

void DiagonalVelocityDamping::AddForce(const State& state, Vector& f) const {
  for (std::size_t k = 0; k < dofs_.size(); ++k)
    f[dofs_[k]] -= state.v[dofs_[k]] * coefficients_[k];
}

void DiagonalVelocityDamping::DampingEntries(std::vector<MatrixEntry>& entries) const {
  for (const Index dof : dofs_) entries.push_back({dof, dof});
}

void DiagonalVelocityDamping::AddDamping(const State& /*state*/, const Index* slots,
                                         double* values) const {
  for (std::size_t k = 0; k < dofs_.size(); ++k) values[slots[k]] += coefficients_[k];
}

}  // namespace fluxion::internal
