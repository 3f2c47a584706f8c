// SOFA's DirectionProjectiveConstraint (Vec types).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         DirectionProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Keeps each listed point on the line through its own initial position along `direction`
/// (normalised; SOFA's default, the zero vector, stays zero and holds the points where they
/// start): increments, forces and velocities are projected with P = nnᵀ (SOFA's projectResponse
/// and projectVelocity), positions onto each point's line (projectPosition). ProjectToLine with
/// one origin per point, SOFA's m_origin taken from the positions at init.
class DirectionProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
