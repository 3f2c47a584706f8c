// SOFA's PolynomialRestShapeSpringsForceField.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         PolynomialRestShapeSpringsForceField.{h,inl} (bwdInit, recomputeIndices, addForce)
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Springs pulling `points` (default: all) to their rest positions with a polynomial law
/// P(s) = Σ c_k·s^k of the strain s = ‖x − x_rest‖/initialLength; formulas, SOFA's diagonal
/// tangent and the exact one (Fluxion's `exactStiffness`) in mechanics/polynomial_springs.h.
/// As SOFA: `polynomialStiffness` holds the coefficients c₁, c₂, … of every polynomial one after
/// the other (default 100), `polynomialDegree` their degrees (default 1); when there is not one
/// degree per point every point uses the first polynomial; `initialLength` is one value per
/// point or one for all (default 1). Differences from SOFA: an external rest shape is refused
/// (the object's own rest positions are used), too few coefficients for the degrees or a zero
/// initial length are errors, and any template is accepted (SOFA: Vec3 only).
class PolynomialRestShapeSpringsForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
