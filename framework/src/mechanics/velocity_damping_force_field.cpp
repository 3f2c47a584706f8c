#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

UniformVelocityDamping::UniformVelocityDamping(std::vector<Index> dofs, double coefficient,
                                               bool implicit)
    : dofs_(std::move(dofs)), coefficient_(coefficient), implicit_(implicit) {}

void UniformVelocityDamping::AddForce(const State& state, Vector& f) const {
  for (const Index dof : dofs_) f[dof] -= coefficient_ * state.v[dof];
}

void UniformVelocityDamping::DampingEntries(std::vector<MatrixEntry>& entries) const {
  if (!implicit_) return;
  for (const Index dof : dofs_) entries.push_back({dof, dof});
}

void UniformVelocityDamping::AddDamping(const State& /*state*/, const Index* slots,
                                        double* values) const {
  if (!implicit_) return;
  for (std::size_t k = 0; k < dofs_.size(); ++k) values[slots[k]] += coefficient_;
}

}  // namespace fluxion::internal
