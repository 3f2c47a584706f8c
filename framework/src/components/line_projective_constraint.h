// SOFA's LineProjectiveConstraint (Vec types).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         LineProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Keeps points on the line through `origin` along `direction` (normalised; a zero direction
/// becomes the x axis, as in SOFA; default points "0"): increments, forces and velocities are
/// projected with P = nnᵀ (SOFA's projectResponse and projectVelocity), positions onto the line,
/// x ← o + n((x − o)·n) (projectPosition, at the start and after every step), and system
/// matrices become P·A·P + (I − P) on their rows and columns (see PlaneProjectiveConstraint).
class LineProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
