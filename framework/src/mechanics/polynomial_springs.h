// Springs to rest positions with a polynomial force law, as SOFA's
// PolynomialRestShapeSpringsForceField computes them.
#pragma once

#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

/// One point pulled towards its rest position by a polynomial spring.
struct PolynomialSpring {
  Index first = 0;                   ///< system DOF of the point's first axis
  std::vector<double> rest;          ///< its rest position (one value per axis) [m]
  std::vector<double> coefficients;  ///< c₁ … c_n of P(s) = Σ c_k·s^k [N]
  double initial_length = 1.0;       ///< L₀: the strain is s = ‖Δ‖/L₀ [m]
};

/// SOFA's PolynomialRestShapeSpringsForceField (Vec3 in SOFA; any dimension here). For a point
/// with Δ = x − x_rest, L = ‖Δ‖, s = L/L₀ and the smoothed length
/// D = √(L² + exp(shift − scale·L²)):
///
///   f = −P(s)·Δ/D.
///
/// SOFA's tangent (the default) is diagonal: with w = Δ/D and e = 1 − scale·exp(shift − scale·L²),
///   K_aa = (P′(s)/L₀ − P(s)/D)·e·w_a² + P(s)/D.
/// The exact Jacobian (`exact_stiffness`, a Fluxion option) is the full block
///   K_ab = P′(s)/L₀·Δ_a·Δ_b/(L·D) + P(s)/D·δ_ab − P(s)·e·Δ_a·Δ_b/D³,
/// whose diagonal is SOFA's when D = L, e = 1 (no smoothing). The field is conservative but SOFA
/// defines no energy: Fluxion reports 0 too.
class PolynomialRestShapeSprings final : public ForceField {
 public:
  PolynomialRestShapeSprings(int dimension, std::vector<PolynomialSpring> springs,
                             double smooth_shift, double smooth_scale, bool exact_stiffness);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;

 private:
  int dimension_;
  std::vector<PolynomialSpring> springs_;
  double smooth_shift_, smooth_scale_;
  bool exact_stiffness_;
};

}  // namespace fluxion::internal
