// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         FastTriangularBendingSprings.inl (EdgeSpring::addForce, addDForce, getStiffness).
#include "mechanics/bending_stencils.h"

namespace fluxion::internal {

BendingStencils::BendingStencils(int dimension, std::vector<BendingStencil> stencils)
    : dimension_(dimension), stencils_(std::move(stencils)) {}

void BendingStencils::AddForce(const State& state, Vector& f) const {
  for (const BendingStencil& s : stencils_)
    for (int a = 0; a < dimension_; ++a) {
      double r = 0.0;
      for (std::size_t k = 0; k < 4; ++k) r += state.x[s.first[k] + a] * s.alpha[k];
      for (std::size_t k = 0; k < 4; ++k) f[s.first[k] + a] -= r * s.lambda * s.alpha[k];
    }
}

void BendingStencils::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  for (const BendingStencil& s : stencils_)
    for (std::size_t j = 0; j < 4; ++j)
      for (std::size_t k = 0; k < 4; ++k)
        for (int a = 0; a < dimension_; ++a) entries.push_back({s.first[j] + a, s.first[k] + a});
}

void BendingStencils::AddStiffness(const State&, const Index* slots, double* values) const {
  std::size_t entry = 0;
  for (const BendingStencil& s : stencils_)
    for (std::size_t j = 0; j < 4; ++j)
      for (std::size_t k = 0; k < 4; ++k)
        for (int a = 0; a < dimension_; ++a, ++entry)
          values[slots[entry]] += s.lambda * s.alpha[j] * s.alpha[k];
}

double BendingStencils::PotentialEnergy(const State& state) const {
  double energy = 0.0;
  for (const BendingStencil& s : stencils_)
    for (int a = 0; a < dimension_; ++a) {
      double r = 0.0;
      for (std::size_t k = 0; k < 4; ++k) r += state.x[s.first[k] + a] * s.alpha[k];
      energy += 0.5 * s.lambda * r * r;
    }
  return energy;
}

}  // namespace fluxion::internal
