// SOFA's TransformEngine.
// Source: Sofa/Component/Engine/Transform/src/sofa/component/engine/transform/
//         TransformEngine.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Transforms a list of 3D points (`input_position`) into `output_position`, as SOFA applies its
/// operations in this order: scale (componentwise), rotation by the Euler angles `rotation`
/// [degrees] (SOFA's createQuaterFromEuler, R = Rz·Ry·Rx), rotation by `quaternion` (qx qy qz qw,
/// applied as SOFA's Quat::rotate: v + 2w(q×v) + 2q×(q×v)), translation. Each step is skipped
/// when its value is the neutral one. With `inverse`, each operation is inverted and their order
/// reversed. Deviation: Vec3 points only (SOFA also has Vec1, Vec2, Rigid2 and Rigid3 templates),
/// and the output is computed once when the scene is built (its inputs do not change).
class TransformEngineComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
