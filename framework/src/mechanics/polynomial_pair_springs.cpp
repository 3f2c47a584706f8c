// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         PolynomialSpringsForceField.inl (addForce, ComputeJacobian, addDForce,
//         PolynomialValue, PolynomialDerivativeValue).
#include "mechanics/polynomial_pair_springs.h"

#include <cmath>

#include "mechanics/spring_polynomial.h"

namespace fluxion::internal {

namespace {

// L = ‖x_b − x_a‖ and u = (x_b − x_a)/L (up to 3 axes); false for a zero length.
bool PairDirection(const State& state, const PolynomialPairSpring& spring, int dimension, double& L,
                   double* u) {
  double norm2 = 0.0;
  for (int a = 0; a < dimension; ++a) {
    u[a] = state.x[spring.b + a] - state.x[spring.a + a];
    norm2 += u[a] * u[a];
  }
  L = std::sqrt(norm2);
  if (L == 0.0) return false;
  for (int a = 0; a < dimension; ++a) u[a] /= L;
  return true;
}

}  // namespace

PolynomialPairSprings::PolynomialPairSprings(int dimension,
                                             std::vector<PolynomialPairSpring> springs,
                                             bool compressible)
    : dimension_(dimension), springs_(std::move(springs)), compressible_(compressible) {}

void PolynomialPairSprings::AddForce(const State& state, Vector& f) const {
  for (const PolynomialPairSpring& spring : springs_) {
    double L = 0.0, u[3];
    if (!PairDirection(state, spring, dimension_, L, u)) continue;
    const double s = std::fabs(L - spring.rest_length) / spring.rest_length;
    const double sign = L - spring.rest_length >= 0 ? 1.0 : (compressible_ ? -1.0 : 0.0);
    const double force = SpringPolynomial(spring.coefficients, s);
    for (int a = 0; a < dimension_; ++a) {
      f[spring.a + a] += force * sign * u[a];
      f[spring.b + a] -= force * sign * u[a];
    }
  }
}

void PolynomialPairSprings::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  for (const PolynomialPairSpring& spring : springs_)
    for (const Index row : {spring.a, spring.b})
      for (const Index col : {spring.a, spring.b})
        for (int r = 0; r < dimension_; ++r)
          for (int c = 0; c < dimension_; ++c) entries.push_back({row + r, col + c});
}

void PolynomialPairSprings::AddStiffness(const State& state, const Index* slots,
                                         double* values) const {
  std::size_t k = 0;
  const std::size_t block = static_cast<std::size_t>(dimension_ * dimension_);
  for (const PolynomialPairSpring& spring : springs_) {
    double L = 0.0, u[3];
    if (!PairDirection(state, spring, dimension_, L, u)) {
      k += 4 * block;
      continue;
    }
    const double s = std::fabs(L - spring.rest_length) / spring.rest_length;
    const double force = SpringPolynomial(spring.coefficients, s) / L;
    const double derivative =
        SpringPolynomialDerivative(spring.coefficients, s) / spring.rest_length;
    // Blocks (a, a), (a, b), (b, a), (b, b): J, −J, −J, J.
    for (const double sign : {1.0, -1.0, -1.0, 1.0})
      for (int r = 0; r < dimension_; ++r)
        for (int c = 0; c < dimension_; ++c, ++k)
          values[slots[k]] += sign * ((derivative - force) * u[r] * u[c] + (r == c ? force : 0.0));
  }
}

}  // namespace fluxion::internal
