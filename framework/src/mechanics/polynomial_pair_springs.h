// Springs between pairs of points with a polynomial force law, as SOFA's
// PolynomialSpringsForceField computes them.
#pragma once

#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

/// One spring: point a (of object1) and point b (of object2), P(s) = Σ_k c_k·s^k (k = 1 … n).
struct PolynomialPairSpring {
  Index a = 0, b = 0;                ///< system DOF of each point's first axis
  std::vector<double> coefficients;  ///< c₁ … c_n [N]
  double rest_length = 1.0;          ///< L₀ > 0 [m]
};

/// SOFA's PolynomialSpringsForceField (Vec3). With d = x_b − x_a, L = ‖d‖, u = d/L and the strain
/// s = |L − L₀|/L₀:
///   f_a = σ·P(s)·u,  f_b = −f_a,  σ = 1 when L ≥ L₀, else −1 if `compressible`, else 0
/// (SOFA's flags as written: by default a compressed spring pushes nothing). SOFA's tangent (its
/// addDForce), with J = (P′(s)/L₀ − P(s)/L)·u·uᵀ + P(s)/L·I:
///   K = −∂f/∂x = [J, −J; −J, J] on (a, b),
/// the exact Jacobian in tension; in compression SOFA keeps it (whatever σ), and so does Fluxion.
/// A spring of zero length exerts nothing. SOFA defines no energy: 0, as SOFA.
class PolynomialPairSprings final : public ForceField {
 public:
  PolynomialPairSprings(int dimension, std::vector<PolynomialPairSpring> springs,
                        bool compressible);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;

 private:
  int dimension_;
  std::vector<PolynomialPairSpring> springs_;
  bool compressible_;
};

}  // namespace fluxion::internal
