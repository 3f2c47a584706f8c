// SOFA's PolynomialSpringsForceField.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         PolynomialSpringsForceField.{h,inl} (bwdInit, recomputeIndices, addForce).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Springs from point firstObjectPoints[i] of `object1` to point secondObjectPoints[i] of
/// `object2` (every point of an object when its list is empty), with the polynomial force law of
/// mechanics/polynomial_pair_springs.h. Spring i has the polynomial of degree
/// polynomialDegree[i] whose coefficients come next in `polynomialStiffness` (defaults: degree 1,
/// coefficient 100); when polynomialDegree does not give one degree per spring, every spring has
/// the first polynomial (SOFA warns at every step; Fluxion once). Rest lengths: the initial
/// distances (computeZeroLength=1, SOFA takes them at its first force evaluation, which is at the
/// initial positions), else `zeroLength` (one value for all, or one per spring; a shorter list is
/// extended with its last value, where SOFA reads past it).
/// Differences from SOFA: more first points than second points, too few coefficients for the
/// degrees (SOFA reads past its list), a rest length that is not positive (SOFA divides by it) and
/// recompute_indices=1 are errors; the two objects must share a solver.
class PolynomialSpringsForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
