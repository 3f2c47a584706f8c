// SOFA's PartialFixedProjectiveConstraint (Vec types).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         PartialFixedProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Fixes chosen axes of points: `fixedDirections` (1 fixed, 0 free; default all fixed) on
/// `indices` (default 0) or every point with `fixAll`. The fixed DOFs are projected out of every
/// increment, force and system matrix, as FixedProjectiveConstraint's whole points are; the free
/// axes move. Deviation: `projectVelocity` is refused (SOFA's option to hold a constant velocity).
class PartialFixedProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
