// SOFA's FixedProjectiveConstraint (legacy name FixedConstraint).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         FixedProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Fixes points: their DOFs are projected out of every force, acceleration and increment (SOFA's
/// projectResponse and applyConstraint); positions are never reset. `fixAll` fixes every point;
/// `activate_projectVelocity` also zeroes their initial velocity (otherwise a fixed point with a
/// velocity drifts, as in SOFA, with a warning).
class FixedProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
