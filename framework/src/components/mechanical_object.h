// SOFA's MechanicalObject: the DOFs of a node.
// Source: Sofa/Component/StateContainer/src/sofa/component/statecontainer/MechanicalObject.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Points of one template (Vec1d, Vec2d, Vec3d) with positions, velocities, rest positions and an
/// external force, as SOFA's MechanicalObject:
///  - with at most one position and one velocity, a topology of the same node gives the points
///    and a single velocity is broadcast to all of them;
///  - a velocity list shorter than the positions is zero-filled;
///  - reinit's transforms: scale, then rotation (Euler angles in degrees, quaternion Z·Y·X), then
///    translation; the legacy dx/dy/dz (read as floats) replace the translation;
///  - the rest position defaults to the *transformed* position times restScale.
/// Deviation: `force` is an output in SOFA; Fluxion refuses a non-zero value instead of ignoring
/// it.
class MechanicalObjectComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
