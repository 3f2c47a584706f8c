// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         PolynomialRestShapeSpringsForceField.inl (addForce, ComputeJacobian, PolynomialValue,
//         PolynomialDerivativeValue, addKToMatrix).
#include "mechanics/polynomial_springs.h"

#include <cmath>

#include "mechanics/spring_polynomial.h"

namespace fluxion::internal {

PolynomialRestShapeSprings::PolynomialRestShapeSprings(int dimension,
                                                       std::vector<PolynomialSpring> springs,
                                                       double smooth_shift, double smooth_scale,
                                                       bool exact_stiffness)
    : dimension_(dimension),
      springs_(std::move(springs)),
      smooth_shift_(smooth_shift),
      smooth_scale_(smooth_scale),
      exact_stiffness_(exact_stiffness) {}

void PolynomialRestShapeSprings::AddForce(const State& state, Vector& f) const {
  for (const PolynomialSpring& spring : springs_) {
    double delta[3], length2 = 0.0;
    for (int a = 0; a < dimension_; ++a) {
      delta[a] = state.x[spring.first + a] - spring.rest[static_cast<std::size_t>(a)];
      length2 += delta[a] * delta[a];
    }
    const double strain = std::sqrt(length2) / spring.initial_length;
    const double force = SpringPolynomial(spring.coefficients, strain);
    const double smoothed = std::sqrt(length2 + std::exp(smooth_shift_ - smooth_scale_ * length2));
    for (int a = 0; a < dimension_; ++a) f[spring.first + a] -= force * delta[a] / smoothed;
  }
}

void PolynomialRestShapeSprings::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  for (const PolynomialSpring& spring : springs_)
    for (int r = 0; r < dimension_; ++r)
      for (int c = 0; c < dimension_; ++c) {
        if (!exact_stiffness_ && r != c) continue;  // SOFA's tangent is diagonal
        entries.push_back({spring.first + r, spring.first + c});
      }
}

void PolynomialRestShapeSprings::AddStiffness(const State& state, const Index* slots,
                                              double* values) const {
  std::size_t k = 0;
  for (const PolynomialSpring& spring : springs_) {
    double delta[3], length2 = 0.0;
    for (int a = 0; a < dimension_; ++a) {
      delta[a] = state.x[spring.first + a] - spring.rest[static_cast<std::size_t>(a)];
      length2 += delta[a] * delta[a];
    }
    const double length = std::sqrt(length2);
    const double strain = length / spring.initial_length;
    const double exponential = std::exp(smooth_shift_ - smooth_scale_ * length2);
    const double smoothed = std::sqrt(length2 + exponential);
    const double force_over_d = SpringPolynomial(spring.coefficients, strain) / smoothed;
    const double slope =
        SpringPolynomialDerivative(spring.coefficients, strain) / spring.initial_length;
    const double e = 1.0 - smooth_scale_ * exponential;  // ½·∂(D²)/∂(L²)
    for (int r = 0; r < dimension_; ++r)
      for (int c = 0; c < dimension_; ++c) {
        if (exact_stiffness_) {
          double value = (r == c ? force_over_d : 0.0) -
                         force_over_d * e * delta[r] * delta[c] / (smoothed * smoothed);
          // P′/L₀·Δ·Δᵀ/(L·D) vanishes with L (it is O(L)).
          if (length > 0) value += slope * delta[r] * delta[c] / (length * smoothed);
          values[slots[k++]] += value;
        } else if (r == c) {
          const double w = delta[r] / smoothed;
          values[slots[k++]] += (slope - force_over_d) * e * w * w + force_over_d;
        }
      }
  }
}

}  // namespace fluxion::internal
