#include "mechanics/rest_shape_springs.h"

namespace fluxion::internal {

RestShapeSprings::RestShapeSprings(std::vector<Index> dofs, std::vector<double> rest,
                                   std::vector<double> stiffness)
    : dofs_(std::move(dofs)), rest_(std::move(rest)), stiffness_(std::move(stiffness)) {}

void RestShapeSprings::AddForce(const State& state, Vector& f) const {
  for (std::size_t k = 0; k < dofs_.size(); ++k)
    f[dofs_[k]] -= (state.x[dofs_[k]] - rest_[k]) * stiffness_[k];
}

void RestShapeSprings::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  for (const Index dof : dofs_) entries.push_back({dof, dof});
}

void RestShapeSprings::AddStiffness(const State& /*state*/, const Index* slots,
                                    double* values) const {
  for (std::size_t k = 0; k < dofs_.size(); ++k) values[slots[k]] += stiffness_[k];
}

double RestShapeSprings::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (std::size_t k = 0; k < dofs_.size(); ++k) {
    const double dx = state.x[dofs_[k]] - rest_[k];
    energy += 0.5 * stiffness_[k] * dx * dx;
  }
  return energy;
}

}  // namespace fluxion::internal
