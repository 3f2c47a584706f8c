// SOFA's SphereLoader.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/SphereLoader.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads a SOFA sphere file (`.sph`: meshio/sphere_reader.cpp) and publishes the centres as
/// `position` and the radii as `listRadius`, for links such as SOFA's examples write
/// (`<MechanicalObject position="@[-1].position"/>`, `<SphereCollisionModel
/// listRadius="@[-2].listRadius"/>`). The centres are transformed as SOFA's applyTransform does:
/// x ← T·R·S·x (translation, Euler rotation in degrees, scale), the same transformation as a mesh
/// loader's; the radii are not scaled (SOFA's field help says they are, its code does not).
class SphereLoaderComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
