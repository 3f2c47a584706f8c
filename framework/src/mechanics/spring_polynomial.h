// The polynomial of SOFA's polynomial springs (PolynomialSpringsForceField,
// PolynomialRestShapeSpringsForceField: PolynomialValue, PolynomialDerivativeValue), shared by
// mechanics/polynomial_springs.cpp and mechanics/polynomial_pair_springs.cpp.
#pragma once

#include <cstddef>
#include <vector>

namespace fluxion::internal {

/// P(s) = Σ c_k·s^k, k from 1 (c[0] multiplies s), summed in SOFA's order.
inline double SpringPolynomial(const std::vector<double>& c, double s) {
  double power = 1.0, value = 0.0;
  for (const double coefficient : c) {
    power *= s;
    value += coefficient * power;
  }
  return value;
}

/// P′(s) = Σ k·c_k·s^(k−1), summed in SOFA's order.
inline double SpringPolynomialDerivative(const std::vector<double>& c, double s) {
  double power = 1.0, value = 0.0;
  for (std::size_t k = 0; k < c.size(); ++k) {
    value += static_cast<double>(k + 1) * c[k] * power;
    power *= s;
  }
  return value;
}

}  // namespace fluxion::internal
