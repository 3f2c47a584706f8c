// SOFA's PointProjectiveConstraint (Vec types).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         PointProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Puts points on `point` and keeps them there (`indices`, default "0", or every point with
/// `fixAll`): their increments and forces are projected out as a fixed point's are (SOFA's
/// projectResponse and applyConstraint), their velocities set to zero and positions to `point`
/// (projectVelocity, projectPosition: at the start and after every step). SOFA's applyConstraint
/// for an assembled matrix ignores `fixAll`; Fluxion projects every fixed point's rows, as SOFA's
/// projectResponse (and so its matrix-free CG) does.
class PointProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
